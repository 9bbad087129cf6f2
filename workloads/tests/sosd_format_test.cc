// SOSD files: round trip, and one clear error naming the file for each kind
// of bad input (truncated, count inconsistent with size, unsorted where
// sorted is required, no width suffix). Duplicates are counted, never dropped.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <unistd.h>

#include "sosd/sosd_format.h"

namespace {

class SosdFormat : public ::testing::Test {
 protected:
  std::string Path(const std::string& name) {
    return ::testing::TempDir() + "sosd_" + std::to_string(getpid()) + "_" + name;
  }
  void WriteRaw(const std::string& path, const std::string& bytes) {
    FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
  static std::string U64(uint64_t v) { return std::string(reinterpret_cast<char*>(&v), 8); }
};

TEST_F(SosdFormat, RoundTripBothWidths) {
  for (const char* suffix : {"_uint64", "_uint32"}) {
    std::string p = Path(std::string("rt") + suffix), err;
    std::vector<uint64_t> keys = {1, 5, 5, 9, 4000000000ULL}, back;
    ASSERT_TRUE(sosd::WriteKeys(p, keys, &err)) << err;
    sosd::ReadInfo info;
    ASSERT_TRUE(sosd::ReadKeys(p, true, &back, &info, &err)) << err;
    EXPECT_EQ(back, keys);
    EXPECT_EQ(info.duplicates, 1u);
    EXPECT_TRUE(info.sorted);
    std::remove(p.c_str());
  }
}

TEST_F(SosdFormat, LayoutIsCountThenLittleEndianKeys) {
  std::string p = Path("layout_uint32"), err;
  ASSERT_TRUE(sosd::WriteKeys(p, {0x01020304}, &err));
  FILE* f = std::fopen(p.c_str(), "rb");
  unsigned char b[12];
  ASSERT_EQ(std::fread(b, 1, 12, f), 12u);
  ASSERT_EQ(std::fgetc(f), EOF);
  std::fclose(f);
  EXPECT_EQ(b[0], 1);
  EXPECT_EQ(b[8], 4);
  EXPECT_EQ(b[11], 1);
  std::remove(p.c_str());
}

TEST_F(SosdFormat, TruncatedHeader) {
  std::string p = Path("trunc_uint64"), err;
  WriteRaw(p, "abc");
  std::vector<uint64_t> keys;
  EXPECT_FALSE(sosd::ReadKeys(p, false, &keys, nullptr, &err));
  EXPECT_EQ(err, p + ": truncated: no 8-byte count header");
  std::remove(p.c_str());
}

TEST_F(SosdFormat, TruncatedKeys) {
  std::string p = Path("short_uint64"), err;
  WriteRaw(p, U64(3) + U64(1) + U64(2));  // promises 3 keys, holds 2
  std::vector<uint64_t> keys;
  EXPECT_FALSE(sosd::ReadKeys(p, false, &keys, nullptr, &err));
  EXPECT_EQ(err, p + ": header count 3 needs 32 bytes, file has 24");
  std::remove(p.c_str());
}

TEST_F(SosdFormat, CountInconsistentWithSize) {
  std::string p = Path("long_uint64"), err;
  WriteRaw(p, U64(1) + U64(1) + U64(2));  // promises 1 key, holds 2
  std::vector<uint64_t> keys;
  EXPECT_FALSE(sosd::ReadKeys(p, false, &keys, nullptr, &err));
  EXPECT_EQ(err, p + ": header count 1 needs 16 bytes, file has 24");
  // A huge count must not overflow into a "matching" size.
  WriteRaw(p, U64(0x2000000000000001ULL) + U64(1));
  EXPECT_FALSE(sosd::ReadKeys(p, false, &keys, nullptr, &err));
  std::remove(p.c_str());
}

TEST_F(SosdFormat, UnsortedWhereSortedRequired) {
  std::string p = Path("unsorted_uint64"), err;
  ASSERT_TRUE(sosd::WriteKeys(p, {1, 3, 2}, &err));
  std::vector<uint64_t> keys;
  EXPECT_FALSE(sosd::ReadKeys(p, true, &keys, nullptr, &err));
  EXPECT_EQ(err, p + ": key 2 (2) is smaller than key 1; sorted keys expected");
  sosd::ReadInfo info;
  EXPECT_TRUE(sosd::ReadKeys(p, false, &keys, &info, &err));
  EXPECT_FALSE(info.sorted);
  std::remove(p.c_str());
}

TEST_F(SosdFormat, StreamingReaderMatchesAndChecks) {
  std::string p = Path("stream_uint32"), err;
  std::vector<uint64_t> keys;
  for (uint64_t i = 0; i < 3000000; i++) keys.push_back(i / 2);  // > one chunk, duplicates
  ASSERT_TRUE(sosd::WriteKeys(p, keys, &err));
  std::vector<uint64_t> seen;
  sosd::ReadInfo info;
  ASSERT_TRUE(sosd::ForEachKey(p, true, [&](uint64_t, uint64_t k) { seen.push_back(k); }, &info, &err));
  EXPECT_EQ(seen, keys);
  EXPECT_EQ(info.duplicates, 1500000u);
  uint64_t count = 0;
  ASSERT_TRUE(sosd::ReadCount(p, &count, &err));
  EXPECT_EQ(count, 3000000u);
  ASSERT_TRUE(sosd::WriteKeys(p, {1, 3, 2}, &err));
  EXPECT_FALSE(sosd::ForEachKey(p, true, [](uint64_t, uint64_t) {}, nullptr, &err));
  EXPECT_EQ(err, p + ": key 2 (2) is smaller than key 1; sorted keys expected");
  std::remove(p.c_str());
}

TEST_F(SosdFormat, NameWithoutWidth) {
  std::string err;
  std::vector<uint64_t> keys;
  EXPECT_FALSE(sosd::ReadKeys("/tmp/keys.bin", false, &keys, nullptr, &err));
  EXPECT_EQ(err, "/tmp/keys.bin: file name must end in _uint32 or _uint64 (SOSD key width)");
  EXPECT_FALSE(sosd::WriteKeys("/tmp/keys.bin", keys, &err));
}

TEST_F(SosdFormat, Uint32Overflow) {
  std::string p = Path("big_uint32"), err;
  EXPECT_FALSE(sosd::WriteKeys(p, {1ULL << 32}, &err));
  EXPECT_EQ(err, p + ": key 0 does not fit uint32");
}

}  // namespace

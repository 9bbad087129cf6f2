// fnvhash64 and key names against values computed from the definitions:
// FNV-1a 64 (published vectors for the byte function), applied to the eight
// little-endian bytes of the long, then Java's Math.abs; key names as
// CoreWorkload.buildKeyName writes them. user6284781860667377211 is YCSB's
// well-known first hashed key.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "ycsb/fnv.h"
#include "ycsb/key_name.h"

namespace ycsb {
namespace {

uint64_t Fnv1a(const char* s) {
  return Fnv1a64(reinterpret_cast<const unsigned char*>(s), std::strlen(s));
}

TEST(Fnv, PublishedFnv1a64Vectors) {
  EXPECT_EQ(Fnv1a(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(Fnv1a("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(Fnv1a("foobar"), 0x85944171f73967e8ULL);
}

TEST(Fnv, HashIsFnv1aOfLittleEndianBytesThenJavaAbs) {
  for (int64_t v : std::vector<int64_t>{0, 1, 42, -1, 123456789, INT64_MIN, INT64_MAX}) {
    unsigned char bytes[8];
    for (int i = 0; i < 8; i++) bytes[i] = static_cast<unsigned char>(static_cast<uint64_t>(v) >> (8 * i));
    int64_t h = static_cast<int64_t>(Fnv1a64(bytes, 8));
    EXPECT_EQ(FnvHash64(v), h < 0 ? -h : h) << v;
  }
}

TEST(Fnv, GoldenValues) {
  // FNV-1a of 0 is 0xa8c7f832281a39c5 (top bit set): the abs is what makes
  // this 6284781860667377211 and not a negative number.
  EXPECT_EQ(FnvHash64(0), 6284781860667377211LL);
  EXPECT_EQ(FnvHash64(1), 8517097267634966620LL);
  EXPECT_EQ(FnvHash64(2), 1820151046732198393LL);
  EXPECT_EQ(FnvHash64(42), 55488592825689361LL);
  EXPECT_EQ(FnvHash64(1000), 5952875239596136740LL);
  EXPECT_EQ(FnvHash64(123456789), 2350796791908741607LL);
  EXPECT_EQ(FnvHash64(2147483647), 627943977067101855LL);
  EXPECT_EQ(FnvHash64(INT64_MAX), 8289549613075766851LL);
  EXPECT_EQ(FnvHash64(-1), 8289690350564177859LL);
  EXPECT_EQ(FnvHash64(INT64_MIN), 6284922598155788219LL);
}

TEST(Fnv, JavaAbsKeepsMinValue) {
  EXPECT_EQ(JavaAbs(INT64_MIN), INT64_MIN);
  EXPECT_EQ(JavaAbs(-5), 5);
}

TEST(KeyName, HashedAsJavaBuildsThem) {
  EXPECT_EQ(BuildKeyName(0, 1, false), "user6284781860667377211");
  EXPECT_EQ(BuildKeyName(1, 1, false), "user8517097267634966620");
  EXPECT_EQ(BuildKeyName(42, 1, false), "user55488592825689361");
  EXPECT_EQ(BuildKeyName(999, 1, false), "user2071219101098386137");
  EXPECT_EQ(BuildKeyName(42, 20, false), "user00055488592825689361");
}

TEST(KeyName, OrderedAndZeroPadded) {
  EXPECT_EQ(BuildKeyName(0, 1, true), "user0");
  EXPECT_EQ(BuildKeyName(999, 1, true), "user999");
  EXPECT_EQ(BuildKeyName(42, 8, true), "user00000042");
  EXPECT_EQ(BuildKeyName(123456789, 4, true), "user123456789");  // no truncation
}

}  // namespace
}  // namespace ycsb

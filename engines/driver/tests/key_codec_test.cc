// Every key encoding of the dataset catalogue: what the bytes are, that
// they round-trip where they can, and that the verifier checks scans in the
// engine's order, so a run over a correct engine has no wrong answer and a
// scan that skips an entry is caught, whatever the encoding.
#include "key_codec.h"

#include <unistd.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "map_engine.h"
#include "runner.h"
#include "ycsb/key_name.h"

namespace lsmbench {
namespace {

std::string Enc(const KeyCodec& c, uint64_t k) {
  std::string s;
  c.Encode(k, &s);
  return s;
}

KeyCodec Parsed(const std::string& name) {
  KeyCodec c;
  std::string err;
  EXPECT_TRUE(c.Parse(name, &err)) << err;
  return c;
}

const std::vector<uint64_t> kEdges = {0, 1, 9, 10, 255, 256, uint64_t{1} << 32,
                                      UINT64_MAX - 1, UINT64_MAX};

TEST(KeyCodec, FixedWidthEncodingsPreserveOrderAndRoundTrip) {
  for (const char* name : {"be64", "be64_pad16", "decimal24", "decimal20"}) {
    KeyCodec c = Parsed(name);
    EXPECT_TRUE(c.order_preserving());
    std::string prev;
    for (uint64_t k : kEdges) {
      std::string s = Enc(c, k);
      EXPECT_EQ(s.size(), c.max_width()) << name;
      uint64_t back = 0;
      ASSERT_TRUE(c.Decode(s, &back)) << name << " " << k;
      EXPECT_EQ(back, k) << name;
      EXPECT_LT(prev, s) << name << " " << k;  // bytewise order == numeric order
      prev = s;
    }
  }
  EXPECT_EQ(Enc(Parsed("decimal24"), 42), "000000000000000000000042");
  EXPECT_EQ(Enc(Parsed("be64_pad16"), 258), std::string("\0\0\0\0\0\0\0\0\0\0\0\0\0\0\1\2", 16));
}

TEST(KeyCodec, UnknownNamesAreRejected) {
  std::string err;
  for (const char* bad : {"be32", "be64_pad4", "decimal8", "decimal", "be64_padx", "ycsb",
                          "decimal_varx"}) {
    EXPECT_FALSE(KeyCodec().Parse(bad, &err)) << bad;
  }
  EXPECT_NE(err.find("decimal_var or ycsb_user"), std::string::npos) << err;
}

TEST(KeyCodec, DecimalVarUsesEachKeysWidthAndOneWidthPerKey) {
  KeyCodec c = Parsed("decimal_var");
  EXPECT_TRUE(c.needs_widths());
  std::string err;
  // Keys as the file has them (a duplicate: the first one's width counts).
  ASSERT_TRUE(c.SetWidths({5, 5, 77, 123456789}, {8, 20, 24, 3}, &err)) << err;
  EXPECT_FALSE(c.needs_widths());
  EXPECT_FALSE(c.order_preserving());
  EXPECT_EQ(Enc(c, 5), "00000005");
  EXPECT_EQ(Enc(c, 77), std::string(22, '0') + "77");
  EXPECT_EQ(Enc(c, 123456789), "123456789");  // never narrower than its digits
  for (uint64_t k : kEdges) {  // keys outside the file: a width in [3, 24], stable
    std::string s = Enc(c, k);
    EXPECT_EQ(s, Enc(c, k));
    EXPECT_LE(s.size(), 24u);
    uint64_t back = 0;
    ASSERT_TRUE(c.Decode(s, &back)) << k;
    EXPECT_EQ(back, k);
    EXPECT_FALSE(c.Decode("0" + s, &back));  // the same number at another width is not a key
  }
  EXPECT_EQ(c.max_width(), 24u);
  EXPECT_FALSE(c.SetWidths({1, 2}, {8}, &err));
  EXPECT_FALSE(c.SetWidths({1}, {0}, &err));
}

TEST(KeyCodec, YcsbUserIsYcsbsKeyName) {
  KeyCodec c = Parsed("ycsb_user");
  EXPECT_FALSE(c.order_preserving());
  for (uint64_t k : {uint64_t{0}, uint64_t{1}, uint64_t{999}}) {
    EXPECT_EQ(Enc(c, k), ycsb::BuildKeyName(static_cast<int64_t>(k), 1, false));
  }
  EXPECT_EQ(Enc(c, 0).rfind("user", 0), 0u);
  uint64_t back;
  EXPECT_FALSE(c.Decode(Enc(c, 7), &back));  // a hash: not invertible
}

TEST(KeyCodec, LessIsTheEncodedOrder) {
  std::string err;
  for (const char* name : {"be64", "decimal24", "ycsb_user", "decimal_var"}) {
    KeyCodec c = Parsed(name);
    if (c.needs_widths()) ASSERT_TRUE(c.SetWidths({3, 40, 500}, {12, 8, 16}, &err)) << err;
    for (uint64_t a : kEdges) {
      for (uint64_t b : kEdges) EXPECT_EQ(c.Less(a, b), Enc(c, a) < Enc(c, b)) << name;
    }
  }
}

// A scan that drops its second entry, as a broken index bound would.
class SkippingEngine : public MapEngine {
 public:
  bool Scan(std::string_view k, size_t n, std::vector<KV>* out, std::string* e) override {
    MapEngine::Scan(k, n + 1, out, e);
    if (out->size() > 1) out->erase(out->begin() + 1);
    if (out->size() > n) out->resize(n);
    return true;
  }
};

class EncodedRunTest : public ::testing::TestWithParam<const char*> {
 protected:
  RunResult RunWith(Engine* e) {
    RunSpec spec;
    std::vector<uint64_t> widths;
    for (uint64_t k = 1; k < 2500; k++) {
      spec.keys.push_back(k * 13 + (k % 7));
      widths.push_back(8 + k % 17);
    }
    std::string err;
    EXPECT_TRUE(spec.codec.Parse(GetParam(), &err)) << err;
    if (spec.codec.needs_widths()) EXPECT_TRUE(spec.codec.SetWidths(spec.keys, widths, &err));
    spec.progress = false;
    spec.settle_every = 1000;
    spec.ops = DiffStream(spec.keys, 3000, 8);
    std::string path = ::testing::TempDir() + "/key_codec_test_" + std::to_string(getpid());
    RunLog log;
    EXPECT_TRUE(log.Open(path, &err)) << err;
    RunResult r = lsmbench::Run(e, spec, &log);
    EXPECT_TRUE(log.Finish("ok", &err)) << err;
    return r;
  }
};

TEST_P(EncodedRunTest, CorrectEngineHasNoWrongAnswers) {
  MapEngine e;
  RunResult r = RunWith(&e);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.wrong, 0u);
  EXPECT_GT(r.verified, 1000u);
}

TEST_P(EncodedRunTest, ScanThatSkipsAnEntryIsCaught) {
  SkippingEngine e;
  EXPECT_GT(RunWith(&e).wrong, 0u);
}

INSTANTIATE_TEST_SUITE_P(EveryCatalogueEncoding, EncodedRunTest,
                         ::testing::Values("be64", "be64_pad16", "decimal24", "decimal_var",
                                           "ycsb_user"));

}  // namespace
}  // namespace lsmbench

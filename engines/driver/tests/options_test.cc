#include "options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace lsmbench {

using ::testing::HasSubstr;
using OT = OptionSpec::Type;

OptionSet Sample() {
  return OptionSet({{"block_size", OT::kInt, "4096", "", {}},
                    {"ratio", OT::kDouble, "0.5", "", {}},
                    {"sync", OT::kBool, "false", "", {}},
                    {"compression", OT::kString, "none", "", {"none", "snappy"}}});
}

TEST(Options, DefaultsAndOverrides) {
  OptionSet o = Sample();
  std::string err;
  ASSERT_TRUE(o.Parse({"block_size=8192", "sync=true", "block_size=16384"}, &err)) << err;
  EXPECT_EQ(o.Int("block_size"), 16384);
  EXPECT_TRUE(o.Bool("sync"));
  EXPECT_DOUBLE_EQ(o.Double("ratio"), 0.5);
  EXPECT_EQ(o.Str("compression"), "none");
  nlohmann::json j = o.ToJson();
  EXPECT_EQ(j["block_size"], 16384);
  EXPECT_EQ(j["sync"], true);
  EXPECT_EQ(j["compression"], "none");
}

TEST(Options, UnknownKeyIsAnErrorNamingIt) {
  OptionSet o = Sample();
  std::string err;
  EXPECT_FALSE(o.Parse({"blocksize=8192"}, &err));
  EXPECT_THAT(err, HasSubstr("'blocksize'"));
  EXPECT_THAT(err, HasSubstr("unknown"));
  EXPECT_THAT(err, HasSubstr("block_size"));  // lists the known ones
}

TEST(Options, WrongTypesAndChoicesAreErrors) {
  std::string err;
  EXPECT_FALSE(Sample().Parse({"block_size=4k"}, &err));
  EXPECT_THAT(err, HasSubstr("expected an integer, got '4k'"));
  EXPECT_FALSE(Sample().Parse({"ratio=half"}, &err));
  EXPECT_THAT(err, HasSubstr("expected a number"));
  EXPECT_FALSE(Sample().Parse({"sync=yes"}, &err));
  EXPECT_THAT(err, HasSubstr("true or false"));
  EXPECT_FALSE(Sample().Parse({"compression=zlib"}, &err));
  EXPECT_THAT(err, HasSubstr("none|snappy"));
  EXPECT_FALSE(Sample().Parse({"block_size"}, &err));
  EXPECT_THAT(err, HasSubstr("expected key=value"));
  EXPECT_FALSE(Sample().Parse({"=3"}, &err));
}

}  // namespace lsmbench

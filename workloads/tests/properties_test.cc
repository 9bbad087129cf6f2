// The property parser: YCSB's file syntax, -p overrides, and one clear error
// naming the file, line and property for unknown or malformed properties.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "ycsb/properties.h"

namespace ycsb {
namespace {

TEST(Properties, ParsesJavaSyntax) {
  Properties p;
  std::string err;
  ASSERT_TRUE(p.LoadString("# comment\n! also comment\n\nrecordcount = 100\n"
                           "operationcount: 5\nrequestdistribution zipfian\n"
                           "readproportion=0.\\\n5\n",
                           "spec", &err))
      << err;
  EXPECT_EQ(p.GetInt("recordcount", 0), 100);
  EXPECT_EQ(p.GetInt("operationcount", 0), 5);
  EXPECT_EQ(p.Get("requestdistribution", ""), "zipfian");
  EXPECT_DOUBLE_EQ(p.GetDouble("readproportion", 0), 0.5);
  EXPECT_EQ(p.Where("operationcount"), "spec:5");
}

TEST(Properties, OverridesReplaceFileValues) {
  Properties p;
  std::string err;
  ASSERT_TRUE(p.LoadString("recordcount=1000\n", "spec", &err));
  ASSERT_TRUE(p.SetOverride("recordcount=5000", &err)) << err;
  EXPECT_EQ(p.GetInt("recordcount", 0), 5000);
  EXPECT_EQ(p.Where("recordcount"), "-p");
}

TEST(Properties, RejectsUnknownPropertyNamingFileAndLine) {
  Properties p;
  std::string err;
  EXPECT_FALSE(p.LoadString("recordcount=10\nreadproportoin=0.5\n", "workloadx", &err));
  EXPECT_EQ(err, "workloadx:2: readproportoin: unknown property (expected a YCSB CoreWorkload property)");
}

TEST(Properties, RejectsMalformedValues) {
  struct Case {
    const char* line;
    const char* error;
  } cases[] = {
      {"recordcount=ten", "w:1: recordcount: expected an integer >= 0, got 'ten'"},
      {"recordcount=-3", "w:1: recordcount: expected an integer >= 0, got '-3'"},
      {"readproportion=1.5", "w:1: readproportion: expected a number in [0, 1], got '1.5'"},
      {"requestdistribution=zipf",
       "w:1: requestdistribution: expected one of {uniform,zipfian,latest,hotspot,sequential,"
       "exponential}, got 'zipf'"},
      {"insertorder=random", "w:1: insertorder: expected one of {hashed,ordered}, got 'random'"},
      {"zipfianconstant=1", "w:1: zipfianconstant: expected a number in (0, 1), got '1'"},
      {"maxscanlength=0", "w:1: maxscanlength: expected an integer >= 1, got '0'"},
      {"readallfields=yes", "w:1: readallfields: expected true or false, got 'yes'"},
      {"recordcount", "w:1: recordcount: expected 'key=value', got a key without a value"},
  };
  for (const Case& c : cases) {
    Properties p;
    std::string err;
    EXPECT_FALSE(p.LoadString(c.line, "w", &err)) << c.line;
    EXPECT_EQ(err, c.error);
  }
}

TEST(Properties, RejectsMalformedOverride) {
  Properties p;
  std::string err;
  EXPECT_FALSE(p.SetOverride("recordcount", &err));
  EXPECT_EQ(err, "-p: 'recordcount': expected key=value");
  EXPECT_FALSE(p.SetOverride("fieldcount=0", &err));
  EXPECT_EQ(err, "-p: fieldcount: expected an integer >= 1, got '0'");
}

TEST(Properties, MissingFileIsOneLine) {
  Properties p;
  std::string err;
  EXPECT_FALSE(p.LoadFile("/nonexistent/workloadz", &err));
  EXPECT_EQ(err, "/nonexistent/workloadz: cannot open: No such file or directory");
}

TEST(Properties, ShippedSpecsParse) {
  for (const char* name : {"workloada", "workloadb", "workloadc", "workloadd", "workloade", "workloadf"}) {
    Properties p;
    std::string err;
    EXPECT_TRUE(p.LoadFile(std::string(WORKLOADS_SPEC_DIR) + "/" + name, &err)) << err;
  }
}

}  // namespace
}  // namespace ycsb

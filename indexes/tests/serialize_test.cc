// detail/serialize.h: round trips, and truncation/corruption named in the
// returned Status rather than crashing.
#include "lidx/detail/serialize.h"

#include <gtest/gtest.h>

namespace lidx {
namespace detail {
namespace {

TEST(Serialize, RoundTripAndHeader) {
  std::string out;
  Writer w(&out);
  w.Header<uint64_t>("pgm", 3);
  w.Pod<uint32_t>(7);
  w.Vector(std::vector<double>{1.5, -2.0});
  w.Bytes("abc");
  Reader r(out);
  ASSERT_TRUE(r.Header<uint64_t>("pgm", 3).ok());
  uint32_t v;
  std::vector<double> d;
  std::string s;
  ASSERT_TRUE(r.Pod(&v, "v").ok());
  ASSERT_TRUE(r.Vector(&d, "d").ok());
  ASSERT_TRUE(r.Bytes(&s, "s").ok());
  EXPECT_TRUE(r.Finish().ok());
  EXPECT_EQ(v, 7u);
  EXPECT_EQ(d, (std::vector<double>{1.5, -2.0}));
  EXPECT_EQ(s, "abc");
}

TEST(Serialize, ErrorsNameWhatIsWrong) {
  std::string out;
  Writer w(&out);
  w.Header<uint64_t>("rs", 1);
  w.Vector(std::vector<uint64_t>{1, 2, 3});
  {
    Reader r(out);
    EXPECT_NE(r.Header<uint64_t>("pgm", 1).message().find("'rs'"),
              std::string::npos);
  }
  {
    Reader r(out);
    EXPECT_NE(r.Header<uint64_t>("rs", 2).message().find("version"),
              std::string::npos);
  }
  {
    Reader r(out);
    EXPECT_NE(r.Header<u128>("rs", 1).message().find("16"), std::string::npos);
  }
  {
    Reader r(std::string_view(out).substr(0, out.size() - 1));
    ASSERT_TRUE(r.Header<uint64_t>("rs", 1).ok());
    std::vector<uint64_t> v;
    Status s = r.Vector(&v, "spline points");
    EXPECT_NE(s.message().find("truncated reading spline points"),
              std::string::npos)
        << s.message();
    EXPECT_TRUE(v.empty());
  }
  {
    // A count claiming more than the bytes left must not allocate or crash.
    std::string bad;
    Writer(&bad).Pod<uint64_t>(~uint64_t{0});
    Reader r(bad);
    std::vector<uint64_t> v;
    EXPECT_FALSE(r.Vector(&v, "huge").ok());
  }
  {
    Reader r(out + "x");
    std::vector<uint64_t> v;
    ASSERT_TRUE(r.Header<uint64_t>("rs", 1).ok());
    ASSERT_TRUE(r.Vector(&v, "v").ok());
    EXPECT_FALSE(r.Finish().ok());
  }
}

}  // namespace
}  // namespace detail
}  // namespace lidx

// Regression tests for PGM's descent and RMI's roots: the per-level bound
// widths PGM's epsilons promise, and the leaf spread a skew-aware RMI root
// must achieve, both on lognormal(0, 2) keys (the bench's skewed dataset).
#include <gtest/gtest.h>

#include <string>

#include "datasets.h"
#include "harness.h"
#include "lidx/pgm.h"
#include "lidx/rmi.h"

namespace lidx_test {
namespace {

// Every level, not just the one over the data, must keep its epsilon: the
// descent's window at level l is as wide as level l's measured error.
TEST(PgmLevels, EachLevelWithinItsEpsilonOnLognormal) {
  struct Case {
    uint64_t eps, eps_rec;
  };
  for (const char* ds : {"lognormal", "extremes", "clustered"}) {
    auto keys = MakeKeys<uint64_t>(ds, 150000, Mix(BaseSeed(), ds));
    for (Case c : {Case{64, 4}, Case{4, 2}, Case{1, 1}, Case{16, 16}}) {
      lidx::PgmIndex<uint64_t> idx;
      ASSERT_TRUE(idx.Configure({{"epsilon", std::to_string(c.eps)},
                                 {"epsilon_recursive", std::to_string(c.eps_rec)}})
                      .ok());
      ASSERT_TRUE(idx.Build(keys.data(), keys.size(), nullptr).ok());
      ASSERT_GE(idx.NumLevels(), 1u);
      for (size_t l = 0; l < idx.NumLevels(); ++l) {
        const uint64_t eps = l == 0 ? c.eps : c.eps_rec;
        lidx::detail::Errors e = idx.LevelErrors(l);
        EXPECT_LE(static_cast<uint64_t>(e.lo + e.hi), 2 * eps + 2)
            << ds << " eps=" << c.eps << " eps_rec=" << c.eps_rec
            << " level=" << l << " of " << idx.NumLevels()
            << " size=" << idx.LevelSize(l);
      }
      // Recursion stops at a small top level, and only there.
      EXPECT_LE(idx.LevelSize(idx.NumLevels() - 1),
                lidx::PgmIndex<uint64_t>::kMaxTopSegments);
      for (size_t l = 0; l + 1 < idx.NumLevels(); ++l) {
        EXPECT_GT(idx.LevelSize(l), lidx::PgmIndex<uint64_t>::kMaxTopSegments);
      }
    }
  }
}

TEST(PgmLevels, DeepDescentAnswersEveryQuery) {
  // Tiny epsilons force several recursive levels; the harness proves every
  // bound (present, absent, extreme keys) and the serialization round trip.
  auto keys = MakeKeys<uint64_t>("lognormal", 150000, 11);
  lidx::PgmIndex<uint64_t> idx;
  ASSERT_TRUE(idx.Configure({{"epsilon", "1"}, {"epsilon_recursive", "1"}}).ok());
  idx.Build(keys.data(), keys.size(), nullptr);
  EXPECT_GE(idx.NumLevels(), 3u);
  auto r = CheckIndex<uint64_t>("pgm", {{"epsilon", "1"}, {"epsilon_recursive", "1"}},
                                keys, "dataset=lognormal n=150000 seed=11");
  EXPECT_LE(r.max_width, 4u);
}

double AverageRmiWidth(const std::vector<uint64_t>& keys, const lidx::Options& o,
                       lidx::RmiIndex<uint64_t>* idx) {
  EXPECT_TRUE(idx->Configure(o).ok());
  EXPECT_TRUE(idx->Build(keys.data(), keys.size(), nullptr).ok());
  double sum = 0;
  for (uint64_t k : keys) {
    lidx::Bound b = idx->Search(k);
    sum += static_cast<double>(b.hi - b.lo);
  }
  return sum / keys.size();
}

// With leaves = n / 64 a root that spreads keys evenly leaves ~64 keys per
// leaf, so an average bound wider than that means the root piles keys into
// few leaves (the linear_spline root averages thousands here).
TEST(RmiRoot, DefaultRootSpreadsLognormalKeys) {
  auto keys = MakeKeys<uint64_t>("lognormal", 200000, Mix(BaseSeed(), "rmi"));
  lidx::RmiIndex<uint64_t> def, radix, spline;
  double w_def = AverageRmiWidth(keys, {}, &def);
  double w_radix = AverageRmiWidth(keys, {{"root", "radix"}}, &radix);
  double w_spline = AverageRmiWidth(keys, {{"root", "linear_spline"}}, &spline);
  EXPECT_EQ(def.RootKind(), lidx::RmiIndex<uint64_t>::Root::kRadix);
  EXPECT_LE(w_def, 32.0);
  EXPECT_LE(w_radix, 32.0);
  EXPECT_GT(w_spline, 10 * w_radix) << "the dataset no longer stresses the root";
}

TEST(RmiRoot, AutoKeepsTheLinearSplineOnUniformKeys) {
  auto keys = MakeKeys<uint64_t>("uniform", 200000, Mix(BaseSeed(), "rmi"));
  lidx::RmiIndex<uint64_t> idx;
  double w = AverageRmiWidth(keys, {}, &idx);
  EXPECT_EQ(idx.RootKind(), lidx::RmiIndex<uint64_t>::Root::kLinearSpline);
  EXPECT_LE(w, 32.0);
}

TEST(RmiRoot, EveryRootKeepsTheContract) {
  const char* roots[] = {"auto", "radix", "linear_spline", "linear", "cubic"};
  const char* datasets[] = {"uniform", "lognormal", "clustered", "duplicates",
                            "extremes", "dense", "all_equal", "two"};
  for (const char* root : roots) {
    for (const char* ds : datasets) {
      for (uint64_t leaves : {1, 64, 1000}) {
        size_t n = std::string(ds) == "two" ? 2 : 10000;
        uint64_t seed = Mix(BaseSeed(), ds);
        auto keys = MakeKeys<uint64_t>(ds, n, seed);
        lidx::Options o{{"root", root}, {"leaves", std::to_string(leaves)}};
        auto r = CheckIndex<uint64_t>("rmi", o, keys,
                                      std::string("dataset=") + ds + " root=" +
                                          root + " seed=" + std::to_string(seed));
        lidx::RmiIndex<uint64_t> idx;
        ASSERT_TRUE(idx.Configure(o).ok());
        idx.Build(keys.data(), keys.size(), nullptr);
        EXPECT_LE(r.max_width, 2 * idx.MaxLeafError()) << ds << " " << root;
      }
    }
  }
  // 128-bit keys and a coarse / fine radix table.
  for (const char* bits : {"0", "10"}) {
    auto keys = MakeKeys<lidx::u128>("str_prefix16", 8000, 3);
    CheckIndex<lidx::u128>("rmi", {{"root", "radix"}, {"root_bits", bits}}, keys,
                           std::string("str_prefix16 root_bits=") + bits);
    auto k64 = MakeKeys<uint64_t>("lognormal", 20000, 4);
    CheckIndex<uint64_t>("rmi", {{"root", "radix"}, {"root_bits", bits}}, k64,
                         std::string("lognormal root_bits=") + bits);
  }
}

TEST(RmiRoot, CubicIsUsedOnlyWhenMonotoneInFloatingPoint) {
  // Keys whose CDF is convex in key space (dense at the top) suit the
  // forward form; whatever the fit, the root kind says what was used.
  std::vector<uint64_t> keys;
  for (uint64_t i = 0; i < 20000; ++i) keys.push_back(i * i * 1000 / 20000 + i);
  lidx::RmiIndex<uint64_t> idx;
  ASSERT_TRUE(idx.Configure({{"root", "cubic"}}).ok());
  idx.Build(keys.data(), keys.size(), nullptr);
  EXPECT_NE(idx.RootKind(), lidx::RmiIndex<uint64_t>::Root::kRadix);
  CheckIndex<uint64_t>("rmi", {{"root", "cubic"}}, keys, "sqrt-shaped cdf");
}

TEST(RmiRoot, RejectsUnknownRoot) {
  std::string err;
  EXPECT_EQ(lidx::MakeIndex<uint64_t>("rmi", {{"root", "quadratic"}}, &err), nullptr);
  EXPECT_NE(err.find("root"), std::string::npos) << err;
  EXPECT_EQ(lidx::MakeIndex<uint64_t>("rmi", {{"root_bits", "11"}}, &err), nullptr);
  EXPECT_EQ(lidx::MakeIndex<uint64_t>("rmi", {{"bogus", "1"}}, &err), nullptr);
  EXPECT_NE(err.find("root"), std::string::npos) << err;
}

}  // namespace
}  // namespace lidx_test

// Zipfian generators against their analytic distributions.
//
// Gray's algorithm is exact for items 0 and 1 and inverts a continuous
// approximation for the rest, so the law YCSB draws from is not exactly
// p(i) ~ 1/(i+1)^theta. The tests compute that law in closed form (the
// u-interval each item gets), chi-square the draws against it, and check
// separately that it stays within 2% (Kolmogorov distance) of the true Zipf
// law, which is Gray's approximation error at these sizes.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/gray_law.h"
#include "tests/stats.h"
#include "ycsb/generators.h"
#include "ycsb/zipfian.h"

namespace ycsb {
namespace {

TEST(Zipfian, MatchesGrayLawChiSquare) {
  for (double theta : {0.99, 0.9, 0.5}) {
    const int64_t n = 1000;
    const uint64_t draws = 1000000;
    Random64 rnd(7);
    ZipfianGenerator z(0, n - 1, theta, &rnd);
    std::vector<uint64_t> counts(n);
    for (uint64_t i = 0; i < draws; i++) {
      int64_t v = z.Next();
      ASSERT_GE(v, 0);
      ASSERT_LT(v, n);
      counts[v]++;
    }
    auto chi = teststats::ChiSquareTest(counts, teststats::GrayPmf(n, n, theta), draws);
    EXPECT_TRUE(chi.Passes()) << "theta " << theta << " chi2 " << chi.stat << " df " << chi.df;
  }
}

TEST(Zipfian, GrayLawIsCloseToTrueZipf) {
  const int64_t n = 1000;
  auto gray = teststats::GrayPmf(n, n, 0.99);
  double zeta = ZetaSum(0, n, 0.99, 0.0), cg = 0, ct = 0, d = 0;
  for (int64_t k = 0; k < n; k++) {
    cg += gray[k];
    ct += 1 / std::pow(k + 1.0, 0.99) / zeta;
    d = std::max(d, std::abs(cg - ct));
  }
  EXPECT_LT(d, 0.02);
  EXPECT_NEAR(gray[0], 1 / zeta, 1e-12);  // the first two items are exact
}

TEST(Zipfian, HonoursBase) {
  Random64 rnd(1);
  ZipfianGenerator z(1000, 1099, 0.99, &rnd);
  int64_t lo = INT64_MAX, hi = INT64_MIN, at_base = 0;
  for (int i = 0; i < 100000; i++) {
    int64_t v = z.Next();
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    at_base += v == 1000;
  }
  EXPECT_EQ(lo, 1000);  // YCSB-C returns 0-based values here
  EXPECT_LE(hi, 1099);
  EXPECT_GT(at_base, 100000 / 6);  // item 0 carries 1/zeta(100) = 18.9%
}

TEST(Zipfian, IncrementalZetaEqualsFromScratch) {
  Random64 rnd(3);
  ZipfianGenerator grown(0, 999, 0.99, &rnd);
  grown.Next(5000);
  EXPECT_NEAR(grown.zetan(), ZetaSum(0, 5000, 0.99, 0.0), 1e-9);
  // Java keeps the old zeta when the count shrinks.
  grown.Next(10);
  EXPECT_NEAR(grown.zetan(), ZetaSum(0, 5000, 0.99, 0.0), 1e-9);
}

TEST(Zipfian, ScrambledConstantIsZetaOfTenToTheTen) {
  // YCSB's hard-coded ZETAN is the zeta of 10^10 items at 0.99.
  EXPECT_NEAR(ZetaFast(10000000000LL, 0.99), ScrambledZipfianGenerator::kZetan, 1e-6);
  EXPECT_NEAR(ZetaFast(2000000, 0.9), ZetaSum(0, 2000000, 0.9, 0.0), 1e-9);
}

TEST(Zipfian, ScrambledIsHashedZipfianOverTenToTheTen) {
  const int64_t lo = 500, hi = 1499;
  Random64 a(11), b(11);
  ScrambledZipfianGenerator s(lo, hi, 0.99, &a);
  ZipfianGenerator z(0, ScrambledZipfianGenerator::kItemCount, 0.99,
                     ScrambledZipfianGenerator::kZetan, &b);
  for (int i = 0; i < 10000; i++) {
    int64_t v = s.Next();
    ASSERT_EQ(v, lo + FnvHash64(z.Next()) % (hi - lo + 1));
    ASSERT_GE(v, lo);
    ASSERT_LE(v, hi);
  }
}

TEST(Zipfian, ScrambledHotKeysHaveZipfMass) {
  // Item 0 of the 10^10-item zipfian has mass 1/ZETAN = 3.78%, item 1 has
  // 0.5^0.99/ZETAN; they land on fnvhash64(0) and fnvhash64(1) mod the range.
  // Every other key gets on average (1 - those) / itemcount from the tail.
  const int64_t items = 100000;
  const uint64_t draws = 2000000;
  Random64 rnd(5);
  ScrambledZipfianGenerator s(0, items - 1, 0.99, &rnd);
  std::vector<uint64_t> counts(items);
  for (uint64_t i = 0; i < draws; i++) counts[s.Next()]++;
  double p0 = 1 / ScrambledZipfianGenerator::kZetan;
  double p1 = std::pow(0.5, 0.99) / ScrambledZipfianGenerator::kZetan;
  for (auto [key, p] : {std::pair<int64_t, double>{FnvHash64(0) % items, p0},
                        std::pair<int64_t, double>{FnvHash64(1) % items, p1}}) {
    double expected = draws * p;
    double sd = std::sqrt(draws * p * (1 - p)) + std::sqrt(draws * 0.02 / items);
    // The tail adds a small, positive amount to each key.
    EXPECT_GT(counts[key], expected - teststats::kZ * sd) << key;
    EXPECT_LT(counts[key], expected + draws * 0.02 / items * 50 + teststats::kZ * sd) << key;
  }
}

TEST(Zipfian, UnderlyingLawOverTenToTheTenByDecade) {
  // The scrambled generator's underlying draw over 10^10 + 1 items, binned
  // by decade, against the Gray law's decade masses in closed form.
  Random64 rnd(9);
  const int64_t n = ScrambledZipfianGenerator::kItemCount + 1;
  ZipfianGenerator z(0, n - 1, 0.99, ScrambledZipfianGenerator::kZetan, &rnd);
  const double zetan = ScrambledZipfianGenerator::kZetan, theta = 0.99;
  double z2 = 1 + std::pow(0.5, theta);
  double eta = (1 - std::pow(2.0 / n, 1 - theta)) / (1 - z2 / zetan);
  double u0 = z2 / zetan;
  auto cdf_below = [&](double k) {  // P(value < k) for k >= 2
    double u = (std::pow(k / n, 1 - theta) - 1) / eta + 1;
    return std::min(1.0, std::max(u0, u));
  };
  std::vector<double> edges = {0, 1, 2};
  for (double e = 10; e < n; e *= 10) edges.push_back(e);
  edges.push_back(static_cast<double>(n));
  std::vector<double> prob(edges.size() - 1);
  prob[0] = 1 / zetan;
  prob[1] = std::pow(0.5, theta) / zetan;
  for (size_t i = 2; i < prob.size(); i++) prob[i] = cdf_below(edges[i + 1]) - cdf_below(edges[i]);
  const uint64_t draws = 1000000;
  std::vector<uint64_t> counts(prob.size());
  for (uint64_t i = 0; i < draws; i++) {
    double v = static_cast<double>(z.Next());
    size_t b = std::upper_bound(edges.begin(), edges.end(), v) - edges.begin() - 1;
    counts[std::min(b, counts.size() - 1)]++;
  }
  auto chi = teststats::ChiSquareTest(counts, prob, draws);
  EXPECT_TRUE(chi.Passes()) << chi.stat << " df " << chi.df;
}

}  // namespace
}  // namespace ycsb

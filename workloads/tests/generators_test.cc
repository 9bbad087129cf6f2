// The remaining YCSB generators against their analytic distributions
// (chi-square or Kolmogorov-Smirnov at significance 1e-6, fixed seeds), and
// the acknowledged counter's guarantee that latest never runs ahead of it.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/gray_law.h"
#include "tests/stats.h"
#include "ycsb/generators.h"

namespace ycsb {
namespace {

TEST(Random64, SameSeedSameStreamDifferentSeedDifferent) {
  Random64 a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 100; i++) {
    uint64_t x = a.Next();
    ASSERT_EQ(x, b.Next());
    differs |= x != c.Next();
  }
  EXPECT_TRUE(differs);
  EXPECT_NE(StreamSeed(1, 1), StreamSeed(1, 2));
}

TEST(Random64, DoubleIsUniformKs) {
  Random64 r(1);
  std::vector<double> s(200000);
  for (double& x : s) x = r.NextDouble();
  EXPECT_LT(teststats::KsDistance(s, [](double x) { return x; }), teststats::KsCritical(s.size()));
}

TEST(Uniform, ChiSquareOverRange) {
  Random64 r(2);
  UniformLongGenerator u(100, 1099, &r);
  std::vector<uint64_t> counts(1000);
  const uint64_t n = 1000000;
  for (uint64_t i = 0; i < n; i++) {
    int64_t v = u.Next();
    ASSERT_GE(v, 100);
    ASSERT_LE(v, 1099);
    counts[v - 100]++;
  }
  auto chi = teststats::ChiSquareTest(counts, std::vector<double>(1000, 1e-3), n);
  EXPECT_TRUE(chi.Passes()) << chi.stat;
}

TEST(Sequential, CountsAndWraps) {
  SequentialGenerator s(10, 12);
  std::vector<int64_t> got;
  for (int i = 0; i < 7; i++) got.push_back(s.Next());
  EXPECT_EQ(got, (std::vector<int64_t>{10, 11, 12, 10, 11, 12, 10}));
}

TEST(Hotspot, HotAndColdSetsChiSquare) {
  Random64 r(3);
  const int64_t lb = 1000, ub = 1999;  // 1000 records, hot set = first 200
  HotspotIntegerGenerator h(lb, ub, 0.2, 0.8, &r);
  ASSERT_EQ(h.hot_interval(), 200);
  std::vector<uint64_t> counts(1000);
  const uint64_t n = 1000000;
  for (uint64_t i = 0; i < n; i++) {
    int64_t v = h.Next();
    ASSERT_GE(v, lb);
    ASSERT_LE(v, ub);
    counts[v - lb]++;
  }
  std::vector<double> p(1000);
  for (int i = 0; i < 1000; i++) p[i] = i < 200 ? 0.8 / 200 : 0.2 / 800;
  auto chi = teststats::ChiSquareTest(counts, p, n);
  EXPECT_TRUE(chi.Passes()) << chi.stat;
}

TEST(Exponential, KsAgainstCdf) {
  Random64 r(4);
  // 95% of the draws below 1000, as exponential.percentile/frac set it.
  ExponentialGenerator e(95, 1000, &r);
  std::vector<double> s(200000);
  for (double& x : s) x = e.Next();
  double gamma = e.gamma();
  EXPECT_NEAR(1 - std::exp(-gamma * 1000), 0.95, 1e-12);
  EXPECT_LT(teststats::KsDistance(s, [&](double x) { return 1 - std::exp(-gamma * x); }),
            teststats::KsCritical(s.size()));
}

TEST(Discrete, ProportionsChiSquare) {
  Random64 r(5);
  DiscreteGenerator<int> d(&r);
  d.Add(0.5, 0);
  d.Add(0.3, 1);
  d.Add(0.15, 2);
  d.Add(0.05, 3);
  std::vector<uint64_t> counts(4);
  const uint64_t n = 1000000;
  for (uint64_t i = 0; i < n; i++) counts[d.Next()]++;
  auto chi = teststats::ChiSquareTest(counts, {0.5, 0.3, 0.15, 0.05}, n);
  EXPECT_TRUE(chi.Passes()) << chi.stat;
}

TEST(AcknowledgedCounter, LimitMovesOnlyOverContiguousAcks) {
  AcknowledgedCounterGenerator c(100);
  EXPECT_EQ(c.Last(), 99);
  int64_t a = c.Next(), b = c.Next(), d = c.Next();
  c.Acknowledge(b);
  EXPECT_EQ(c.Last(), 99);  // 100 still pending
  c.Acknowledge(a);
  EXPECT_EQ(c.Last(), 101);
  c.Acknowledge(d);
  EXPECT_EQ(c.Last(), 102);
}

TEST(SkewedLatest, ReversedZipfOverAcknowledgedKeys) {
  // With the basis fixed at `last`, last - Next() is zipfian over last items
  // (most recent most popular); item 0 (= the newest key) has mass 1/zeta.
  Random64 r(6);
  AcknowledgedCounterGenerator basis(1001);  // Last() = 1000
  SkewedLatestGenerator g(&basis, &r);
  const uint64_t n = 500000;
  std::vector<uint64_t> counts(1000);
  for (uint64_t i = 0; i < n; i++) {
    int64_t v = g.Next();
    ASSERT_GE(v, 1);
    ASSERT_LE(v, 1000);
    counts[1000 - v]++;
  }
  // Chi-square against YCSB's zipfian law over the 1000 acknowledged keys.
  auto chi = teststats::ChiSquareTest(counts, teststats::GrayPmf(1000, 1000, 0.99), n);
  EXPECT_TRUE(chi.Passes()) << chi.stat << " df " << chi.df;
}

TEST(SkewedLatest, NeverPastAcknowledgedLimit) {
  Random64 r(7);
  AcknowledgedCounterGenerator basis(1000);
  SkewedLatestGenerator g(&basis, &r);
  std::vector<int64_t> pending;
  for (int round = 0; round < 2000; round++) {
    // Hand out three keys, acknowledge them out of order over time.
    for (int k = 0; k < 3; k++) pending.push_back(basis.Next());
    if (round % 2 == 0) {
      basis.Acknowledge(pending.back());
      pending.pop_back();
    } else {
      for (int64_t p : pending) basis.Acknowledge(p);
      pending.clear();
    }
    for (int k = 0; k < 20; k++) ASSERT_LE(g.Next(), basis.Last());
  }
}

}  // namespace
}  // namespace ycsb

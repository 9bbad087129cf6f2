// Dataset generators: the promised shape of each set (sorted, count,
// distinct or with duplicates, ranges), determinism in the seed, SOSD's
// numpy stream for uspr, the normal quantile's accuracy, lookups (negatives
// absent, positives present, share honoured) and SOSD downsampling.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "gen/lookups.h"
#include "tests/stats.h"
#include "gen/normal.h"
#include "gen/registry.h"
#include "gen/sosd_synth.h"
#include "gen/study_sets.h"

namespace gen {
namespace {

Keys Gen(const std::string& name, uint64_t n, uint64_t seed,
         std::map<std::string, std::string> params = {}) {
  const Generator* g = FindGenerator(name);
  EXPECT_NE(g, nullptr) << name;
  Params p(params);
  Keys keys;
  std::string err;
  EXPECT_TRUE(g->run(n, seed, 64, &p, &keys, &err)) << name << ": " << err;
  EXPECT_EQ(p.Unused(), "");
  return keys;
}

uint64_t Duplicates(const Keys& k) {
  uint64_t d = 0;
  for (size_t i = 1; i < k.size(); i++) d += k[i] == k[i - 1];
  return d;
}

TEST(NormalQuantile, InvertsTheCdf) {
  EXPECT_NEAR(NormalQuantile(0.975), 1.959963984540054, 1e-15);
  EXPECT_NEAR(NormalQuantile(0.5), 0.0, 0.0);
  EXPECT_NEAR(NormalQuantile(1e-9), -5.997807015008, 1e-11);
  for (double p : {1e-300, 1e-12, 1e-5, 0.001, 0.1, 0.3, 0.49}) {
    double x = NormalQuantile(p);
    EXPECT_NEAR(NormalCdfLower(x) / p, 1.0, 1e-13) << p;  // erfc's own accuracy
    double upper = 1 - p;  // its complement 1 - upper is exact
    EXPECT_EQ(NormalQuantile(upper), -NormalQuantile(1 - upper)) << p;
  }
}

TEST(SosdSynth, UniformDenseStartsAt42) {
  Keys k = SosdUniformDense(5, 64);
  EXPECT_EQ(k, (Keys{42, 43, 44, 45, 46}));
}

TEST(SosdSynth, NumpyLegacyStream) {
  // np.random.seed(42); np.random.randint(0, 2**64 - 1, 3, dtype=np.uint64)
  // and the uint32 variant, as SOSD's gen_uniform.py calls them.
  NumpyLegacyRandom r64(42);
  EXPECT_EQ(r64.RandintU64(0, ~0ULL), 6909045637428952499ULL);
  EXPECT_EQ(r64.RandintU64(0, ~0ULL), 17537583593393853710ULL);
  NumpyLegacyRandom r32(42);
  EXPECT_EQ(r32.RandintU32(0, 0xFFFFFFFFU), 1608637542U);
  EXPECT_EQ(r32.RandintU32(0, 0xFFFFFFFFU), 3421126067U);
}

TEST(SosdSynth, QuantileSetsAreSortedAndSpanTheRange) {
  for (int width : {32, 64}) {
    for (const Keys& k : {SosdNormal(10000, width), SosdLognormal(10000, width, width == 32 ? 1 : 2)}) {
      ASSERT_EQ(k.size(), 10000u);
      EXPECT_TRUE(std::is_sorted(k.begin(), k.end()));
      EXPECT_EQ(k.front(), 0u);
      EXPECT_EQ(k.back(), width == 32 ? 4294967295ULL : 9223372036854775808ULL);
    }
  }
}

TEST(StandIns, ShapeAndDeterminism) {
  const uint64_t n = 50000;
  for (const char* name : {"fb_like", "osm_like", "books_like", "twitter_like",
                           "amazon_reviews_like", "nyc_osm_like"}) {
    Keys a = Gen(name, n, 42), b = Gen(name, n, 42), c = Gen(name, n, 43);
    ASSERT_EQ(a.size(), n) << name;
    EXPECT_TRUE(std::is_sorted(a.begin(), a.end())) << name;
    EXPECT_EQ(Duplicates(a), 0u) << name;
    EXPECT_EQ(a, b) << name;
    EXPECT_NE(a, c) << name;
    EXPECT_TRUE(FindGenerator(name)->stands_in_for != "") << name;
  }
}

TEST(StandIns, WikiHasDuplicatesAndTimestamps) {
  Keys k = Gen("wiki_like", 200000, 42);
  ASSERT_EQ(k.size(), 200000u);
  EXPECT_TRUE(std::is_sorted(k.begin(), k.end()));
  double dup_share = static_cast<double>(Duplicates(k)) / k.size();
  EXPECT_GT(dup_share, 0.1);
  EXPECT_LT(dup_share, 0.5);
  EXPECT_GE(k.front(), 979516800u);  // 2001-01-15
}

TEST(StandIns, OsmIsClusteredFbIsNot) {
  // Share of keys in the densest 1% of the key range: clustered sets pack
  // far more than 1% there, near-uniform ones about 1%.
  auto densest = [](const Keys& k) {
    double lo = k.front(), hi = k.back(), w = (hi - lo) / 100;
    size_t best = 0;
    for (int i = 0; i < 100; i++) {
      auto a = std::lower_bound(k.begin(), k.end(), static_cast<uint64_t>(lo + i * w));
      auto b = std::lower_bound(k.begin(), k.end(), static_cast<uint64_t>(lo + (i + 1) * w));
      best = std::max<size_t>(best, b - a);
    }
    return static_cast<double>(best) / k.size();
  };
  EXPECT_GT(densest(Gen("osm_like", 100000, 42)), 0.05);
  Keys fb = Gen("fb_like", 100000, 42);
  fb.resize(fb.size() - 1);  // drop the top outlier, which stretches the range
  EXPECT_LT(densest(fb), 0.03);
}

TEST(Bourbon, LinearAndSegmented) {
  EXPECT_EQ(Gen("bourbon_linear", 4, 1), (Keys{0, 1, 2, 3}));
  Keys seg = Gen("bourbon_segmented", 25, 1, {{"run", "10"}, {"gap", "1000"}});
  EXPECT_EQ(seg[9], 9u);
  EXPECT_EQ(seg[10], 1010u);  // a new segment after 10 consecutive keys
  EXPECT_EQ(seg[20], 2020u);
  Keys normal = Gen("bourbon_normal", 100000, 1);
  EXPECT_EQ(Duplicates(normal), 0u);
  EXPECT_NEAR(static_cast<double>(normal[50000]), 10 * 1e14, 0.02 * 1e14);  // median at mean
}

TEST(Doblix, LognormalAndUniformRanges) {
  Keys logn = Gen("doblix_logn", 100000, 1);
  EXPECT_EQ(Duplicates(logn), 0u);
  EXPECT_NEAR(static_cast<double>(logn[50000]), 1e9, 0.05e9);  // median e^0 x 1e9
  Keys uni = Gen("doblix_uni", 100000, 1);
  EXPECT_LE(uni.back(), 10000000000000000ULL);
  EXPECT_GT(uni.back(), 9990000000000000ULL);
}

TEST(YcsbGen, ZipfianKeysPileUpLow) {
  Keys uni = Gen("ycsbgen_uniform", 20000, 1);
  Keys z99 = Gen("ycsbgen_zipfian", 20000, 1, {{"theta", "0.99"}});
  Keys z90 = Gen("ycsbgen_zipfian", 20000, 1, {{"theta", "0.9"}});
  for (const Keys* k : {&uni, &z99, &z90}) {
    EXPECT_EQ(k->size(), 20000u);
    EXPECT_EQ(Duplicates(*k), 0u);
    EXPECT_LT(k->back(), 200000u);  // space_factor 10
  }
  // Median key: uniform near the middle of the space; zipfian far lower.
  EXPECT_NEAR(static_cast<double>(uni[10000]), 100000, 5000);
  EXPECT_LT(z99[10000], uni[10000] / 2);
  EXPECT_LT(z90[10000], uni[10000]);
}

TEST(Sizes, NormalMatchesMeanAndSd) {
  auto s = NormalSizes(200000, 1, 126.7, 22.1, 1, 1 << 20);  // DobLIX UDB values
  double m = 0, v = 0;
  for (uint64_t x : s) m += x;
  m /= s.size();
  for (uint64_t x : s) v += (x - m) * (x - m);
  EXPECT_NEAR(m, 126.7, 0.2);
  EXPECT_NEAR(std::sqrt(v / s.size()), 22.1, 0.2);
}

TEST(Lookups, NegativesAbsentPositivesPresent) {
  Keys keys = Gen("osm_like", 20000, 3);
  Keys l;
  std::string err;
  ASSERT_TRUE(MakeLookups(keys, 10000, 0.25, 9, &l, &err)) << err;
  ASSERT_EQ(l.size(), 10000u);
  int neg = 0;
  for (uint64_t k : l) {
    bool present = std::binary_search(keys.begin(), keys.end(), k);
    neg += !present;
    if (!present) {
      EXPECT_GE(k, keys.front());
      EXPECT_LE(k, keys.back());
    }
  }
  EXPECT_EQ(neg, 2500);
  Keys again;
  ASSERT_TRUE(MakeLookups(keys, 10000, 0.25, 9, &again, &err));
  EXPECT_EQ(l, again);
}

TEST(Lookups, PositivesUniformOverDistinctKeysChiSquare) {
  // Keys with heavy duplication: each distinct key must still be equally likely.
  Keys keys;
  for (uint64_t k = 0; k < 500; k++) keys.insert(keys.end(), k % 7 == 0 ? 20 : 1, k * 3);
  Keys l;
  std::string err;
  const uint64_t n = 500000;
  ASSERT_TRUE(MakeLookups(keys, n, 0.0, 4, &l, &err));
  std::vector<uint64_t> counts(500);
  for (uint64_t k : l) counts[k / 3]++;
  auto chi = teststats::ChiSquareTest(counts, std::vector<double>(500, 1.0 / 500), n);
  EXPECT_TRUE(chi.Passes()) << chi.stat;
}

TEST(Lookups, DenseKeysGetNegativesAboveTheRange) {
  Keys keys = BourbonLinear(1000, 0), l;
  std::string err;
  ASSERT_TRUE(MakeLookups(keys, 100, 1.0, 1, &l, &err));
  for (uint64_t k : l) EXPECT_GE(k, 1000u);
  EXPECT_FALSE(MakeLookups(keys, 10, 1.5, 1, &l, &err));
  EXPECT_EQ(err, "negative_share: expected a number in [0, 1]");
}

TEST(Downsample, EveryKthLikeSosd) {
  Keys keys = BourbonLinear(10, 0);
  EXPECT_EQ(EveryKth(keys, 4), (Keys{0, 4, 8}));  // d[::4]
  EXPECT_EQ(DownsampleStep(800, 200), 4u);
  EXPECT_EQ(DownsampleStep(1000, 300), 3u);  // 334 keys: at least the target
  EXPECT_EQ(DownsampleStep(100, 300), 1u);
}

TEST(Registry, TooSmallKeySpaceIsAnErrorNotAShortFile) {
  Params p(std::map<std::string, std::string>{{"max", "10"}});
  Keys keys;
  std::string err;
  EXPECT_FALSE(FindGenerator("doblix_uni")->run(100, 1, 64, &p, &keys, &err));
  EXPECT_EQ(err, "count: drew only 11 distinct keys of 100 (key space too small for these parameters)");
}

TEST(Registry, UnknownParamsAreReported) {
  Params p(std::map<std::string, std::string>{{"sigmaa", "2"}});
  Keys keys;
  std::string err;
  FindGenerator("sosd_logn")->run(10, 1, 64, &p, &keys, &err);
  EXPECT_EQ(p.Unused(), "sigmaa");
  Params bad(std::map<std::string, std::string>{{"theta", "x"}});
  FindGenerator("ycsbgen_zipfian")->run(10, 1, 64, &bad, &keys, &err);
  EXPECT_EQ(bad.error(), "theta: expected a number, got 'x'");
}

}  // namespace
}  // namespace gen

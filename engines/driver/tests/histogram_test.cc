#include "histogram.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include <gtest/gtest.h>

#include "ops.h"

namespace lsmbench {

TEST(Histogram, BucketsTileTheValueRange) {
  for (int i = 0; i + 1 < Histogram::kBuckets; i++) {
    ASSERT_EQ(Histogram::BucketHigh(i) + 1, Histogram::BucketLow(i + 1)) << "bucket " << i;
  }
  EXPECT_EQ(Histogram::BucketLow(0), 0u);
  EXPECT_EQ(Histogram::BucketHigh(Histogram::kBuckets - 1), UINT64_MAX);
}

TEST(Histogram, EveryValueLandsInItsBucket) {
  Rng rng(7);
  for (int i = 0; i < 100000; i++) {
    uint64_t v = rng.Next() >> rng.Uniform(64);
    int b = Histogram::Index(v);
    ASSERT_LE(Histogram::BucketLow(b), v);
    ASSERT_GE(Histogram::BucketHigh(b), v);
  }
  EXPECT_EQ(Histogram::Index(UINT64_MAX), Histogram::kBuckets - 1);
}

TEST(Histogram, PercentilesWithinRelativeErrorOfExact) {
  Rng rng(11);
  Histogram h;
  std::vector<uint64_t> values;
  for (int i = 0; i < 200000; i++) {
    // Log-normal-ish latencies from 100 ns to ~1 ms.
    uint64_t v = static_cast<uint64_t>(std::exp(4.6 + 4.0 * rng.NextDouble() * rng.NextDouble()));
    values.push_back(v);
    h.Record(v);
  }
  std::sort(values.begin(), values.end());
  for (double p : {1.0, 50.0, 90.0, 99.0, 99.9, 100.0}) {
    size_t rank = static_cast<size_t>(std::ceil(p / 100 * values.size()));
    uint64_t exact = values[std::max<size_t>(rank, 1) - 1];
    uint64_t got = h.Percentile(p);
    EXPECT_GE(got, exact) << "p" << p;
    EXPECT_LE(got, exact + exact / Histogram::kSubBuckets + 1) << "p" << p;
  }
  double sum = 0;
  for (uint64_t v : values) sum += v;
  EXPECT_DOUBLE_EQ(h.mean(), sum / values.size());
  EXPECT_EQ(h.min(), values.front());
  EXPECT_EQ(h.max(), values.back());
}

TEST(Histogram, TailMeanIsTheMeanOfTheSlowestShare) {
  Rng rng(5);
  Histogram h;
  std::vector<uint64_t> values;
  for (int i = 0; i < 100000; i++) {
    uint64_t v = static_cast<uint64_t>(std::exp(4.6 + 4.0 * rng.NextDouble() * rng.NextDouble()));
    values.push_back(v);
    h.Record(v);
  }
  std::sort(values.begin(), values.end(), std::greater<uint64_t>());
  for (double share : {0.05, 0.01, 0.5, 1.0}) {
    size_t n = static_cast<size_t>(std::ceil(share * values.size()));
    double exact = 0;
    for (size_t i = 0; i < n; i++) exact += values[i];
    exact /= n;
    EXPECT_NEAR(h.TailMean(share), exact, exact / Histogram::kSubBuckets) << share;
  }
  Histogram same;
  for (int i = 0; i < 40; i++) same.Record(777);
  same.Record(5000);
  EXPECT_DOUBLE_EQ(same.TailMean(0.05), (5000.0 + 777.0 + 777.0) / 3);  // ceil(0.05 * 41) = 3: 5000, 777, 777
}

TEST(Histogram, MergeEqualsRecordingBoth) {
  Histogram a, b, both;
  for (uint64_t v = 1; v < 5000; v += 7) {
    (v % 2 ? a : b).Record(v * 13);
    both.Record(v * 13);
  }
  a.Merge(b);
  EXPECT_EQ(a.count(), both.count());
  for (double p : {10.0, 50.0, 99.0}) EXPECT_EQ(a.Percentile(p), both.Percentile(p));
}

TEST(Histogram, EmptyReportsZeros) {
  Histogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.Percentile(99), 0u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.mean(), 0.0);
}

}  // namespace lsmbench

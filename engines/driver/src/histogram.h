// Log-linear latency histogram: values (nanoseconds) fall into power-of-two
// ranges, each split into kSubBuckets linear sub-buckets, so the relative
// error of a reported percentile is at most 1/kSubBuckets at any magnitude
// (the HdrHistogram layout, without its dependency: the whole thing is a
// fixed array, cheap to record into on the hot path).
#ifndef LSMBENCH_HISTOGRAM_H_
#define LSMBENCH_HISTOGRAM_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace lsmbench {

class Histogram {
 public:
  static constexpr int kSubBits = 5;
  static constexpr int kSubBuckets = 1 << kSubBits;  // 32: <= 3.1% error
  // Values below kSubBuckets are exact; each further power of two gets
  // kSubBuckets buckets, up to 2^64.
  static constexpr int kBuckets = kSubBuckets + (64 - kSubBits) * kSubBuckets;

  void Record(uint64_t v) {
    int i = Index(v);
    counts_[i]++;
    sums_[i] += static_cast<double>(v);
    count_++;
    sum_ += static_cast<double>(v);
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
  }

  void Merge(const Histogram& o) {
    for (int i = 0; i < kBuckets; i++) {
      counts_[i] += o.counts_[i];
      sums_[i] += o.sums_[i];
    }
    count_ += o.count_;
    sum_ += o.sum_;
    min_ = std::min(min_, o.min_);
    max_ = std::max(max_, o.max_);
  }

  uint64_t count() const { return count_; }
  uint64_t min() const { return count_ ? min_ : 0; }
  uint64_t max() const { return max_; }
  double mean() const { return count_ ? sum_ / count_ : 0.0; }

  // The smallest recorded-bucket upper bound at or below which at least
  // p percent of the values lie, clamped to [min, max].
  uint64_t Percentile(double p) const {
    if (count_ == 0) return 0;
    double rank = p / 100.0 * count_;
    uint64_t target = rank <= 1 ? 1 : static_cast<uint64_t>(rank + 0.999999);
    uint64_t seen = 0;
    for (int i = 0; i < kBuckets; i++) {
      seen += counts_[i];
      if (seen >= target) return std::clamp(BucketHigh(i), min(), max_);
    }
    return max_;
  }

  // Mean of the slowest `share` of the values (at least one): DobLIX's
  // "tail latency" (seed 002 §IV-A, the slowest 5%). Whole buckets count
  // with their exact sums; only the bucket the cut falls into is taken at
  // its own mean, so the error is below that bucket's width (1/kSubBuckets).
  double TailMean(double share) const {
    if (count_ == 0) return 0.0;
    double want = std::max(1.0, std::ceil(share * static_cast<double>(count_)));
    double taken = 0, sum = 0;
    for (int i = kBuckets - 1; i >= 0 && taken < want; i--) {
      if (counts_[i] == 0) continue;
      double n = std::min(static_cast<double>(counts_[i]), want - taken);
      sum += sums_[i] / static_cast<double>(counts_[i]) * n;
      taken += n;
    }
    return sum / taken;
  }

  static int Index(uint64_t v) {
    if (v < kSubBuckets) return static_cast<int>(v);
    int msb = 63 - __builtin_clzll(v);  // >= kSubBits
    int shift = msb - kSubBits;
    int sub = static_cast<int>((v >> shift) & (kSubBuckets - 1));
    return kSubBuckets + (msb - kSubBits) * kSubBuckets + sub;
  }
  // Inclusive value range of bucket i.
  static uint64_t BucketLow(int i) {
    if (i < kSubBuckets) return i;
    int range = (i - kSubBuckets) / kSubBuckets;
    int sub = (i - kSubBuckets) % kSubBuckets;
    int shift = range;
    return (static_cast<uint64_t>(kSubBuckets + sub)) << shift;
  }
  static uint64_t BucketHigh(int i) {
    if (i < kSubBuckets) return i;
    if (i == kBuckets - 1) return std::numeric_limits<uint64_t>::max();
    return BucketLow(i + 1) - 1;
  }

  // Non-empty buckets as (low, high, count), for the log.
  struct Bucket {
    uint64_t low, high, count;
  };
  std::vector<Bucket> NonEmpty() const {
    std::vector<Bucket> out;
    for (int i = 0; i < kBuckets; i++) {
      if (counts_[i]) out.push_back({BucketLow(i), BucketHigh(i), counts_[i]});
    }
    return out;
  }

 private:
  std::array<uint64_t, kBuckets> counts_{};
  std::array<double, kBuckets> sums_{};  // per bucket, for TailMean
  uint64_t count_ = 0;
  double sum_ = 0;
  uint64_t min_ = std::numeric_limits<uint64_t>::max();
  uint64_t max_ = 0;
};

}  // namespace lsmbench

#endif  // LSMBENCH_HISTOGRAM_H_

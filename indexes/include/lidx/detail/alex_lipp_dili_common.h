// Helpers shared by the exact (data-unclustered) indexes: alex.h, lipp.h,
// dili.h. Not part of the public interface.
//
// All three store the DISTINCT build keys, each with the position of its first
// occurrence in the caller's array, so Search() can answer std::lower_bound
// positions without the caller's array. Positions are uint32_t: Build()
// rejects n >= 2^32 (a SOSD array has 200M keys, an SSTable far fewer).
#ifndef LIDX_DETAIL_ALEX_LIPP_DILI_COMMON_H_
#define LIDX_DETAIL_ALEX_LIPP_DILI_COMMON_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "lidx/detail/build_clock.h"
#include "lidx/index.h"

namespace lidx {
namespace detail {

// Copies the distinct keys of sorted `keys` and the first position of each.
// Fails on unsorted input: a silently wrong index is worse than no index.
template <typename K>
Status DistinctKeys(const K* keys, size_t n, std::vector<K>* out,
                    std::vector<uint32_t>* first_pos) {
  out->clear();
  first_pos->clear();
  if (n >= (size_t{1} << 32) - 1) {
    return Status::Error("more than 2^32-2 keys");
  }
  size_t distinct = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && keys[i] < keys[i - 1]) {
      return Status::Error("keys not sorted at position " + std::to_string(i));
    }
    if (i == 0 || keys[i - 1] < keys[i]) ++distinct;
  }
  out->reserve(distinct);
  first_pos->reserve(distinct);
  for (size_t i = 0; i < n; ++i) {
    if (i == 0 || keys[i - 1] < keys[i]) {
      out->push_back(keys[i]);
      first_pos->push_back(static_cast<uint32_t>(i));
    }
  }
  return Status::OK();
}

// The distinct build keys, the first position of each, and n (the answer
// past the last key).
template <typename K>
struct DistinctInput {
  const K* keys;
  const uint32_t* pos;
  size_t count;
  size_t n;
  uint32_t PosAt(size_t i) const {
    return i < count ? pos[i] : static_cast<uint32_t>(n);
  }
};

// Distance of `q` above `base` as a double, 0 when q <= base. Models work on
// distances from a per-node base so that keys near 2^64-1 (or u128 keys) keep
// their low-order differences; clamping keeps predictions monotone in q.
template <typename K>
inline double KeyOffset(K q, K base) {
  return q > base ? static_cast<double>(q - base) : 0.0;
}

template <typename K>
inline long double KeyOffsetL(K q, K base) {
  return q > base ? static_cast<long double>(q - base) : 0.0L;
}

// Least-squares line y = slope * x + intercept, accumulated with Welford /
// Chan updates: naive sums of x^2 over keys near 2^64 cancel catastrophically,
// and mergeable moments let DILI merge adjacent segments in O(1).
struct LineFit {
  long double n = 0, mx = 0, my = 0, sxx = 0, syy = 0, sxy = 0;

  void Add(long double x, long double y) {
    n += 1;
    long double dx = x - mx;
    mx += dx / n;
    long double dy = y - my;
    my += dy / n;
    sxx += dx * (x - mx);
    syy += dy * (y - my);
    sxy += dx * (y - my);
  }
  static LineFit Merge(const LineFit& a, const LineFit& b) {
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    LineFit r;
    r.n = a.n + b.n;
    long double dx = b.mx - a.mx, dy = b.my - a.my;
    long double f = a.n * b.n / r.n;
    r.mx = a.mx + dx * b.n / r.n;
    r.my = a.my + dy * b.n / r.n;
    r.sxx = a.sxx + b.sxx + dx * dx * f;
    r.syy = a.syy + b.syy + dy * dy * f;
    r.sxy = a.sxy + b.sxy + dx * dy * f;
    return r;
  }
  long double Slope() const { return sxx > 0 ? sxy / sxx : 0.0L; }
  long double Intercept() const { return my - Slope() * mx; }
  // Residual sum of squares of the fitted line; never negative, never NaN.
  long double Sse() const {
    long double r = sxx > 0 ? syy - sxy * sxy / sxx : syy;
    return r > 0 ? r : 0.0L;
  }
};

// Resource guard: Build() charges every allocation it plans before making it
// and fails with a Status once a byte or depth limit is crossed, so that a
// key set that explodes an index (the EDBT study's LIPP and DILI on OSM) is
// reported as a failed build instead of exhausting the machine.
class BuildBudget {
 public:
  // max_mb == 0 means automatic: 64 MiB plus 1 KiB per key.
  BuildBudget(uint64_t max_mb, uint64_t max_depth, size_t n)
      : max_bytes_(max_mb > 0 ? max_mb << 20 : (size_t{64} << 20) + n * 1024),
        max_depth_(max_depth) {}
  bool Charge(size_t bytes) {
    used_ += bytes;
    return used_ <= max_bytes_;
  }
  bool DepthOk(size_t depth) const { return depth <= max_depth_; }
  Status MemoryError(std::string_view id) const {
    return Status::Error(std::string(id) + ": build exceeds memory limit of " +
                         std::to_string(max_bytes_ >> 20) +
                         " MiB (knob max_memory_mb)");
  }
  Status DepthError(std::string_view id) const {
    return Status::Error(std::string(id) + ": build exceeds depth limit of " +
                         std::to_string(max_depth_) + " (knob max_depth)");
  }

 private:
  size_t max_bytes_;
  size_t max_depth_;
  size_t used_ = 0;
};

// The frame every exact index's Build() shares: the distinct keys of the
// caller's sorted `keys`, the index's own `build(in, &budget)` over them
// (which sets *stats but for the time), then the build time. On a failure,
// of the input or of the build, `reset()` leaves the index empty (every
// Search() answers 0) and the failure is returned naming `id`.
template <typename K, typename BuildFn, typename ResetFn>
Status BuildExact(std::string_view id, const K* keys, size_t n,
                  uint64_t max_memory_mb, uint64_t max_depth,
                  BuildStats* stats, BuildFn build, ResetFn reset) {
  detail::BuildClock clock;
  std::vector<K> dk;
  std::vector<uint32_t> dp;
  Status s = DistinctKeys(keys, n, &dk, &dp);
  if (s.ok()) {
    BuildBudget budget(max_memory_mb, max_depth, n);
    s = build(DistinctInput<K>{dk.data(), dp.data(), dk.size(), n}, &budget);
  } else {
    s = Status::Error(std::string(id) + ": " + s.message());
  }
  if (!s.ok()) {
    reset();
    return s;
  }
  stats->build_seconds = clock.Seconds();
  return Status::OK();
}

}  // namespace detail
}  // namespace lidx

#endif  // LIDX_DETAIL_ALEX_LIPP_DILI_COMMON_H_

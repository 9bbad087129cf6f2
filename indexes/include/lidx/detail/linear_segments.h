// Shared machinery of the segmented linear indexes (slr.h): a monotone
// per-segment linear predictor, least squares, and the error bookkeeping
// that turns a prediction into a Bound.
//
// Why a bound is guaranteed for ANY query, present or absent, duplicated or
// not (the argument every Search() in slr.h relies on):
//   * A query q is routed to the last segment s whose first key is < q
//     (strictly). Then keys[start_s] < q <= keys[start_{s+1}], so the
//     lower_bound position L of q lies in (start_s, end_s], end_s being the
//     next segment's start (or n). With no segment first key < q, L == 0.
//   * The predictor P(x) = floor(clamp(base + slope * double(x - x_s))) with
//     slope >= 0 is monotone in x, including in floating point: every IEEE
//     operation used is monotone in its argument. Build computes P with the
//     same function (an asm barrier keeps the compiler from fusing the
//     multiply-add in one place and not another).
//   * Build records, over every position i of the segment,
//       err_lo = max(P(keys[i]) - i)   and   err_hi = max(i - P(keys[i])).
//     If L < end_s: q <= keys[L] so P(q) <= P(keys[L]) <= L + err_lo.
//     If L > start_s: keys[L-1] < q so P(q) >= P(keys[L-1]) >= L-1 - err_hi.
//     Hence L lies in [P(q) - err_lo, P(q) + err_hi + 1], clamped to the
//     segment [start_s, end_s].
#ifndef LIDX_DETAIL_LINEAR_SEGMENTS_H_
#define LIDX_DETAIL_LINEAR_SEGMENTS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "lidx/detail/no_fma.h"
#include "lidx/detail/shrink.h"
#include "lidx/index.h"

namespace lidx {
namespace detail {
// Own namespace: other index families define helpers of the same names.
namespace linear {

// Distance of x from the segment's first key, as a double. Conversion of an
// unsigned integer (64 or 128 bits) to double rounds monotonically.
template <typename K>
inline double KeyDelta(K x, K first) {
  return static_cast<double>(x - first);
}

// The model's position for a key `dx` past the segment's first key, clamped
// to [start, last] where last = end - 1 is the segment's last position.
inline uint64_t PredictPos(double base, double slope, double dx, uint64_t start,
                           uint64_t last) {
  double p = base + Materialize(slope * dx);
  // `!(p > start)` also catches NaN.
  if (!(p > static_cast<double>(start))) return start;
  if (p >= static_cast<double>(last)) return last;
  return static_cast<uint64_t>(p);
}

// Errors of one segment. kWhole in err_lo marks a segment whose model is not
// trusted (SLR's "bad segment"): its bound is the whole segment.
struct SegmentModel {
  static constexpr uint32_t kWhole = std::numeric_limits<uint32_t>::max();
  double slope = 0;
  uint32_t err_lo = 0;
  uint32_t err_hi = 0;
};

// Least-squares fit of positions [a, b) against keys[a, b), in coordinates
// relative to keys[a]; two passes over centered values keep the sums exact
// enough even for 2^64-wide key ranges. Returns the slope (clamped >= 0 so
// the predictor stays monotone) and the absolute base (prediction at keys[a]).
template <typename K>
inline void FitLeastSquares(const K* keys, size_t a, size_t b, double* slope,
                            double* base) {
  const size_t m = b - a;
  const K x0 = keys[a];
  double sum = 0;
  for (size_t i = a; i < b; ++i) sum += KeyDelta(keys[i], x0);
  const double mx = sum / static_cast<double>(m);
  const double my = static_cast<double>(m - 1) / 2;  // mean of 0..m-1
  double sxx = 0, sxy = 0;
  for (size_t i = a; i < b; ++i) {
    const double dx = KeyDelta(keys[i], x0) - mx;
    sxx += dx * dx;
    sxy += dx * (static_cast<double>(i - a) - my);
  }
  double s = sxx > 0 ? sxy / sxx : 0;
  if (!(s > 0) || !(s < std::numeric_limits<double>::max())) s = 0;
  *slope = s;
  *base = static_cast<double>(a) + (my - s * mx);
}

// Measures err_lo/err_hi of the line (base, slope) over positions [a, b) and
// returns the position whose absolute error is largest (SLR splits there).
template <typename K>
inline size_t MeasureErrors(const K* keys, size_t a, size_t b, double base,
                            double slope, SegmentModel* m) {
  const K x0 = keys[a];
  uint64_t lo = 0, hi = 0, worst = 0;
  size_t worst_at = a;
  for (size_t i = a; i < b; ++i) {
    const uint64_t p = PredictPos(base, slope, KeyDelta(keys[i], x0), a, b - 1);
    if (p > i) {
      if (p - i > lo) lo = p - i;
      if (p - i > worst) worst = p - i, worst_at = i;
    } else {
      if (i - p > hi) hi = i - p;
      if (i - p > worst) worst = i - p, worst_at = i;
    }
  }
  m->slope = slope;
  m->err_lo = static_cast<uint32_t>(lo);
  m->err_hi = static_cast<uint32_t>(hi);
  return worst_at;
}

}  // namespace linear
}  // namespace detail
}  // namespace lidx

#endif  // LIDX_DETAIL_LINEAR_SEGMENTS_H_

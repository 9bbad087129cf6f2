// Shared machinery of the error-bounded indexes (plr, ft, pgm, rs, plex, rmi).
//
// Why a "staircase": Search() must bound lower_bound(q) for ANY q, and with
// duplicates lower_bound jumps by a whole run between two adjacent keys. So
// the models are fitted not to (key, position) but to the step function
// LB(q) itself, sampled at every point where it changes or ends a flat:
//   (k_0, 0), then for each next distinct key k_i at first position p_i:
//   (k_{i-1} + 1, p_i) when a gap precedes k_i, and (k_i, p_i).
// x is strictly increasing (no slope over equal keys, hence no NaN), y is
// non-decreasing, and between two consecutive points LB is constant wherever
// an integer exists. A model that is monotone between two points and within
// e of both is therefore within e of LB for every q between them.
//
// Why measured errors: each index promises its knob (epsilon) as the bound,
// but the bound it returns is the error *measured* after the fit with the
// exact arithmetic Search() uses (floor of a double). Rounding can thus never
// make a bound lie; the tests assert the measured width stays within the knob.
#ifndef LIDX_DETAIL_SEGMENTS_H_
#define LIDX_DETAIL_SEGMENTS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <string>

#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"
#include "lidx/index.h"

namespace lidx {
namespace detail {

// Calls f(x, y) for every staircase point of keys[0, n), in order.
template <typename K, typename F>
void ForEachStaircasePoint(const K* keys, size_t n, F&& f) {
  if (n == 0) return;
  f(keys[0], size_t{0});
  K prev = keys[0];
  for (size_t i = 1; i < n; ++i) {
    K k = keys[i];
    if (k == prev) continue;
    if (k - prev > 1) f(static_cast<K>(prev + 1), i);
    f(k, i);
    prev = k;
  }
}

template <typename K>
inline double ToDouble(K v) {
  return static_cast<double>(v);
}

// Same value as static_cast (both halves convert exactly, the sum rounds
// once, to nearest), but branch-free: the compiler's unsigned conversion
// branches on the top bit, which a model over full-range keys mispredicts
// half the time.
template <>
inline double ToDouble<uint64_t>(uint64_t v) {
  return static_cast<double>(static_cast<int64_t>(v >> 32)) * 4294967296.0 +
         static_cast<double>(static_cast<int64_t>(v & 0xffffffffu));
}

// A line anchored at its first point: f(q) = icpt + slope * (q - x).
template <typename K>
struct LineSeg {
  K x;
  double slope;
  double icpt;
};

// floor(f(q)) clamped to [0, n]. Monotone in q when slope >= 0, which every
// fitter guarantees; the errors measured with this very function are what
// bounds are built from.
template <typename K>
inline int64_t PredictLine(const LineSeg<K>& s, K q, size_t n) {
  double v = s.icpt + s.slope * ToDouble<K>(q - s.x);
  if (!(v > 0)) return 0;  // also NaN-proof
  if (v >= static_cast<double>(n)) return static_cast<int64_t>(n);
  return static_cast<int64_t>(v);
}

struct Errors {
  int64_t lo = 0;  // max(pred - y): how far a prediction overshoots
  int64_t hi = 0;  // max(y - pred): how far it undershoots
  void Add(int64_t pred, int64_t y) {
    lo = std::max(lo, pred - y);
    hi = std::max(hi, y - pred);
  }
};

// Errors of `segs` (segment s serves x in [segs[s].x, segs[s+1].x)) over the
// staircase of keys.
template <typename K>
Errors MeasureLineErrors(const K* keys, size_t n,
                         const std::vector<LineSeg<K>>& segs) {
  Errors e;
  size_t s = 0;
  ForEachStaircasePoint(keys, n, [&](K x, size_t y) {
    while (s + 1 < segs.size() && segs[s + 1].x <= x) ++s;
    e.Add(PredictLine(segs[s], x, n), static_cast<int64_t>(y));
  });
  return e;
}

// The bound for q served by segment s (segs[s].x <= q, q <= the last key).
// Past a segment's last point, in the gap before the next segment, LB equals
// the next segment's first y, which the next segment predicts within the
// error at its own start: capping by that prediction keeps the bound honest
// there, and keeps it tight everywhere else.
template <typename K>
inline Bound LineBound(const LineSeg<K>* segs, size_t num_segs, size_t s, K q,
                       size_t n, const Errors& e) {
  int64_t p = PredictLine(segs[s], q, n);
  int64_t lo = p - e.lo, hi = p + e.hi;
  if (s + 1 < num_segs) {
    int64_t next = PredictLine(segs[s + 1], segs[s + 1].x, n);
    lo = std::min(lo, next - e.lo);
    hi = std::min(hi, next + e.hi);
  }
  lo = std::max<int64_t>(lo, 0);
  hi = std::min<int64_t>(hi, static_cast<int64_t>(n));
  if (lo > hi) lo = hi;
  Bound b;
  b.lo = static_cast<size_t>(lo);
  b.hi = static_cast<size_t>(hi);
  b.pos = static_cast<size_t>(std::clamp<int64_t>(p, lo, hi));
  return b;
}

// Runs a fitter over the staircase of keys. Fitter:
//   bool Add(K x, size_t y);    // false (point not taken) when it does not fit
//   LineSeg<K> Finish();        // the segment so far; fitter is then empty
template <typename K, typename Fitter>
std::vector<LineSeg<K>> FitLines(const K* keys, size_t n, Fitter& fit) {
  std::vector<LineSeg<K>> segs;
  bool open = false;
  ForEachStaircasePoint(keys, n, [&](K x, size_t y) {
    if (open && fit.Add(x, y)) return;
    if (open) segs.push_back(fit.Finish());
    fit.Add(x, y);  // an empty fitter always takes a point
    open = true;
  });
  if (open) segs.push_back(fit.Finish());
  detail::ShrinkToFit(&segs);
  return segs;
}

// Index of the last segment with x <= q in [first, last), by binary search.
template <typename K>
inline size_t LastSegAtOrBefore(const LineSeg<K>* segs, size_t first,
                                size_t last, K q) {
  // upper_bound on x, minus one; first's x is known to be <= q.
  size_t lo = first + 1, hi = last;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (segs[mid].x <= q) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo - 1;
}

inline bool FitsSize(uint64_t v) { return v <= (uint64_t{1} << 48); }

// What Deserialize() accepts of stored points (segments, knots) over n keys:
// some exactly when n > 0, strictly increasing x, errors never negative.
template <typename Point>
Status CheckStoredPoints(uint64_t n, const Errors& e,
                         const std::vector<Point>& points, const char* what) {
  if ((n == 0) != points.empty() || !FitsSize(n) || e.lo < 0 || e.hi < 0) {
    return Reader::Corrupt(std::string(what) + " do not match n");
  }
  for (size_t i = 1; i < points.size(); ++i) {
    if (!(points[i - 1].x < points[i].x)) {
      return Reader::Corrupt(std::string(what) + " unsorted");
    }
  }
  return Status::OK();
}

}  // namespace detail
}  // namespace lidx

#endif  // LIDX_DETAIL_SEGMENTS_H_

// The error-bounded linear spline shared by rs and plex: GreedySplineCorridor
// (Neumann & Michel) over the staircase points (see segments.h), plus the
// interpolation both use and the error measurement that makes their bounds
// honest.
#ifndef LIDX_DETAIL_SPLINE_H_
#define LIDX_DETAIL_SPLINE_H_

#include <vector>

#include "lidx/detail/segments.h"
#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"

namespace lidx {
namespace detail {

template <typename K>
struct Knot {
  K x;
  double y;
};

// One pass: keep a corridor of slopes from the last knot that passes within
// eps of every point since; when a point leaves it, the previous point
// becomes a knot. Every point lies within eps of the interpolation between
// the knots around it (up to floating point, which the measurement covers).
template <typename K>
std::vector<Knot<K>> BuildSpline(const K* keys, size_t n, double eps) {
  std::vector<Knot<K>> knots;
  if (n == 0) return knots;
  K kx = 0, px = 0;
  double ky = 0, py = 0, lo = 0, hi = 0;
  size_t count = 0;
  ForEachStaircasePoint(keys, n, [&](K x, size_t iy) {
    double y = static_cast<double>(iy);
    if (count++ == 0) {
      knots.push_back({x, y});
      kx = x;
      ky = y;
    } else {
      double dx = ToDouble<K>(x - kx);
      double s = (y - ky) / dx;
      if (count == 2) {
        lo = (y - eps - ky) / dx;
        hi = (y + eps - ky) / dx;
      } else if (s < lo || s > hi) {
        knots.push_back({px, py});
        kx = px;
        ky = py;
        dx = ToDouble<K>(x - kx);
        lo = (y - eps - ky) / dx;
        hi = (y + eps - ky) / dx;
      } else {
        hi = std::min(hi, (y + eps - ky) / dx);
        lo = std::max(lo, (y - eps - ky) / dx);
      }
    }
    px = x;
    py = y;
  });
  if (knots.back().x != px) knots.push_back({px, py});
  detail::ShrinkToFit(&knots);
  return knots;
}

// floor of the interpolation between knots j and j + 1 (j + 1 < size), for
// knots[j].x <= q <= knots[j + 1].x. Monotone in q: y never decreases.
template <typename K>
inline int64_t Interpolate(const Knot<K>* k, size_t j, K q) {
  const Knot<K>& a = k[j];
  const Knot<K>& b = k[j + 1];
  double v = a.y + (b.y - a.y) * (ToDouble<K>(q - a.x) / ToDouble<K>(b.x - a.x));
  if (v > b.y) v = b.y;
  return static_cast<int64_t>(v);
}

// Errors of the spline over the staircase, evaluating each point with the
// knot Search() would choose (the last knot <= x), plus each segment's value
// at its right knot: queries just left of a knot are served by the segment
// ending there.
template <typename K>
Errors MeasureSplineErrors(const K* keys, size_t n,
                           const std::vector<Knot<K>>& knots) {
  Errors e;
  size_t j = 0;
  const size_t last = knots.size() - 1;
  ForEachStaircasePoint(keys, n, [&](K x, size_t y) {
    while (j < last && knots[j + 1].x <= x) ++j;
    int64_t p = j == last ? static_cast<int64_t>(knots[j].y)
                          : Interpolate(knots.data(), j, x);
    e.Add(p, static_cast<int64_t>(y));
  });
  for (size_t i = 0; i + 1 < knots.size(); ++i) {
    e.Add(Interpolate(knots.data(), i, knots[i + 1].x),
          static_cast<int64_t>(knots[i + 1].y));
  }
  return e;
}

// The bound for knots[j].x <= q < knots[j + 1].x.
template <typename K>
inline Bound SplineBound(const Knot<K>* knots, size_t j, K q, size_t n,
                         const Errors& e) {
  int64_t p = Interpolate(knots, j, q);
  int64_t lo = std::max<int64_t>(p - e.lo, 0);
  int64_t hi = std::min<int64_t>(p + e.hi, static_cast<int64_t>(n));
  Bound b;
  b.lo = static_cast<size_t>(lo);
  b.hi = static_cast<size_t>(hi);
  b.pos = static_cast<size_t>(std::clamp(p, lo, hi));
  return b;
}

// Index of the last knot with x <= q in [first, last) (first's x <= q).
template <typename K>
inline size_t LastKnotAtOrBefore(const Knot<K>* k, size_t first, size_t last,
                                 K q) {
  size_t lo = first + 1, hi = last;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (k[mid].x <= q) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo - 1;
}

template <typename K>
inline int BitWidth(K v) {
  int b = 0;
  while (v) {
    ++b;
    v >>= 1;
  }
  return b;
}

// The state rs and plex share and store: the key count, the spline and its
// measured errors. What each builds over the knots (radix table, hist-tree)
// is derived from them, so not stored.
template <typename K>
struct SplineCore {
  size_t n = 0;
  Errors err;
  std::vector<Knot<K>> knots;

  void Build(const K* keys, size_t num, double eps) {
    n = num;
    knots = BuildSpline(keys, num, eps);
    err = num ? MeasureSplineErrors(keys, num, knots) : Errors{};
  }

  // Answers the queries no segment serves (outside the knots' open range);
  // returns false when a segment must.
  bool Trivial(K q, Bound* b) const {
    if (n == 0 || q <= knots[0].x) {
      *b = Bound{0, 0, 0};
      return true;
    }
    const Knot<K>& last = knots.back();
    if (q < last.x) return false;
    size_t y = q > last.x ? n : static_cast<size_t>(last.y);
    *b = Bound{y, y, y};
    return true;
  }

  void Serialize(Writer* w) const {
    w->Pods<uint64_t, int64_t, int64_t>(n, err.lo, err.hi);
    w->Vector(knots);
  }

  Status Deserialize(Reader* r) {
    uint64_t num = 0;
    Errors e;
    std::vector<Knot<K>> k;
    Status st = r->Pod(&num, "n");
    if (st.ok()) st = r->Pods({"error below", "error above"}, &e.lo, &e.hi);
    if (st.ok()) st = r->Vector(&k, "spline knots");
    if (st.ok()) st = CheckStoredPoints(num, e, k, "spline knots");
    if (!st.ok()) return st;
    n = num;
    err = e;
    knots = std::move(k);
    return Status::OK();
  }
};

}  // namespace detail
}  // namespace lidx

#endif  // LIDX_DETAIL_SPLINE_H_

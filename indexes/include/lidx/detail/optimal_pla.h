// The optimal streaming piecewise linear approximation behind pgm.h
// (O'Rourke's algorithm, as in the PGM-index): keep the convex hulls of the
// points' upper and lower error bars and the two extreme feasible lines; a
// segment ends only when no line fits, which gives the fewest segments for
// the error. Also used by tools/lidx_hardness.cc, which counts them.
#ifndef LIDX_DETAIL_OPTIMAL_PLA_H_
#define LIDX_DETAIL_OPTIMAL_PLA_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "lidx/detail/segments.h"

namespace lidx {
namespace detail {

// Exact integer geometry for 64-bit keys (relative x < 2^64, |y| < 2^40, so
// products fit in 128 bits); long double for 128-bit keys, where rounding
// can only cost tightness, never correctness (errors are measured).
template <typename K>
class OptimalPlaFitter {
  using Num = std::conditional_t<(sizeof(K) <= 8), __int128, long double>;
  struct P {
    Num x, y;
  };
  // Slope comparisons by cross multiplication: dx > 0 always.
  static Num Cross(const P& o, const P& a, const P& b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  }
  // slope(a->b) < slope(c->d)
  static bool Less(const P& a, const P& b, const P& c, const P& d) {
    return (b.y - a.y) * (d.x - c.x) < (d.y - c.y) * (b.x - a.x);
  }

 public:
  explicit OptimalPlaFitter(uint64_t eps) : eps_(static_cast<Num>(eps)) {}

  bool Add(K x, size_t y) {
    if (count_ == 0) {
      x0_ = x;
      y0_ = y;
    }
    Num rx = static_cast<Num>(x - x0_), ry = static_cast<Num>(y);
    P up{rx, ry + eps_}, dn{rx, ry - eps_};
    if (count_ == 0) {
      rect_[0] = up;
      rect_[1] = dn;
      upper_.assign(1, up);
      lower_.assign(1, dn);
      ustart_ = lstart_ = 0;
      count_ = 1;
      return true;
    }
    if (count_ == 1) {
      rect_[2] = dn;
      rect_[3] = up;
      upper_.push_back(up);
      lower_.push_back(dn);
      count_ = 2;
      return true;
    }
    // rect_[0]->rect_[2] is the least steep feasible line, rect_[1]->rect_[3]
    // the steepest. The point's bar must meet the cone they span.
    if (Less(rect_[2], up, rect_[0], rect_[2]) ||
        Less(rect_[1], rect_[3], rect_[3], dn)) {
      return false;
    }
    if (Less(rect_[1], up, rect_[1], rect_[3])) {
      // The top of the bar cuts the steepest line: the new steepest line
      // touches it and the lower hull point that minimises the slope.
      size_t best = lstart_;
      for (size_t i = lstart_ + 1; i < lower_.size(); ++i) {
        if (Less(lower_[best], up, lower_[i], up)) break;
        best = i;
      }
      rect_[1] = lower_[best];
      rect_[3] = up;
      lstart_ = best;
      size_t end = upper_.size();
      while (end >= ustart_ + 2 && Cross(upper_[end - 2], upper_[end - 1], up) <= 0) {
        --end;
      }
      upper_.resize(end);
      upper_.push_back(up);
    }
    if (Less(rect_[0], rect_[2], rect_[0], dn)) {
      // The bottom of the bar lifts the least steep line.
      size_t best = ustart_;
      for (size_t i = ustart_ + 1; i < upper_.size(); ++i) {
        if (Less(upper_[i], dn, upper_[best], dn)) break;
        best = i;
      }
      rect_[0] = upper_[best];
      rect_[2] = dn;
      ustart_ = best;
      size_t end = lower_.size();
      while (end >= lstart_ + 2 && Cross(lower_[end - 2], lower_[end - 1], dn) >= 0) {
        --end;
      }
      lower_.resize(end);
      lower_.push_back(dn);
    }
    ++count_;
    return true;
  }

  LineSeg<K> Finish() {
    LineSeg<K> s{x0_, 0.0, static_cast<double>(y0_)};
    if (count_ >= 2) {
      using LD = long double;
      LD ax = static_cast<LD>(rect_[0].x), ay = static_cast<LD>(rect_[0].y);
      LD bx = static_cast<LD>(rect_[1].x), by = static_cast<LD>(rect_[1].y);
      LD d1x = static_cast<LD>(rect_[2].x) - ax,
         d1y = static_cast<LD>(rect_[2].y) - ay;
      LD d2x = static_cast<LD>(rect_[3].x) - bx,
         d2y = static_cast<LD>(rect_[3].y) - by;
      LD slope = (d1y / d1x + d2y / d2x) / 2;
      LD den = d1x * d2y - d1y * d2x;
      LD ix, iy;
      if (den == 0) {
        // Parallel extremes: run midway between them.
        ix = ax;
        iy = (ay + by + (ax - bx) * (d2y / d2x)) / 2;
      } else {
        LD t = ((bx - ax) * d2y - (by - ay) * d2x) / den;
        ix = ax + t * d1x;
        iy = ay + t * d1y;
      }
      if (!(slope >= 0)) slope = 0;
      s.slope = static_cast<double>(slope);
      s.icpt = static_cast<double>(iy - slope * ix);
    }
    count_ = 0;
    return s;
  }

 private:
  Num eps_;
  size_t count_ = 0;
  K x0_ = 0;
  size_t y0_ = 0;
  P rect_[4];
  std::vector<P> upper_, lower_;
  size_t ustart_ = 0, lstart_ = 0;
};

}  // namespace detail
}  // namespace lidx

#endif  // LIDX_DETAIL_OPTIMAL_PLA_H_

// How RmiIndex<K> (rmi.h) is trained: the root fits (linear_spline,
// linear, cubic, radix) and the leaves sized in one corrective pass.
// Out-of-class member definitions, included by rmi.h; not for direct use.
#ifndef LIDX_DETAIL_RMI_TRAIN_H_
#define LIDX_DETAIL_RMI_TRAIN_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "lidx/rmi.h"

namespace lidx {

template <typename K>
void RmiIndex<K>::FitRoot(const K* keys, size_t n, double num) {
  const double span = detail::ToDouble<K>(last_ - first_);
  // linear_spline: (first, 0) to (last, num); also every fallback.
  c_[1] = span > 0 ? num / span : 0.0;
  if (root_ == Root::kLinearSpline || span == 0) {
    root_ = Root::kLinearSpline;
    return;
  }
  const double scale = num / static_cast<double>(n);
  if (root_ == Root::kLinear) {
    long double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; ++i) {
      long double x = detail::ToDouble<K>(keys[i] - first_);
      long double y = static_cast<long double>(i) * scale;
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
    }
    long double cov = sxy - sx * sy / n, var = sxx - sx * sx / n;
    double slope = var > 0 && cov > 0 ? static_cast<double>(cov / var) : 0.0;
    c_[1] = slope;
    c_[0] = static_cast<double>((sy - slope * sx) / n);
    return;
  }
  if (root_ == Root::kCubic) {
    if (!FitCubic(keys, n, scale, span)) root_ = Root::kLinearSpline;
    return;
  }
  FillRadix(keys, n, scale);
  if (root_knob_ == Root::kAuto && LinearSplineSuffices(span, num, n)) {
    root_ = Root::kLinearSpline;
    table_.clear();
  }
}

template <typename K>
bool RmiIndex<K>::LinearSplineSuffices(double span, double num, size_t n) const {
  (void)span;
  long double seen = 0;
  for (size_t b = 0; b + 1 < table_.size(); ++b) {
    const double keys_b = (table_[b + 1] - table_[b]) * (n / num);
    if (keys_b <= 0) continue;
    const double lo = FromBits((radix_base_ + b) << radix_shift_);
    const double hi = FromBits((radix_base_ + b + 1) << radix_shift_);
    const double leaves_b = std::max(1.0, c_[1] * (hi - lo));
    seen += static_cast<long double>(keys_b) * (keys_b / leaves_b);
  }
  return seen / n <= 1.25 * (n / num);
}

template <typename K>
bool RmiIndex<K>::FitCubic(const K* keys, size_t n, double scale, double span) {
  const double inv = 1.0 / span;
  long double m[4][5] = {};
  for (size_t i = 0; i < n; ++i) {
    long double t = std::min(detail::ToDouble<K>(keys[i] - first_) * inv, 1.0);
    long double y = static_cast<long double>(i) * scale;
    long double p[7] = {1, t, t * t, t * t * t, 0, 0, 0};
    p[4] = p[3] * t;
    p[5] = p[4] * t;
    p[6] = p[5] * t;
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) m[r][c] += p[r + c];
      m[r][4] += p[r] * y;
    }
  }
  for (int col = 0; col < 4; ++col) {  // Gauss-Jordan, partial pivoting
    int piv = col;
    for (int r = col + 1; r < 4; ++r) {
      if (std::abs(static_cast<double>(m[r][col])) >
          std::abs(static_cast<double>(m[piv][col]))) {
        piv = r;
      }
    }
    if (m[piv][col] == 0) return false;
    for (int c = 0; c < 5; ++c) std::swap(m[col][c], m[piv][c]);
    for (int r = 0; r < 4; ++r) {
      if (r == col) continue;
      long double f = m[r][col] / m[col][col];
      for (int c = col; c < 5; ++c) m[r][c] -= f * m[col][c];
    }
  }
  double a[4];
  for (int i = 0; i < 4; ++i) a[i] = static_cast<double>(m[i][4] / m[i][i]);
  c_[4] = inv;
  if (a[1] >= 0 && a[2] >= 0 && a[3] >= 0) {
    flip_ = 0;
    for (int i = 0; i < 4; ++i) c_[i] = a[i];
    return true;
  }
  // f(t) = f(1) - h(u), u = 1 - t: h1 = f'(1), h2 = -f''(1)/2, h3 = a3.
  const double h1 = a[1] + 2 * a[2] + 3 * a[3];
  const double h2 = -(a[2] + 3 * a[3]);
  const double h3 = a[3];
  if (h1 >= 0 && h2 >= 0 && h3 >= 0) {
    flip_ = 1;
    c_[0] = a[0] + a[1] + a[2] + a[3];
    c_[1] = h1;
    c_[2] = h2;
    c_[3] = h3;
    return true;
  }
  return false;
}

template <typename K>
void RmiIndex<K>::FillRadix(const K* keys, size_t n, double scale) {
  // The first bucket is that of the smallest non-zero d (d = 0 is only
  // the first key, which every root sends to leaf 0).
  size_t i = 0;
  while (i < n && keys[i] == first_) ++i;
  const double dmin = detail::ToDouble<K>(keys[i] - first_);
  const double dmax = detail::ToDouble<K>(last_ - first_);
  radix_base_ = Bits(dmin) >> radix_shift_;
  const uint64_t top = Bits(dmax) >> radix_shift_;
  const size_t buckets = static_cast<size_t>(top - radix_base_) + 1;
  table_.assign(buckets + 1, 0.0);
  size_t r = 0;
  for (size_t b = 0; b <= buckets; ++b) {
    const double edge = FromBits((radix_base_ + b) << radix_shift_);
    while (r < n && detail::ToDouble<K>(keys[r] - first_) < edge) ++r;
    table_[b] = static_cast<double>(r) * scale;
  }
}

template <typename K>
void RmiIndex<K>::Train(const K* keys, size_t n) {
  // Points arrive sorted, so each leaf's points are contiguous: buffer one
  // leaf, fit it by least squares, measure it, move on.
  struct Pt {
    K x;
    size_t y;
  };
  std::vector<Pt> buf;
  size_t cur = 0;
  auto flush = [&](const Pt* next) {
    if (buf.empty()) return;
    Leaf& l = leaves_[cur];
    double mx = 0, my = 0;
    for (const Pt& p : buf) {
      mx += detail::ToDouble<K>(p.x - first_);
      my += static_cast<double>(p.y);
    }
    mx /= buf.size();
    my /= buf.size();
    double sxy = 0, sxx = 0;
    for (const Pt& p : buf) {
      double dx = detail::ToDouble<K>(p.x - first_) - mx;
      sxx += dx * dx;
      sxy += dx * (static_cast<double>(p.y) - my);
    }
    l.slope = sxx > 0 && sxy > 0 ? sxy / sxx : 0.0;
    l.icpt = my - l.slope * mx;
    l.y0 = static_cast<uint32_t>(buf.front().y);
    const uint32_t hi = static_cast<uint32_t>(next ? next->y : n);
    detail::Errors e;
    for (const Pt& p : buf) {
      e.Add(Predict(l, hi, p.x), static_cast<int64_t>(p.y));
    }
    l.err = static_cast<uint32_t>(std::max(e.lo, e.hi));
    buf.clear();
  };
  detail::ForEachStaircasePoint(keys, n, [&](K x, size_t y) {
    size_t leaf = LeafOf(x);
    if (leaf != cur) {
      Pt next{x, y};
      flush(&next);
      // Leaves no point reaches serve only the gap before this point.
      for (size_t e = cur + 1; e < leaf; ++e) {
        leaves_[e] = Leaf{0.0, static_cast<double>(y), 0,
                          static_cast<uint32_t>(y)};
      }
      cur = leaf;
    }
    buf.push_back({x, y});
  });
  flush(nullptr);
  // Leaves past the last key are never asked (q > last returns n).
  for (size_t e = cur + 1; e < leaves_.size(); ++e) {
    leaves_[e] = Leaf{0.0, static_cast<double>(n), 0,
                      static_cast<uint32_t>(n)};
  }
}

}  // namespace lidx

#endif  // LIDX_DETAIL_RMI_TRAIN_H_

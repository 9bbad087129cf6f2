// rmi: a two-level recursive model index (Kraska et al., SIGMOD'18) in the
// configuration the EDBT study used from Maltry & Dittrich's analysis-rmi:
// a linear-spline root (the line through the first and last key) picks one
// of `leaves` linear-regression leaves, and each leaf records its own
// maximum absolute error ("LAbs"). Unlike the other indexes the error is not
// a knob: it is whatever the leaves achieve, and the second-level size is
// what a caller sweeps to trade memory for bound width.
//
// Guarantee: hi - lo <= 2 * (the query's leaf error).
//
// Why the leaf errors hold for absent keys: the root is monotone, so a leaf
// serves one contiguous key range; its model is monotone; and its error is
// measured at its staircase points (segments.h) plus the two ends of that
// key range, found by bisecting the root model. Leaves no point lands in
// serve a single gap, whose lower_bound is one constant stored exactly.
//
// Knobs: leaves (second-level size; default 0 = n / 64).
//
// Usage:
//   auto idx = lidx::MakeIndex<uint64_t>("rmi", {{"leaves", "65536"}}, &err);
#ifndef LIDX_RMI_H_
#define LIDX_RMI_H_

#include <chrono>
#include <vector>

#include "lidx/detail/options.h"
#include "lidx/detail/segments.h"
#include "lidx/detail/serialize.h"
#include "lidx/index.h"

namespace lidx {

template <typename K>
class RmiIndex final : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 1;

  // 24 bytes. y0 is lower_bound of the leaf's first key; predictions are
  // clamped to [y0, next leaf's y0], the only values lower_bound takes in a
  // leaf's key range, so extrapolating into a gap cannot run away.
  struct Leaf {
    double slope;
    double icpt;  // f(q) = icpt + slope * (q - first key)
    uint32_t err;
    uint32_t y0;
  };

  Status Configure(const Options& o) {
    return detail::ParseKnobs(o, "rmi", {{"leaves", &leaves_knob_, 0, 1u << 28}});
  }

  std::string_view Id() const override { return "rmi"; }
  bool Exact() const override { return false; }
  uint64_t MaxLeafError() const {
    uint64_t m = 0;
    for (const Leaf& l : leaves_) m = std::max<uint64_t>(m, l.err);
    return m;
  }

  Status Build(const K* keys, size_t n, const uint32_t*) override {
    auto t0 = std::chrono::steady_clock::now();
    if (n >= (uint64_t{1} << 32)) {
      return Status::Error("rmi: leaves store 32-bit positions; n >= 2^32");
    }
    n_ = n;
    leaves_.clear();
    if (n > 0) {
      first_ = keys[0];
      last_ = keys[n - 1];
      size_t num = leaves_knob_ ? leaves_knob_ : std::max<size_t>(1, n / 64);
      root_slope_ = last_ > first_
                        ? static_cast<double>(num) / detail::ToDouble<K>(last_ - first_)
                        : 0.0;
      leaves_.resize(num);
      Train(keys, n);
    }
    leaves_.shrink_to_fit();
    stats_ = BuildStats{n, leaves_.size(), 2, 0};
    stats_.build_seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - t0)
                               .count();
    return Status::OK();
  }

  Bound Search(K q) const override {
    if (n_ == 0 || q <= first_) return Bound{0, 0, 0};
    if (q > last_) return Bound{n_, n_, n_};
    size_t li = LeafOf(q);
    const Leaf& l = leaves_[li];
    int64_t p = Predict(l, NextY0(li), q);
    int64_t lo = std::max<int64_t>(p - static_cast<int64_t>(l.err), 0);
    int64_t hi = std::min<int64_t>(p + static_cast<int64_t>(l.err),
                                   static_cast<int64_t>(n_));
    return Bound{static_cast<size_t>(lo), static_cast<size_t>(p),
                 static_cast<size_t>(hi)};
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pod<uint64_t>(leaves_knob_);
    w.Pod<uint64_t>(n_);
    w.Pod<K>(first_);
    w.Pod<K>(last_);
    w.Pod<double>(root_slope_);
    w.Vector(leaves_);
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    uint64_t knob = 0, n = 0;
    K first = 0, last = 0;
    double slope = 0;
    std::vector<Leaf> leaves;
    BuildStats st;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) s = r.Pod(&knob, "leaves knob");
    if (s.ok()) s = r.Pod(&n, "n");
    if (s.ok()) s = r.Pod(&first, "first key");
    if (s.ok()) s = r.Pod(&last, "last key");
    if (s.ok()) s = r.Pod(&slope, "root slope");
    if (s.ok()) s = r.Vector(&leaves, "leaves");
    if (s.ok()) s = r.Stats(&st);
    if (s.ok()) s = r.Finish();
    if (!s.ok()) return s;
    if ((n == 0) != leaves.empty() || !(slope >= 0) || first > last ||
        !detail::FitsSize(n)) {
      return detail::Reader::Corrupt("rmi header fields");
    }
    for (size_t i = 0; i < leaves.size(); ++i) {
      if (leaves[i].y0 > n || (i > 0 && leaves[i].y0 < leaves[i - 1].y0)) {
        return detail::Reader::Corrupt("rmi leaf positions");
      }
    }
    leaves_knob_ = knob;
    n_ = n;
    first_ = first;
    last_ = last;
    root_slope_ = slope;
    leaves_ = std::move(leaves);
    stats_ = st;
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) + detail::VectorBytes(leaves_);
  }
  BuildStats Stats() const override { return stats_; }

 private:
  // Monotone in q: a rounding-monotone double expression, floored, capped.
  size_t LeafOf(K q) const {
    double v = root_slope_ * detail::ToDouble<K>(q - first_);
    size_t last = leaves_.size() - 1;
    if (!(v > 0)) return 0;
    if (v >= static_cast<double>(last)) return last;
    return static_cast<size_t>(v);
  }

  uint32_t NextY0(size_t leaf) const {
    return leaf + 1 < leaves_.size() ? leaves_[leaf + 1].y0
                                     : static_cast<uint32_t>(n_);
  }

  static int64_t Predict(const Leaf& l, uint32_t hi, K q, K first) {
    double v = l.icpt + l.slope * detail::ToDouble<K>(q - first);
    if (!(v > l.y0)) return l.y0;
    if (v >= static_cast<double>(hi)) return hi;
    return static_cast<int64_t>(v);
  }
  int64_t Predict(const Leaf& l, uint32_t hi, K q) const {
    return Predict(l, hi, q, first_);
  }

  // The smallest key in (a, b] whose leaf is >= leaf (b's is), by bisection.
  K FirstKeyOfLeaf(K a, K b, size_t leaf) const {
    while (b - a > 1) {
      K mid = a + (b - a) / 2;
      if (LeafOf(mid) >= leaf) {
        b = mid;
      } else {
        a = mid;
      }
    }
    return b;
  }

  void Train(const K* keys, size_t n) {
    // Points arrive sorted, so each leaf's points are contiguous: buffer one
    // leaf, fit it by least squares, measure it, move on.
    struct Pt {
      K x;
      size_t y;
    };
    std::vector<Pt> buf;
    bool have_prev = false;
    Pt prev{0, 0};  // last point of the previous non-empty leaf
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
      // The ends of this leaf's key range that lie in gaps (flat steps).
      if (have_prev && buf.front().x - prev.x > 1) {
        K a = FirstKeyOfLeaf(prev.x, buf.front().x, cur);
        e.Add(Predict(l, hi, a), static_cast<int64_t>(buf.front().y));
      }
      if (next && next->x - buf.back().x > 1) {
        K b = FirstKeyOfLeaf(buf.back().x, next->x, cur + 1) - 1;
        e.Add(Predict(l, hi, b), static_cast<int64_t>(buf.back().y));
      }
      l.err = static_cast<uint32_t>(std::max(e.lo, e.hi));
      prev = buf.back();
      have_prev = true;
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

  uint64_t leaves_knob_ = 0;
  size_t n_ = 0;
  K first_ = 0, last_ = 0;
  double root_slope_ = 0;
  std::vector<Leaf> leaves_;
  BuildStats stats_;
};

}  // namespace lidx

#endif  // LIDX_RMI_H_

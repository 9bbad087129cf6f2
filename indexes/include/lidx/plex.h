// plex: PLEX (Stoian et al., 2021), "practical learned index". The same
// error-bounded spline as rs, indexed by a compact hist-tree instead of one
// flat radix table: each node splits its key range into 2^bits bins on the
// next bits of (key - min key); a bin holding more than `leaf` knots gets a
// child node, a smaller one is a leaf whose knots are binary-searched.
// Skewed data thus gets depth only where it is dense.
//
// Self-tuning, PLEX's point: the only knob is the spline error. Bits per
// node and leaf size are chosen at build time from a small grid by a cost
// model (expected tree depth plus binary-search steps, weighted by how many
// keys each knot serves), among shapes whose tree costs no more memory than
// the spline itself.
//
// Guarantee: hi - lo <= 2 * epsilon + 2 for any query.
//
// Knobs: epsilon (spline error, default 32).
//
// Usage:
//   auto idx = lidx::MakeIndex<uint64_t>("plex", {{"epsilon", "16"}}, &err);
#ifndef LIDX_PLEX_H_
#define LIDX_PLEX_H_

#include <cmath>
#include <vector>

#include "lidx/detail/build_clock.h"
#include "lidx/detail/options.h"
#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"
#include "lidx/detail/spline.h"
#include "lidx/index.h"

namespace lidx {

template <typename K>
class PlexIndex final : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 1;

  Status Configure(const Options& o) {
    return detail::ParseKnobs(o, "plex", {{"epsilon", &eps_, 1, 1u << 30}});
  }

  std::string_view Id() const override { return "plex"; }
  bool Exact() const override { return false; }
  uint32_t bits() const { return bits_; }
  uint32_t leaf() const { return leaf_; }

  Status Build(const K* keys, size_t n, const uint32_t*) override {
    detail::BuildClock clock;
    spline_.Build(keys, n, static_cast<double>(eps_));
    Tune();
    stats_ = BuildStats{n, spline_.knots.size(), 1 + MaxDepth(), 0};
    stats_.build_seconds = clock.Seconds();
    return Status::OK();
  }

  Bound Search(K q) const override {
    Bound b;
    if (spline_.Trivial(q, &b)) return b;
    const detail::Knot<K>* knots = spline_.knots.data();
    const K rel = q - knots[0].x;
    const size_t bins = size_t{1} << bits_;
    size_t node = 0;
    int shift = top_shift_;
    for (;;) {
      size_t bin = static_cast<size_t>(rel >> shift) & (bins - 1);
      uint32_t child = child_[node * bins + bin];
      if (child == 0) {
        const uint32_t* begin = &begin_[node * (bins + 1)];
        size_t first = begin[bin] == 0 ? 0 : begin[bin] - 1;
        size_t j = detail::LastKnotAtOrBefore(knots, first, begin[bin + 1], q);
        return detail::SplineBound(knots, j, q, spline_.n, spline_.err);
      }
      node = child;
      shift = shift > static_cast<int>(bits_) ? shift - bits_ : 0;
    }
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pods<uint64_t, uint32_t, uint32_t>(eps_, bits_, leaf_);
    spline_.Serialize(&w);
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    uint64_t eps = 0;
    uint32_t bits = 0, leaf = 0;
    detail::SplineCore<K> spline;
    BuildStats st;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) {
      s = r.Pods({"epsilon", "tree bits", "tree leaf size"}, &eps, &bits,
                 &leaf);
    }
    if (s.ok()) s = spline.Deserialize(&r);
    if (s.ok()) s = r.Stats(&st);
    if (s.ok()) s = r.Finish();
    if (s.ok() && (bits < 1 || bits > 16 || leaf < 1)) {
      s = detail::Reader::Corrupt("plex tree shape");
    }
    if (!s.ok()) return s;
    eps_ = eps;
    spline_ = std::move(spline);
    stats_ = st;
    BuildTree(bits, leaf, nullptr);  // the tree is derived from the knots
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) + detail::VectorBytes(spline_.knots) +
           detail::VectorBytes(begin_) + detail::VectorBytes(child_);
  }
  BuildStats Stats() const override { return stats_; }

 private:
  // Builds the tree for (bits, leaf); returns its expected cost per lookup
  // in "steps" when weights (keys served per knot, prefix-summed) are given.
  double BuildTree(uint32_t bits, uint32_t leaf, const std::vector<double>* w) {
    bits_ = bits;
    leaf_ = leaf;
    const std::vector<detail::Knot<K>>& knots = spline_.knots;
    begin_.clear();
    child_.clear();
    if (knots.empty()) {
      detail::ShrinkToFit(&begin_);
      detail::ShrinkToFit(&child_);
      top_shift_ = 0;
      return 0;
    }
    const size_t bins = size_t{1} << bits;
    const K k0 = knots[0].x;
    int width = detail::BitWidth(static_cast<K>(knots.back().x - k0));
    top_shift_ = width > static_cast<int>(bits) ? width - bits : 0;
    struct Todo {
      uint32_t node, first, end, depth;
      int shift;
    };
    std::vector<Todo> todo = {{0, 0, static_cast<uint32_t>(knots.size()), 1,
                               top_shift_}};
    begin_.resize(bins + 1);
    child_.resize(bins);
    double cost = 0;
    uint32_t nodes = 1;
    while (!todo.empty()) {
      Todo t = todo.back();
      todo.pop_back();
      size_t i = t.first;
      for (size_t b = 0; b < bins; ++b) {
        begin_[t.node * (bins + 1) + b] = static_cast<uint32_t>(i);
        while (i < t.end &&
               (static_cast<size_t>((knots[i].x - k0) >> t.shift) & (bins - 1)) == b) {
          ++i;
        }
      }
      begin_[t.node * (bins + 1) + bins] = t.end;
      for (size_t b = 0; b < bins; ++b) {
        uint32_t s = begin_[t.node * (bins + 1) + b];
        uint32_t e = begin_[t.node * (bins + 1) + b + 1];
        if (e - s > leaf && t.shift > 0) {
          child_[t.node * bins + b] = nodes;
          todo.push_back({nodes, s, e, t.depth + 1,
                          t.shift > static_cast<int>(bits) ? t.shift - static_cast<int>(bits) : 0});
          ++nodes;
          begin_.resize(size_t{nodes} * (bins + 1));
          child_.resize(size_t{nodes} * bins);
        } else if (w && e > s) {
          cost += ((*w)[e] - (*w)[s]) * (t.depth + std::log2(e - s + 2.0));
        }
      }
    }
    detail::ShrinkToFit(&begin_);
    detail::ShrinkToFit(&child_);
    return w ? cost / std::max(1.0, w->back()) : 0;
  }

  void Tune() {
    const std::vector<detail::Knot<K>>& knots = spline_.knots;
    std::vector<double> w(knots.size() + 1, 0);
    for (size_t j = 0; j < knots.size(); ++j) {
      double served = j + 1 < knots.size() ? knots[j + 1].y - knots[j].y : 1;
      w[j + 1] = w[j] + served + 1;
    }
    const size_t budget = std::max<size_t>(4096, detail::VectorBytes(spline_.knots));
    double best_cost = 0;
    size_t best_mem = 0;
    uint32_t best_bits = 0, best_leaf = 0;
    for (uint32_t bits : {4u, 6u, 8u, 10u, 12u}) {
      for (uint32_t leaf : {4u, 16u, 64u}) {
        double cost = BuildTree(bits, leaf, &w);
        size_t mem = detail::VectorBytes(begin_) + detail::VectorBytes(child_);
        bool fits = mem <= budget, best_fits = best_mem <= budget;
        bool better = best_bits == 0 || (fits && !best_fits) ||
                      (fits == best_fits &&
                       (fits ? cost < best_cost : mem < best_mem));
        if (better) {
          best_cost = cost;
          best_mem = mem;
          best_bits = bits;
          best_leaf = leaf;
        }
      }
    }
    BuildTree(best_bits, best_leaf, nullptr);
  }

  size_t MaxDepth() const {
    // Nodes are numbered parent-before-child, so one pass finds depths.
    const size_t bins = size_t{1} << bits_;
    size_t nodes = bins ? child_.size() / bins : 0;
    std::vector<uint32_t> depth(nodes, 1);
    size_t max_depth = nodes ? 1 : 0;
    for (size_t i = 0; i < nodes; ++i) {
      for (size_t b = 0; b < bins; ++b) {
        uint32_t c = child_[i * bins + b];
        if (c) {
          depth[c] = depth[i] + 1;
          max_depth = std::max<size_t>(max_depth, depth[c]);
        }
      }
    }
    return max_depth;
  }

  uint64_t eps_ = 32;
  detail::SplineCore<K> spline_;
  uint32_t bits_ = 8, leaf_ = 16;
  int top_shift_ = 0;
  std::vector<uint32_t> begin_;  // per node: 2^bits + 1 first-knot indices
  std::vector<uint32_t> child_;  // per node: 2^bits child ids, 0 = leaf bin
  BuildStats stats_;
};

}  // namespace lidx

#endif  // LIDX_PLEX_H_

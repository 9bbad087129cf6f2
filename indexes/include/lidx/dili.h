// dili: DILI (Li et al., VLDB 2023), a distribution-driven learned index,
// bulk-loaded and read-only.
//
// Build, two phases as in the paper:
//   1. Bottom-up: a BU-tree whose every level partitions the level below into
//      linear-regression segments, the segment count picked by a cost model
//      (detail/dili_butree.h), until at most 1024 segments remain: those
//      become the root's children (partitioning so few points again only
//      stacks levels of fanout 2 or 3 above them).
//   2. Top-down: the DILI itself. A node at BU height h covering key range
//      [lo, lo + w) gets fanout f = the number of height-(h-1) BU segments
//      overlapping its range, and the linear model child = (q - lo) * f / w,
//      so children split the range evenly; a node whose range meets only one
//      segment drops a height. At height 1 (or with few keys) it is a leaf.
// Leaves fit a least-squares line to their keys, stretched over
// leaf_expand x keys slots; keys that still collide on a slot go to a child
// leaf built the same way (DILI's local optimization of leaf conflicts). The
// leaf layout and its exact lower_bound are LIPP's, detail/lipp_slots.h: an
// absent key is answered by the successor position stored in its slot.
//
// Design choices (documented deviations): the BU cost model is ours (levels
// implied by the average fanout + log2 of the leaf rmse), the BU partition
// starts from runs of max(2, N/2^20) keys, a child range holding no key is a
// stored answer instead of an empty leaf, and there is no insert path.
// Resource guard: Build() fails with a Status once planned memory exceeds
// max_memory_mb (0 = 64 MiB + 1 KiB per key) or nesting exceeds max_depth;
// the EDBT study reports DILI failing on OSM keys.
//
// Knobs: leaf_expand (slots per leaf key, default 2), max_memory_mb,
// max_depth (default 64).
//
// Usage:
//   lidx::DiliIndex<uint64_t> dili;
//   lidx::Status s = dili.Build(keys, n, nullptr);   // may fail: check s
//   size_t p = dili.Search(q).pos;                    // == lower_bound
#ifndef LIDX_DILI_H_
#define LIDX_DILI_H_

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lidx/detail/alex_lipp_dili_common.h"
#include "lidx/detail/dili_butree.h"
#include "lidx/detail/lipp_slots.h"
#include "lidx/detail/options.h"
#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"
#include "lidx/index.h"

namespace lidx {

template <typename K>
class DiliIndex final : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 1;

  DiliIndex() { Reset(); }

  Status Configure(const Options& o) {
    return detail::ParseKnobs(o, "dili",
                              {{"max_memory_mb", &max_memory_mb_, 0, 1 << 30},
                               {"max_depth", &max_depth_, 1, 1 << 20}},
                              {{"leaf_expand", &leaf_expand_, 1.0, 64.0}});
  }

  std::string_view Id() const override { return "dili"; }
  bool Exact() const override { return true; }

  // On failure the index is left empty (every Search() answers 0).
  Status Build(const K* keys, size_t n, const uint32_t*) override {
    auto build = [&](const detail::DistinctInput<K>& in,
                     detail::BuildBudget* budget) {
      Clear();
      n_ = n;
      Builder b{this, in, *budget, {}};
      Status s = b.Run(&root_);
      if (!s.ok()) return s;
      detail::ShrinkToFit(&inners_);
      detail::ShrinkToFit(&children_);
      stats_ = BuildStats{n, slots_.size(), max_level_, 0};
      return Status::OK();
    };
    return detail::BuildExact<K>("dili", keys, n, max_memory_mb_, max_depth_,
                                 &stats_, build, [this] { Reset(); });
  }

  Bound Search(K q) const override {
    uint64_t ref = root_;
    while (Tag(ref) == kInner) {
      const Inner& in = inners_[Value(ref)];
      ref = children_[in.first_child + in.Slot(q)];
    }
    size_t p = Tag(ref) == kAnswer ? Value(ref) : slots_.Lookup(Value(ref), q);
    return Bound{p, p, p};
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pods<uint64_t, uint64_t, uint64_t, uint64_t>(n_, root_, max_level_,
        inners_.size());
    for (const Inner& in : inners_) {
      w.Pod(in.base);
      w.Pod(in.scale);
      w.Pod(in.fanout);
      w.Pod(in.first_child);
    }
    w.Vector(children_);
    slots_.Write(&w);
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    DiliIndex t;
    t.inners_.clear();
    uint64_t n = 0, level = 0, count = 0;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) {
      s = r.Pods({"n", "root", "levels", "inner count"}, &n, &t.root_, &level,
                 &count);
    }
    if (s.ok() && count > r.remaining()) s = detail::Reader::Corrupt("inners");
    if (s.ok()) t.inners_.resize(count);
    for (Inner& x : t.inners_) {
      if (s.ok()) {
        s = r.Pods({"base", "scale", "fanout", "first child"}, &x.base,
                   &x.scale, &x.fanout, &x.first_child);
      }
    }
    if (s.ok()) s = r.Vector(&t.children_, "children");
    if (s.ok()) s = t.slots_.Read(&r, n);
    if (s.ok()) s = r.Stats(&t.stats_);
    if (s.ok()) s = r.Finish();
    if (s.ok()) s = t.Check(n);
    if (!s.ok()) return s;
    t.n_ = n;
    t.max_level_ = level;
    Swap(&t);
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) + detail::VectorBytes(inners_) +
           detail::VectorBytes(children_) + slots_.MemoryBytes();
  }
  BuildStats Stats() const override { return stats_; }

 private:
  // A child reference: top two bits say what the rest is.
  static constexpr uint64_t kInner = 0;   // index into inners_
  static constexpr uint64_t kLeaf = 1;    // root id of a slot tree
  static constexpr uint64_t kAnswer = 2;  // empty range: the answer itself
  static uint64_t Tag(uint64_t ref) { return ref >> 62; }
  static uint64_t Value(uint64_t ref) { return ref & ((uint64_t{1} << 62) - 1); }
  static uint64_t Ref(uint64_t tag, uint64_t v) { return tag << 62 | v; }

  struct Inner {
    K base = 0;
    double scale = 0;  // fanout / range width
    uint32_t fanout = 1;
    uint64_t first_child = 0;
    uint32_t Slot(K q) const {
      double v = detail::KeyOffset(q, base) * scale;
      if (!(v > 0)) return 0;
      if (v >= static_cast<double>(fanout - 1)) return fanout - 1;
      return static_cast<uint32_t>(v);
    }
  };

  // The BU-tree stops growing once a level has at most this many segments.
  static constexpr size_t kMaxRootFanout = 1024;

  struct Builder {
    DiliIndex* idx;
    detail::DistinctInput<K> in;
    detail::BuildBudget budget;
    // BU borders per height, as key offsets from the smallest key:
    // bu[h - 1] holds where the segments of BU height h start.
    std::vector<std::vector<long double>> bu;

    Status Run(uint64_t* root) {
      if (in.count == 0) {
        *root = Ref(kAnswer, in.n);
        return Status::OK();
      }
      BuildBu();
      long double width = detail::KeyOffsetL(in.keys[in.count - 1], in.keys[0]) + 1;
      return Node(0, in.count, in.keys[0], 0, width, bu.size(), 1, root);
    }

    // Phase 1: partition keys, then segment starts, until one segment.
    void BuildBu() {
      std::vector<K> level(in.keys, in.keys + in.count);
      for (;;) {
        std::vector<size_t> starts = detail::DiliPartition(level.data(), level.size());
        std::vector<long double> borders;
        std::vector<K> next;
        for (size_t s : starts) {
          borders.push_back(detail::KeyOffsetL(level[s], in.keys[0]));
          next.push_back(level[s]);
        }
        bu.push_back(std::move(borders));
        if (next.size() <= 1) break;
        if (next.size() <= kMaxRootFanout) {
          // Few enough for one root: partitioning them again would only
          // add levels of tiny fanout above it.
          bu.push_back({0.0L});
          break;
        }
        level = std::move(next);
      }
    }

    // BU segments of height h overlapping [lo, lo + w) (offsets from the
    // smallest key).
    size_t Overlapping(size_t h, long double lo, long double w) const {
      const std::vector<long double>& b = bu[h - 1];
      size_t first = std::upper_bound(b.begin(), b.end(), lo) - b.begin();
      size_t last = std::lower_bound(b.begin(), b.end(), lo + w) - b.begin();
      if (first > 0) --first;
      return last > first ? last - first : 1;
    }

    // Phase 2: the DILI node for keys [b, e), range [lo, lo + w) at BU
    // height h. lo_key is the range start as a key, lo the same as offset.
    Status Node(size_t b, size_t e, K lo_key, long double lo, long double w,
                size_t h, size_t depth, uint64_t* ref) {
      if (!budget.DepthOk(depth)) return budget.DepthError("dili");
      idx->max_level_ = std::max(idx->max_level_, depth);
      if (b == e) {
        *ref = Ref(kAnswer, in.PosAt(b));
        return Status::OK();
      }
      size_t f = 1;
      while (h > 1 && e - b > 2) {
        f = Overlapping(h - 1, lo, w);
        if (f > 1) break;
        --h;
      }
      if (f <= 1) return Leaf(b, e, depth, ref);
      if (f > (size_t{1} << 26) ||
          !budget.Charge(sizeof(Inner) + f * sizeof(uint64_t))) {
        return budget.MemoryError("dili");
      }
      Inner node;
      node.base = lo_key;
      node.scale = static_cast<double>(static_cast<long double>(f) / w);
      node.fanout = static_cast<uint32_t>(f);
      node.first_child = idx->children_.size();
      const uint64_t id = idx->inners_.size();
      idx->inners_.push_back(node);
      idx->children_.resize(idx->children_.size() + f);
      *ref = Ref(kInner, id);
      // Children own the keys the parent's own Slot() sends them, so routing
      // at lookup agrees with the build whatever the rounding of ranges.
      size_t i = b;
      const long double cw = w / f;
      for (size_t c = 0; c < f; ++c) {
        size_t j = i;
        while (j < e && node.Slot(in.keys[j]) == c) ++j;
        long double clo = lo + cw * c;
        K ckey = lo_key + static_cast<K>(cw * c);
        uint64_t child;
        Status s = Node(i, j, ckey, clo, cw, h - 1, depth + 1, &child);
        if (!s.ok()) return s;
        idx->children_[node.first_child + c] = child;
        i = j;
      }
      return Status::OK();
    }

    Status Leaf(size_t b, size_t e, size_t depth, uint64_t* ref) {
      const double expand = idx->leaf_expand_;
      auto fit = [expand](const K* k, size_t m) {
        detail::SlotModel md;
        if (m == 1) return md;
        if (m == 2) return detail::TwoKeyModel(k);
        detail::LineFit lf;
        for (size_t i = 0; i < m; ++i) {
          lf.Add(detail::KeyOffsetL(k[i], k[0]), static_cast<long double>(i));
        }
        md.num_items = std::max<size_t>(
            m + 1, static_cast<size_t>(std::ceil(m * expand)));
        double ratio = static_cast<double>(md.num_items) / m;
        md.slope = static_cast<double>(lf.Slope()) * ratio;
        md.intercept = (static_cast<double>(lf.Intercept()) + 0.5) * ratio;
        return md;
      };
      uint32_t root;
      Status s = idx->slots_.Build(in, b, e, depth, fit, &budget, "dili", &root);
      if (!s.ok()) return s;
      idx->max_level_ = std::max(idx->max_level_, idx->slots_.max_depth());
      *ref = Ref(kLeaf, root);
      return Status::OK();
    }
  };

  // Inner references point forward only and every leaf id and answer is in
  // range, so Search() always ends and never reads out of bounds.
  Status Check(uint64_t n) const {
    auto ok = [&](uint64_t ref, uint64_t from, bool root) {
      switch (Tag(ref)) {
        case kInner:
          return (root || Value(ref) > from) && Value(ref) < inners_.size();
        case kLeaf:
          return Value(ref) < slots_.size();
        case kAnswer:
          return Value(ref) <= n;
      }
      return false;
    };
    if (!ok(root_, 0, true)) return detail::Reader::Corrupt("dili root");
    for (size_t i = 0; i < inners_.size(); ++i) {
      const Inner& in = inners_[i];
      if (in.fanout == 0 || !std::isfinite(in.scale) ||
          in.first_child + in.fanout > children_.size()) {
        return detail::Reader::Corrupt("dili inner " + std::to_string(i));
      }
      for (uint32_t c = 0; c < in.fanout; ++c) {
        if (!ok(children_[in.first_child + c], i, false)) {
          return detail::Reader::Corrupt("dili child of " + std::to_string(i));
        }
      }
    }
    return Status::OK();
  }

  void Clear() {
    inners_.clear();
    children_.clear();
    slots_.Clear();
    root_ = Ref(kAnswer, 0);
    n_ = 0;
    max_level_ = 0;
    stats_ = BuildStats{};
  }

  void Reset() {
    Clear();
    detail::ShrinkToFit(&inners_);
    detail::ShrinkToFit(&children_);
  }

  void Swap(DiliIndex* o) {
    std::swap(inners_, o->inners_);
    std::swap(children_, o->children_);
    std::swap(slots_, o->slots_);
    std::swap(root_, o->root_);
    std::swap(n_, o->n_);
    std::swap(max_level_, o->max_level_);
    std::swap(stats_, o->stats_);
  }

  double leaf_expand_ = 2.0;
  uint64_t max_memory_mb_ = 0;
  uint64_t max_depth_ = 64;

  std::vector<Inner> inners_;
  std::vector<uint64_t> children_;
  detail::SlotNodes<K> slots_;
  uint64_t root_ = Ref(kAnswer, 0);
  size_t n_ = 0;
  size_t max_level_ = 0;
  BuildStats stats_;
};

}  // namespace lidx

#endif  // LIDX_DILI_H_

// alex: ALEX (Ding et al., SIGMOD 2020), an adaptive learned index, bulk-
// loaded and read-only.
//
// Inner nodes hold a linear model and an array of child references; the model
// picks the child. Data nodes hold a linear model and a gapped array (keys,
// positions, occupancy bitmap) filled by model-based inserts; a lookup
// predicts a slot and runs an exponential search from it. Gaps repeat the key
// (and position) to their right, as in ALEX, so the search runs over a sorted
// array and its result is the lower_bound directly: the first slot with key
// >= q, or the node's `end_pos` (the next node's first position) past the end.
// Absent keys are therefore exact with no extra work.
//
// Simplified bulk load (documented deviation from ALEX's fanout tree): each
// node decides once, with ALEX-style costs in units of search steps,
//   data node:  log2(1 + rmse of its linear model)  (exp-search iterations),
//               allowed only if its gapped array fits max_data_node_bytes;
//   inner node: 1 (one more node traversed) + the key-weighted data cost of
//               its children + ALEX's model-size charge for the nodes it adds
//               (5e-7/20 * node bytes * total keys / node keys),
//               minimized over fanouts 2^1 .. 2^20 (on a sample of <= 2^18
//               keys, as ALEX samples large nodes).
// It keeps the cheaper. Adjacent children whose keys together stay under the
// average child size share one node (ALEX's repeated child pointers), so
// sparse regions do not become thousands of tiny nodes. ALEX's power-of-two
// alignment of shared pointers is not needed without splits and is dropped.
//
// Knobs: max_data_node_bytes (node size; default 16 MiB, ALEX's default),
// init_density (fill of a fresh gapped array, default 0.7 as in ALEX),
// max_memory_mb (0 = 64 MiB + 1 KiB per key), max_depth (default 32): the
// resource guard, Build() returns a Status instead of exceeding them.
//
// Usage:
//   lidx::AlexIndex<uint64_t> alex;
//   alex.Configure({{"max_data_node_bytes", "65536"}});
//   lidx::Status s = alex.Build(keys, n, nullptr);
//   size_t p = alex.Search(q).pos;   // == lower_bound
#ifndef LIDX_ALEX_H_
#define LIDX_ALEX_H_

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "lidx/detail/alex_lipp_dili_common.h"
#include "lidx/detail/options.h"
#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"
#include "lidx/index.h"

namespace lidx {

template <typename K>
class AlexIndex final : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 1;

  AlexIndex() { Reset(); }

  Status Configure(const Options& o) {
    return detail::ParseKnobs(
        o, "alex",
        {{"max_data_node_bytes", &max_data_node_bytes_, 256, uint64_t{1} << 34},
         {"max_memory_mb", &max_memory_mb_, 0, 1 << 30},
         {"max_depth", &max_depth_, 1, 1 << 20}},
        {{"init_density", &init_density_, 0.05, 1.0}});
  }

  std::string_view Id() const override { return "alex"; }
  bool Exact() const override { return true; }

  // On failure the index is left empty (every Search() answers 0).
  Status Build(const K* keys, size_t n, const uint32_t*) override {
    auto build = [&](const detail::DistinctInput<K>& in,
                     detail::BuildBudget* budget) {
      Clear();
      n_ = n;
      Builder b{this, in, *budget};
      Status s = b.Node(0, in.count, 1, &root_);
      if (!s.ok()) return s;
      detail::ShrinkToFit(&inners_);
      detail::ShrinkToFit(&children_);
      detail::ShrinkToFit(&data_);
      stats_ = BuildStats{n, data_.size(), max_level_, 0};
      return Status::OK();
    };
    return detail::BuildExact<K>("alex", keys, n, max_memory_mb_, max_depth_,
                                 &stats_, build, [this] { Reset(); });
  }

  Bound Search(K q) const override {
    uint32_t ref = root_;
    while (!(ref & kDataBit)) {
      const Inner& in = inners_[ref];
      ref = children_[in.first_child + Slot(in.model, q, in.fanout)];
    }
    const Data& d = data_[ref & ~kDataBit];
    // ALEX's data node search: exponential from the predicted slot.
    Bound from{0, Slot(d.model, q, d.capacity), d.capacity};
    size_t s = LastMile(d.keys.data(), from, q, LastMileKind::kExponential);
    size_t p = s < d.capacity ? d.pos[s] : d.end_pos;
    return Bound{p, p, p};
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pods<uint64_t, uint32_t, uint64_t, uint64_t>(n_, root_, max_level_,
        inners_.size());
    for (const Inner& in : inners_) {
      WriteModel(&w, in.model);
      w.Pod(in.fanout);
      w.Pod(in.first_child);
    }
    w.Vector(children_);
    w.Pod<uint64_t>(data_.size());
    for (const Data& d : data_) {
      WriteModel(&w, d.model);
      w.Pod(d.capacity);
      w.Pod(d.end_pos);
      w.Vectors(d.keys, d.pos, d.occupied);
    }
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    AlexIndex t;
    t.inners_.clear();
    t.data_.clear();
    uint64_t n = 0, level = 0, count = 0;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) {
      s = r.Pods({"n", "root", "levels", "inner count"}, &n, &t.root_, &level,
                 &count);
    }
    if (s.ok() && count > r.remaining()) s = detail::Reader::Corrupt("inners");
    if (s.ok()) t.inners_.resize(count);
    for (Inner& x : t.inners_) {
      if (s.ok()) s = ReadModel(&r, &x.model);
      if (s.ok()) {
        s = r.Pods({"fanout", "first child"}, &x.fanout, &x.first_child);
      }
    }
    if (s.ok()) s = r.Vector(&t.children_, "children");
    if (s.ok()) s = r.Pod(&count, "data count");
    if (s.ok() && count > r.remaining()) s = detail::Reader::Corrupt("data");
    if (s.ok()) t.data_.resize(count);
    for (Data& d : t.data_) {
      if (s.ok()) s = ReadModel(&r, &d.model);
      if (s.ok()) s = r.Pods({"capacity", "end pos"}, &d.capacity, &d.end_pos);
      if (s.ok()) {
        s = r.Vectors({"keys", "positions", "bitmap"}, &d.keys, &d.pos,
                      &d.occupied);
      }
    }
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
    size_t bytes = sizeof(*this) + detail::VectorBytes(inners_) +
                   detail::VectorBytes(children_) + detail::VectorBytes(data_);
    for (const Data& d : data_) {
      bytes += detail::VectorBytes(d.keys) + detail::VectorBytes(d.pos) +
               detail::VectorBytes(d.occupied);
    }
    return bytes;
  }
  BuildStats Stats() const override { return stats_; }

 private:
  static constexpr uint32_t kDataBit = 1u << 31;
  // Per-node bytes beyond its arrays (struct + allocator), for the cost.
  static constexpr double kNodeOverheadBytes = 128;
  // ALEX's model-size weight over its search-iteration weight (5e-7 / 20):
  // a node of B bytes holding m of N keys costs this * B * N / m steps.
  static constexpr double kSizeWeight = 5e-7 / 20;
  static constexpr size_t kMaxSamples = size_t{1} << 18;

  // slot = slope * (key - base) + intercept.
  struct Model {
    double slope = 0;
    double intercept = 0;
    K base = 0;
  };
  struct Inner {
    Model model;
    uint32_t fanout = 0;
    uint32_t first_child = 0;  // children_[first_child .. + fanout)
  };
  struct Data {
    Model model;
    uint32_t capacity = 0;
    uint32_t end_pos = 0;        // answer for q past the node's last key
    std::vector<K> keys;         // gaps repeat the key to their right
    std::vector<uint32_t> pos;   // likewise the position
    std::vector<uint64_t> occupied;
  };

  static uint32_t Slot(const Model& m, K q, uint32_t slots) {
    double v = m.slope * detail::KeyOffset(q, m.base) + m.intercept;
    if (!(v > 0)) return 0;
    if (v >= static_cast<double>(slots - 1)) return slots - 1;
    return static_cast<uint32_t>(v);
  }

  // Bulk loading (detail/alex_build.h). Recursive: depth is bounded by
  // max_depth.
  struct Builder;

  static void WriteModel(detail::Writer* w, const Model& m) {
    w->Pod(m.slope);
    w->Pod(m.intercept);
    w->Pod(m.base);
  }
  static Status ReadModel(detail::Reader* r, Model* m) {
    Status s = r->Pod(&m->slope, "slope");
    if (s.ok()) s = r->Pods({"intercept", "base"}, &m->intercept, &m->base);
    if (s.ok() && !(std::isfinite(m->slope) && std::isfinite(m->intercept))) {
      s = detail::Reader::Corrupt("alex model");
    }
    return s;
  }

  // Rejects anything Search() could loop on or read out of bounds with:
  // inner references only point forward, arrays agree with capacities.
  Status Check(uint64_t n) const {
    auto ref_ok = [&](uint32_t ref, size_t from) {
      return (ref & kDataBit) ? (ref & ~kDataBit) < data_.size()
                              : ref > from && ref < inners_.size();
    };
    if (!((root_ & kDataBit) ? (root_ & ~kDataBit) < data_.size()
                             : root_ < inners_.size())) {
      return detail::Reader::Corrupt("alex root");
    }
    for (size_t i = 0; i < inners_.size(); ++i) {
      const Inner& in = inners_[i];
      if (in.fanout == 0 ||
          uint64_t{in.first_child} + in.fanout > children_.size()) {
        return detail::Reader::Corrupt("alex inner " + std::to_string(i));
      }
      for (uint32_t c = 0; c < in.fanout; ++c) {
        if (!ref_ok(children_[in.first_child + c], i)) {
          return detail::Reader::Corrupt("alex child of " + std::to_string(i));
        }
      }
    }
    for (const Data& d : data_) {
      bool ok = d.capacity > 0 && d.keys.size() == d.capacity &&
                d.pos.size() == d.capacity &&
                d.occupied.size() == (d.capacity + 63) / 64 && d.end_pos <= n &&
                std::is_sorted(d.keys.begin(), d.keys.end());
      for (uint32_t p : d.pos) ok = ok && p <= n;
      if (!ok) return detail::Reader::Corrupt("alex data node");
    }
    return Status::OK();
  }

  void Clear() {
    inners_.clear();
    children_.clear();
    data_.clear();
    root_ = 0;
    n_ = 0;
    max_level_ = 0;
    stats_ = BuildStats{};
  }

  // Empty index: one data node of one gap answering 0.
  void Reset() {
    Clear();
    detail::ShrinkToFit(&inners_);
    detail::ShrinkToFit(&children_);
    data_.clear();
    detail::ShrinkToFit(&data_);
    data_.resize(1);
    Data& d = data_[0];
    d.capacity = 1;
    d.keys.assign(1, std::numeric_limits<K>::max());
    d.pos.assign(1, 0);
    d.occupied.assign(1, 0);
    root_ = kDataBit;
  }

  void Swap(AlexIndex* o) {
    std::swap(inners_, o->inners_);
    std::swap(children_, o->children_);
    std::swap(data_, o->data_);
    std::swap(root_, o->root_);
    std::swap(n_, o->n_);
    std::swap(max_level_, o->max_level_);
    std::swap(stats_, o->stats_);
  }

  uint64_t max_data_node_bytes_ = uint64_t{1} << 24;
  double init_density_ = 0.7;
  uint64_t max_memory_mb_ = 0;
  uint64_t max_depth_ = 32;

  std::vector<Inner> inners_;
  std::vector<uint32_t> children_;
  std::vector<Data> data_;
  uint32_t root_ = kDataBit;
  size_t n_ = 0;
  size_t max_level_ = 0;
  BuildStats stats_;
};

}  // namespace lidx

#include "lidx/detail/alex_build.h"

#endif  // LIDX_ALEX_H_

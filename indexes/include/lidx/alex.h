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
#include <chrono>
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
    auto t0 = std::chrono::steady_clock::now();
    std::vector<K> dk;
    std::vector<uint32_t> dp;
    Status s = detail::DistinctKeys(keys, n, &dk, &dp);
    if (!s.ok()) {
      Reset();
      return Status::Error("alex: " + s.message());
    }
    Clear();
    n_ = n;
    Builder b{this, dk.data(), dp.data(), dk.size(),
              detail::BuildBudget(max_memory_mb_, max_depth_, n)};
    s = b.Node(0, dk.size(), 1, &root_);
    if (!s.ok()) {
      Reset();
      return s;
    }
    detail::ShrinkToFit(&inners_);
    detail::ShrinkToFit(&children_);
    detail::ShrinkToFit(&data_);
    stats_ = BuildStats{n, data_.size(), max_level_, 0};
    stats_.build_seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - t0)
                               .count();
    return Status::OK();
  }

  Bound Search(K q) const override {
    uint32_t ref = root_;
    while (!(ref & kDataBit)) {
      const Inner& in = inners_[ref];
      ref = children_[in.first_child + Slot(in.model, q, in.fanout)];
    }
    const Data& d = data_[ref & ~kDataBit];
    size_t s = ExpSearch(d.keys.data(), d.capacity,
                         Slot(d.model, q, d.capacity), q);
    size_t p = s < d.capacity ? d.pos[s] : d.end_pos;
    return Bound{p, p, p};
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pod<uint64_t>(n_);
    w.Pod<uint32_t>(root_);
    w.Pod<uint64_t>(max_level_);
    w.Pod<uint64_t>(inners_.size());
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
      w.Vector(d.keys);
      w.Vector(d.pos);
      w.Vector(d.occupied);
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
    if (s.ok()) s = r.Pod(&n, "n");
    if (s.ok()) s = r.Pod(&t.root_, "root");
    if (s.ok()) s = r.Pod(&level, "levels");
    if (s.ok()) s = r.Pod(&count, "inner count");
    if (s.ok() && count > r.remaining()) s = detail::Reader::Corrupt("inners");
    if (s.ok()) t.inners_.resize(count);
    for (Inner& x : t.inners_) {
      if (s.ok()) s = ReadModel(&r, &x.model);
      if (s.ok()) s = r.Pod(&x.fanout, "fanout");
      if (s.ok()) s = r.Pod(&x.first_child, "first child");
    }
    if (s.ok()) s = r.Vector(&t.children_, "children");
    if (s.ok()) s = r.Pod(&count, "data count");
    if (s.ok() && count > r.remaining()) s = detail::Reader::Corrupt("data");
    if (s.ok()) t.data_.resize(count);
    for (Data& d : t.data_) {
      if (s.ok()) s = ReadModel(&r, &d.model);
      if (s.ok()) s = r.Pod(&d.capacity, "capacity");
      if (s.ok()) s = r.Pod(&d.end_pos, "end pos");
      if (s.ok()) s = r.Vector(&d.keys, "keys");
      if (s.ok()) s = r.Vector(&d.pos, "positions");
      if (s.ok()) s = r.Vector(&d.occupied, "bitmap");
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

  // First slot in [0, size) with key >= q, or size; starts at `p` and
  // doubles its step outwards, as ALEX's data node search does.
  static size_t ExpSearch(const K* keys, size_t size, size_t p, K q) {
    size_t lo, hi;
    if (keys[p] < q) {
      lo = p + 1;
      size_t step = 1;
      while (lo + step - 1 < size && keys[lo + step - 1] < q) {
        lo += step;
        step <<= 1;
      }
      hi = std::min(size, lo + step - 1);
    } else {
      hi = p;
      size_t step = 1;
      while (hi >= step && !(keys[hi - step] < q)) {
        hi -= step;
        step <<= 1;
      }
      lo = hi >= step ? hi - step + 1 : 0;
    }
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (keys[mid] < q) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  // Bulk loading. Recursive: depth is bounded by max_depth.
  struct Builder {
    AlexIndex* idx;
    const K* keys;
    const uint32_t* pos;
    size_t count;
    detail::BuildBudget budget;

    uint32_t PosAt(size_t i) const {
      return i < count ? pos[i] : static_cast<uint32_t>(idx->n_);
    }
    size_t Capacity(size_t m) const {
      size_t c = static_cast<size_t>(std::ceil(m / idx->init_density_));
      return std::max(c, std::max<size_t>(m, 1));
    }
    size_t DataBytes(size_t m) const {
      size_t c = Capacity(m);
      return c * (sizeof(K) + sizeof(uint32_t)) + (c + 63) / 64 * 8;
    }
    static size_t SampleStep(size_t m) {
      return std::max<size_t>(1, m / kMaxSamples);
    }

    // Least-squares rank model of keys[b, e) (rank 0 at keys[b]), on a
    // sample for large nodes; *rmse is its error in ranks.
    Model FitRanks(size_t b, size_t e, double* rmse) const {
      detail::LineFit fit;
      size_t step = SampleStep(e - b);
      for (size_t i = b; i < e; i += step) {
        fit.Add(detail::KeyOffsetL(keys[i], keys[b]),
                static_cast<long double>(i - b));
      }
      Model m;
      m.base = keys[b];
      m.slope = static_cast<double>(fit.Slope());
      m.intercept = static_cast<double>(fit.Intercept());
      *rmse = fit.n > 0 ? std::sqrt(static_cast<double>(fit.Sse() / fit.n)) : 0;
      return m;
    }

    // The rank model stretched onto `slots` slots; falls back to the line
    // through the end keys if the fit is unusable (it must be increasing for
    // lookups to be monotone).
    Model Scaled(const Model& rm, size_t b, size_t e, size_t slots) const {
      size_t m = e - b;
      double scale = static_cast<double>(slots) / static_cast<double>(m);
      Model s{rm.slope * scale, rm.intercept * scale, rm.base};
      if (!(s.slope > 0) || !std::isfinite(s.slope) ||
          !std::isfinite(s.intercept)) {
        double span = detail::KeyOffset(keys[e - 1], keys[b]);
        s.slope = span > 0 ? static_cast<double>(slots - 1) / span : 0;
        s.intercept = 0;
      }
      return s;
    }

    // Expected cost of splitting keys[b, e) into `f` children, in search
    // steps per key (see the header comment).
    double SplitCost(size_t b, size_t e, const Model& rm, size_t f) const {
      size_t m = e - b, step = SampleStep(m);
      Model im = Scaled(rm, b, e, f);
      size_t max_keys = Capacity(m);  // any key count whose array fits
      while (max_keys > 1 && DataBytes(max_keys) > idx->max_data_node_bytes_) {
        max_keys /= 2;
      }
      double cost = 0, samples = 0, nodes = 0;
      uint32_t cur = UINT32_MAX;
      double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
      size_t first = b;
      auto flush = [&](size_t end) {
        if (n == 0) return;
        double cxx = sxx - sx * sx / n, cxy = sxy - sx * sy / n;
        double sse = syy - sy * sy / n - (cxx > 0 ? cxy * cxy / cxx : 0);
        double rmse = sse > 0 ? std::sqrt(sse / n) : 0;
        cost += n * (std::log2(1 + rmse) + (end - first > max_keys ? 1 : 0));
        samples += n;
        nodes += 1;
      };
      for (size_t i = b; i < e; i += step) {
        uint32_t c = Slot(im, keys[i], static_cast<uint32_t>(f));
        if (c != cur) {
          flush(i);
          cur = c;
          first = i;
          n = sx = sy = sxx = sxy = syy = 0;
        }
        double x = detail::KeyOffset(keys[i], keys[first]);
        double y = static_cast<double>(i - first);
        n += 1;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
      }
      flush(e);
      double bytes = (nodes + 1) * kNodeOverheadBytes + f * sizeof(uint32_t);
      return 1 + cost / samples + kSizeWeight * bytes * count / m;
    }

    Status Node(size_t b, size_t e, size_t depth, uint32_t* ref) {
      if (!budget.DepthOk(depth)) return budget.DepthError("alex");
      idx->max_level_ = std::max(idx->max_level_, depth);
      size_t m = e - b;
      if (m == 0) return MakeData(b, e, Model{}, ref);
      double rmse;
      Model rm = FitRanks(b, e, &rmse);
      bool fits = DataBytes(m) <= idx->max_data_node_bytes_;
      if (fits && m <= 16) return MakeData(b, e, rm, ref);
      double best = std::numeric_limits<double>::infinity();
      size_t best_f = 2;
      for (size_t f = 2; f <= std::min<size_t>(m, size_t{1} << 20); f *= 2) {
        double c = SplitCost(b, e, rm, f);
        if (c < best) {
          best = c;
          best_f = f;
        }
      }
      double data_cost =
          std::log2(1 + rmse) + kSizeWeight * kNodeOverheadBytes * count / m;
      if (fits && data_cost <= best) return MakeData(b, e, rm, ref);
      return MakeInner(b, e, depth, rm, best_f, ref);
    }

    Status MakeInner(size_t b, size_t e, size_t depth, const Model& rm,
                     size_t f, uint32_t* ref) {
      if (!budget.Charge(sizeof(Inner) + f * sizeof(uint32_t))) {
        return budget.MemoryError("alex");
      }
      size_t m = e - b;
      Inner in;
      in.model = Scaled(rm, b, e, f);
      in.fanout = static_cast<uint32_t>(f);
      in.first_child = static_cast<uint32_t>(idx->children_.size());
      const uint32_t id = static_cast<uint32_t>(idx->inners_.size());
      idx->inners_.push_back(in);
      idx->children_.resize(idx->children_.size() + f);
      *ref = id;
      std::vector<size_t> start(f + 1, 0);
      for (size_t i = b; i < e; ++i) ++start[Slot(in.model, keys[i], in.fanout) + 1];
      for (size_t c = 0; c < f; ++c) start[c + 1] += start[c];
      // Group adjacent children up to the average child size; empty children
      // join a neighbour (their lookups end at its end_pos or first key).
      const size_t limit = std::max<size_t>(16, m / f);
      for (size_t c = 0; c < f;) {
        size_t g = c, total = start[c + 1] - start[c];
        for (++c; c < f; ++c) {
          size_t k = start[c + 1] - start[c];
          if (k != 0 && total != 0 && total + k > limit) break;
          total += k;
        }
        if (total == m && g == 0 && c == f) {
          return Status::Error("alex: inner model cannot split " +
                               std::to_string(m) + " keys");
        }
        uint32_t child;
        Status s = Node(b + start[g], b + start[c], depth + 1, &child);
        if (!s.ok()) return s;
        for (size_t t = g; t < c; ++t) idx->children_[in.first_child + t] = child;
      }
      return Status::OK();
    }

    // Gapped array filled by model-based inserts: each key goes to its
    // predicted slot, or the first free slot after the previous key, leaving
    // room for the keys still to come.
    Status MakeData(size_t b, size_t e, const Model& rm, uint32_t* ref) {
      size_t m = e - b, cap = Capacity(m);
      if (!budget.Charge(sizeof(Data) + DataBytes(m))) {
        return budget.MemoryError("alex");
      }
      Data d;
      d.capacity = static_cast<uint32_t>(cap);
      d.end_pos = PosAt(e);
      if (m > 0) d.model = Scaled(rm, b, e, cap);
      d.keys.assign(cap, std::numeric_limits<K>::max());
      d.pos.assign(cap, d.end_pos);
      d.occupied.assign((cap + 63) / 64, 0);
      size_t next_free = 0;
      for (size_t i = 0; i < m; ++i) {
        size_t p = Slot(d.model, keys[b + i], d.capacity);
        p = std::min(std::max(p, next_free), cap - (m - i));
        d.keys[p] = keys[b + i];
        d.pos[p] = PosAt(b + i);
        d.occupied[p >> 6] |= uint64_t{1} << (p & 63);
        next_free = p + 1;
      }
      for (size_t p = cap - 1; p-- > 0;) {
        if (!((d.occupied[p >> 6] >> (p & 63)) & 1)) {
          d.keys[p] = d.keys[p + 1];
          d.pos[p] = d.pos[p + 1];
        }
      }
      *ref = kDataBit | static_cast<uint32_t>(idx->data_.size());
      idx->data_.push_back(std::move(d));
      return Status::OK();
    }
  };

  static void WriteModel(detail::Writer* w, const Model& m) {
    w->Pod(m.slope);
    w->Pod(m.intercept);
    w->Pod(m.base);
  }
  static Status ReadModel(detail::Reader* r, Model* m) {
    Status s = r->Pod(&m->slope, "slope");
    if (s.ok()) s = r->Pod(&m->intercept, "intercept");
    if (s.ok()) s = r->Pod(&m->base, "base");
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

#endif  // LIDX_ALEX_H_

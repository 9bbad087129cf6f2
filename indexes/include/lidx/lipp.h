// lipp: LIPP (Wu et al., VLDB 2021), "updatable learned index with precise
// positions", bulk-loaded and read-only.
//
// Every node has a linear model fitted by FMCD (fastest minimum conflict
// degree) over its keys and an array of slots; a slot holds an entry, a child
// node (built recursively from the keys that conflicted on that slot) or
// nothing, told apart by two bitmaps. A lookup follows model predictions down
// the tree and never searches: positions are precise.
//
// Exact lower_bound for absent keys (LIPP itself only answers present keys):
// each entry also stores the position of the next distinct key, and each empty
// slot stores the position of the first key to its right, both filled in at
// build time; see detail/lipp_slots.h. Cost: 4 bytes per slot, no extra
// memory access, no fallback search.
//
// Design choices (documented deviations):
//   * Node slots: LIPP's gap rule, num_items = keys * (1 + g), g = 5 below
//     100K keys, 2 below 1M, else 1; two keys get LIPP's 8-slot node. FMCD as
//     in the paper (Algorithm 1) with LIPP's fallback to a line through two
//     split points when FMCD cannot keep the conflict degree <= keys/3.
//   * Payloads are uint32 positions, so a slot is 16 bytes for uint64 keys
//     (LIPP: key + 8-byte payload, also 16). Child pointers are node ids.
//   * No insert path, no adjustment statistics: SSTables are immutable.
//   * Resource guard: Build() fails with a Status once the nodes it plans
//     exceed max_memory_mb (0 = 64 MiB + 1 KiB per key) or nesting exceeds
//     max_depth; the EDBT study reports LIPP exhausting memory on OSM keys.
//
// Knobs: max_memory_mb (default 0 = automatic), max_depth (default 64).
//
// Usage:
//   lidx::LippIndex<uint64_t> lipp;
//   lidx::Status s = lipp.Build(keys, n, nullptr);   // may fail: check s
//   size_t p = lipp.Search(q).pos;                    // == lower_bound
#ifndef LIDX_LIPP_H_
#define LIDX_LIPP_H_

#include <string>
#include <vector>

#include "lidx/detail/alex_lipp_dili_common.h"
#include "lidx/detail/lipp_slots.h"
#include "lidx/detail/options.h"
#include "lidx/detail/serialize.h"
#include "lidx/index.h"

namespace lidx {

template <typename K>
class LippIndex final : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 1;

  LippIndex() { Reset(); }

  Status Configure(const Options& o) {
    return detail::ParseKnobs(o, "lipp",
                              {{"max_memory_mb", &max_memory_mb_, 0, 1 << 30},
                               {"max_depth", &max_depth_, 1, 1 << 20}});
  }

  std::string_view Id() const override { return "lipp"; }
  bool Exact() const override { return true; }

  // On failure the index is left empty (every Search() answers 0).
  Status Build(const K* keys, size_t n, const uint32_t*) override {
    auto build = [&](const detail::DistinctInput<K>& in,
                     detail::BuildBudget* budget) {
      slots_.Clear();
      n_ = n;
      uint32_t root;
      Status s =
          slots_.Build(in, 0, in.count, 1, &FitFmcd, budget, "lipp", &root);
      if (s.ok()) stats_ = BuildStats{n, slots_.size(), slots_.max_depth(), 0};
      return s;
    };
    return detail::BuildExact<K>("lipp", keys, n, max_memory_mb_, max_depth_,
                                 &stats_, build, [this] { Reset(); });
  }

  Bound Search(K q) const override {
    size_t p = slots_.Lookup(0, q);
    return Bound{p, p, p};
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pod<uint64_t>(n_);
    slots_.Write(&w);
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    uint64_t n = 0;
    detail::SlotNodes<K> slots;
    BuildStats st;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) s = r.Pod(&n, "n");
    if (s.ok()) s = slots.Read(&r, n);
    if (s.ok()) s = r.Stats(&st);
    if (s.ok()) s = r.Finish();
    if (s.ok() && slots.size() == 0) s = detail::Reader::Corrupt("no root");
    if (!s.ok()) return s;
    n_ = n;
    slots_ = std::move(slots);
    stats_ = st;
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) + slots_.MemoryBytes();
  }
  BuildStats Stats() const override { return stats_; }

 private:
  // FMCD: find the smallest conflict degree D such that, with the slot width
  // U set so keys[D] .. keys[m-1-D] span the slots, no D+1 consecutive keys
  // fall within one width; the model is then 1/U, centred. Linear time: the
  // window start i and D only grow.
  static detail::SlotModel FitFmcd(const K* k, size_t m) {
    detail::SlotModel md;
    if (m == 1) return md;
    if (m == 2) return detail::TwoKeyModel(k);
    size_t gap = m >= 1000000 ? 1 : m >= 100000 ? 2 : 5;
    md.num_items = m * (gap + 1);
    const double slots = static_cast<double>(md.num_items);
    auto width = [&](size_t d) {
      // Slightly wider than exact so that 1/U keeps a D-spread inside L.
      return static_cast<double>(k[m - 1 - d] - k[d]) / (slots - 2) *
             (1 + 1e-9);
    };
    size_t d = 1;
    double u = width(d);
    bool ok = u > 0;
    for (size_t i = 0; ok && i + d < m;) {
      if (static_cast<double>(k[i + d] - k[i]) >= u) {
        ++i;
        continue;
      }
      ++d;
      if (3 * d > m || 2 * d + 1 >= m) {
        ok = false;
      } else {
        u = width(d);
        ok = u > 0;
      }
    }
    if (ok) {
      md.slope = 1.0 / u;
      md.intercept = (slots - md.slope * (static_cast<double>(k[m - 1 - d] - k[0]) +
                                          static_cast<double>(k[d] - k[0]))) /
                     2;
      return md;
    }
    // FMCD broke: a line through the keys splitting them in thirds, each
    // landing mid-gap (as LIPP does).
    size_t p1 = (m - 1) / 3, p2 = (m - 1) * 2 / 3;
    double x1 = (static_cast<double>(k[p1] - k[0]) +
                 static_cast<double>(k[p1 + 1] - k[0])) / 2;
    double x2 = (static_cast<double>(k[p2] - k[0]) +
                 static_cast<double>(k[p2 + 1] - k[0])) / 2;
    double y1 = static_cast<double>(p1 * (gap + 1) + (gap + 1) / 2);
    double y2 = static_cast<double>(p2 * (gap + 1) + (gap + 1) / 2);
    if (x2 > x1) {
      md.slope = (y2 - y1) / (x2 - x1);
      md.intercept = y1 - md.slope * x1;
    } else {
      md.slope = -1;  // not finite-positive: the caller uses the endpoints
    }
    return md;
  }

  void Reset() {
    slots_.Clear();
    n_ = 0;
    stats_ = BuildStats{};
    // An empty tree still has a root (one empty slot answering 0), so
    // Search() needs no emptiness branch.
    detail::BuildBudget budget(0, 1, 0);
    detail::DistinctInput<K> in{nullptr, nullptr, 0, 0};
    uint32_t root;
    slots_.Build(in, 0, 0, 1, &FitFmcd, &budget, "lipp", &root);
  }

  uint64_t max_memory_mb_ = 0;
  uint64_t max_depth_ = 64;
  size_t n_ = 0;
  detail::SlotNodes<K> slots_;
  BuildStats stats_;
};

}  // namespace lidx

#endif  // LIDX_LIPP_H_

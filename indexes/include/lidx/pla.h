// pla / pra: DobLIX's dual-objective learned indexes (seed 002, §III-C).
//
// In DobLIX a segment of the model IS a data block of the SSTable, so a
// segment is cut for two reasons, data access first (lexicographic order of
// the objectives, §III-C1):
//   * its entries would exceed B_max bytes (`max_block_bytes`); entry sizes
//     come from Build()'s `entry_sizes`, or are `entry_bytes` each when that
//     is null (default 72 = 8-byte key + 64-byte value);
//   * pla only: the spline from the segment's first point could no longer
//     keep every point within E (`max_error`) positions (Algorithm 1; the
//     greedy spline corridor of RadixSpline, so one pass, O(1) per key).
// pra (Algorithm 2+3) partitions by bytes alone and fits each partition by
// least squares, recording its error E' (which may be above or below E:
// Fig. 7). As an extension, pra's `max_error` (default 0 = off, the paper's
// behaviour) splits a partition whose E' exceeds it at its worst key.
//
// Both record each segment's actual error after the fit, so the bound is
// guaranteed (see detail/linear_segments.h) and is often narrower than E
// (§III-E: a block cut by B_max has a smaller spline error).
// A segment is found by binary search over the segments' first keys under a
// radix table (`radix_bits`, max 18 as DobLIX's RSS first level; the table is
// sized down to the segment count).
//
// Contract: Index<K> (index.h). Not exact. K = uint64_t or lidx::u128.
// Limits: n < 2^32.
//
// Knobs: max_error (E, default 64), max_block_bytes (B_max, default 4096),
//        entry_bytes (72), radix_bits (18).
//
// Usage:
//   lidx::DobPla<uint64_t> pla;                    // or DobPra<uint64_t>
//   pla.Configure({{"max_error", "128"}, {"max_block_bytes", "8192"}});
//   pla.Build(keys, n, sizes);                     // sizes may be null
//   for (uint32_t start : pla.SegmentStarts()) ... // cut data blocks here
//   lidx::Bound b = pla.Search(q);
#ifndef LIDX_PLA_H_
#define LIDX_PLA_H_

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "lidx/detail/linear_segments.h"
#include "lidx/detail/options.h"
#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"
#include "lidx/index.h"

namespace lidx {

namespace lin = detail::linear;

template <typename K, bool kRegression>
class DobLix final : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 1;

  Status Configure(const Options& o) {
    return detail::ParseKnobs(
        o, Id(),
        {{"max_error", &max_error_, kRegression ? 0 : 1, 1u << 30},
         {"max_block_bytes", &max_block_bytes_, 1, uint64_t{1} << 40},
         {"entry_bytes", &entry_bytes_, 1, 1u << 30},
         {"radix_bits", &radix_bits_, 0, 24}});
  }

  std::string_view Id() const override { return kRegression ? "pra" : "pla"; }
  bool Exact() const override { return false; }

  Status Build(const K* keys, size_t n, const uint32_t* entry_sizes) override {
    const auto t0 = std::chrono::steady_clock::now();
    if (n >= std::numeric_limits<uint32_t>::max()) {
      return Status::Error(std::string(Id()) + ": n must be < 2^32");
    }
    std::vector<K> first;
    starts_.clear();
    models_.clear();
    bases_.clear();
    run_cont_.clear();
    n_ = n;
    if (kRegression) {
      BuildPra(keys, n, entry_sizes, &first);
    } else {
      BuildPla(keys, n, entry_sizes, &first);
    }
    starts_.push_back(static_cast<uint32_t>(n));
    for (size_t s = 1; s + 1 < starts_.size(); ++s) {
      if (keys[starts_[s]] == keys[starts_[s] - 1]) {
        run_cont_.push_back(static_cast<uint32_t>(s));
      }
    }
    detail::ShrinkToFit(&run_cont_);
    detail::ShrinkToFit(&starts_);
    detail::ShrinkToFit(&models_);
    detail::ShrinkToFit(&bases_);
    router_.Build(std::move(first), static_cast<uint32_t>(radix_bits_));
    stats_ = BuildStats{n, models_.size(), router_.has_radix() ? 2u : 1u, 0};
    stats_.build_seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - t0)
                               .count();
    return Status::OK();
  }

  Bound Search(K q) const override {
    const size_t c = router_.CountLess(q);
    // q is the first key of block c: answer exactly rather than via block
    // c-1's bound ending at c's start, so a present key costs one block read
    // (unless block c continues a run of q from block c-1).
    if (c < starts_.size() - 1 && !(q < router_.first_keys()[c]) &&
        !std::binary_search(run_cont_.begin(), run_cont_.end(), c)) {
      return Bound{starts_[c], starts_[c], starts_[c]};
    }
    if (c == 0) return Bound{0, 0, 0};
    const size_t s = c - 1;
    const uint64_t start = starts_[s], end = starts_[s + 1];
    const lin::SegmentModel& m = models_[s];
    const double base = kRegression ? bases_[s] : static_cast<double>(start);
    const uint64_t p = lin::PredictPos(
        base, m.slope, lin::KeyDelta(q, router_.first_keys()[s]), start,
        end - 1);
    Bound b;
    b.lo = p - std::min<uint64_t>(m.err_lo, p - start);
    b.hi = std::min<uint64_t>(end, p + m.err_hi + 1);
    b.pos = p;
    return b;
  }

  // First position of every segment (= data block), ascending, followed by n.
  // Segment s holds positions [SegmentStarts()[s], SegmentStarts()[s+1]).
  const std::vector<uint32_t>& SegmentStarts() const { return starts_; }
  size_t Segments() const { return models_.size(); }
  // The largest recorded error of segment s: E' (pra) or <= E+1 (pla).
  uint32_t SegmentError(size_t s) const {
    return std::max(models_[s].err_lo, models_[s].err_hi);
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pod<uint64_t>(max_error_);
    w.Pod<uint64_t>(max_block_bytes_);
    w.Pod<uint64_t>(entry_bytes_);
    w.Pod<uint64_t>(radix_bits_);
    w.Pod<uint64_t>(n_);
    w.Vector(router_.first_keys());
    w.Vector(starts_);
    w.Vector(models_);
    w.Vector(bases_);
    w.Vector(run_cont_);
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    uint64_t max_error = 0, max_block_bytes = 0, entry_bytes = 0,
             radix_bits = 0, n = 0;
    std::vector<K> first;
    std::vector<uint32_t> starts;
    std::vector<lin::SegmentModel> models;
    std::vector<double> bases;
    std::vector<uint32_t> run_cont;
    BuildStats st;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) s = r.Pod(&max_error, "max_error");
    if (s.ok()) s = r.Pod(&max_block_bytes, "max_block_bytes");
    if (s.ok()) s = r.Pod(&entry_bytes, "entry_bytes");
    if (s.ok()) s = r.Pod(&radix_bits, "radix_bits");
    if (s.ok()) s = r.Pod(&n, "n");
    if (s.ok()) s = r.Vector(&first, "first_keys");
    if (s.ok()) s = r.Vector(&starts, "starts");
    if (s.ok()) s = r.Vector(&models, "models");
    if (s.ok()) s = r.Vector(&bases, "bases");
    if (s.ok()) s = r.Vector(&run_cont, "run_cont");
    if (s.ok()) s = r.Stats(&st);
    if (s.ok()) s = r.Finish();
    if (!s.ok()) return s;
    // Search() indexes these arrays without checks: validate their shape.
    const size_t segs = models.size();
    bool sane = first.size() == segs && starts.size() == segs + 1 &&
                starts.back() == n && radix_bits <= 24 &&
                bases.size() == (kRegression ? segs : 0) &&
                (segs == 0) == (n == 0);
    for (size_t i = 0; sane && i < segs; ++i) {
      sane = starts[i] < starts[i + 1] &&
             (i == 0 || !(first[i] < first[i - 1]));
    }
    for (size_t i = 0; sane && i < run_cont.size(); ++i) {
      sane = run_cont[i] > 0 && run_cont[i] < segs &&
             (i == 0 || run_cont[i] > run_cont[i - 1]);
    }
    if (!sane || (segs > 0 && starts[0] != 0)) {
      return detail::Reader::Corrupt(std::string(Id()) + " segment arrays");
    }
    max_error_ = max_error;
    max_block_bytes_ = max_block_bytes;
    entry_bytes_ = entry_bytes;
    radix_bits_ = radix_bits;
    n_ = n;
    starts_ = std::move(starts);
    models_ = std::move(models);
    bases_ = std::move(bases);
    run_cont_ = std::move(run_cont);
    router_.Build(std::move(first), static_cast<uint32_t>(radix_bits_));
    stats_ = st;
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) + router_.HeapBytes() +
           detail::VectorBytes(starts_) + detail::VectorBytes(models_) +
           detail::VectorBytes(bases_) + detail::VectorBytes(run_cont_);
  }

  BuildStats Stats() const override { return stats_; }

 private:
  uint64_t EntrySize(const uint32_t* sizes, size_t i) const {
    return sizes ? sizes[i] : entry_bytes_;
  }

  // Algorithm 1 with the spline corridor: from the segment's first point
  // (x0, y0), the slopes of lines that keep every point seen so far within E
  // form an interval [lo, hi]; a point whose own slope from (x0, y0) leaves
  // it cannot join, so it starts the next segment. The segment's line goes
  // through its first and last points (a spline: the last point was inside
  // the corridor when accepted, so every earlier point is within E).
  void BuildPla(const K* keys, size_t n, const uint32_t* sizes,
                std::vector<K>* first) {
    if (n == 0) return;
    const double e = static_cast<double>(max_error_);
    size_t start = 0;
    uint64_t bytes = EntrySize(sizes, 0);
    double lo = 0, hi = std::numeric_limits<double>::infinity();
    double last_dx = 0, last_dy = 0;
    for (size_t i = 1; i < n; ++i) {
      const uint64_t sz = EntrySize(sizes, i);
      bool cut = bytes + sz > max_block_bytes_;
      double dx = 0, dy = 0;
      if (!cut) {
        dx = lin::KeyDelta(keys[i], keys[start]);
        dy = static_cast<double>(i - start);
        if (dx > 0) {
          // Compare by multiplication: one division per accepted key only.
          cut = dy < lo * dx || dy > hi * dx;
        } else {
          // Same key as the segment's first (or equal after rounding): every
          // line predicts y0 there, so it is an error of dy.
          cut = dy > e;
        }
      }
      if (cut) {
        ClosePla(keys, start, i, last_dx, last_dy, first);
        start = i;
        bytes = sz;
        lo = 0;
        hi = std::numeric_limits<double>::infinity();
        last_dx = last_dy = 0;
        continue;
      }
      bytes += sz;
      if (dx > 0) {
        const double inv = 1.0 / dx;
        lo = std::max(lo, (dy - e) * inv);
        hi = std::min(hi, (dy + e) * inv);
        last_dx = dx;
        last_dy = dy;
      }
    }
    ClosePla(keys, start, n, last_dx, last_dy, first);
  }

  void ClosePla(const K* keys, size_t a, size_t b, double last_dx,
                double last_dy, std::vector<K>* first) {
    const double slope = last_dx > 0 ? last_dy / last_dx : 0;
    lin::SegmentModel m;
    lin::MeasureErrors(keys, a, b, static_cast<double>(a), slope, &m);
    first->push_back(keys[a]);
    starts_.push_back(static_cast<uint32_t>(a));
    models_.push_back(m);
  }

  // Algorithm 2 (partition by bytes) then Algorithm 3 (least squares per
  // partition, E' recorded). With max_error set, an over-error partition is
  // split at its worst key until it fits.
  void BuildPra(const K* keys, size_t n, const uint32_t* sizes,
                std::vector<K>* first) {
    size_t start = 0;
    uint64_t bytes = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t sz = EntrySize(sizes, i);
      if (i > start && bytes + sz > max_block_bytes_) {
        ClosePra(keys, start, i, first);
        start = i;
        bytes = 0;
      }
      bytes += sz;
    }
    if (n > 0) ClosePra(keys, start, n, first);
  }

  void ClosePra(const K* keys, size_t a, size_t b, std::vector<K>* first) {
    // Explicit stack of pending ranges, right half pushed first so segments
    // come out in key order.
    std::vector<std::pair<size_t, size_t>> todo{{a, b}};
    while (!todo.empty()) {
      auto [l, r] = todo.back();
      todo.pop_back();
      double slope, base;
      lin::FitLeastSquares(keys, l, r, &slope, &base);
      lin::SegmentModel m;
      size_t worst = lin::MeasureErrors(keys, l, r, base, slope, &m);
      if (max_error_ > 0 && r - l > 1 &&
          std::max(m.err_lo, m.err_hi) > max_error_) {
        if (worst == l) ++worst;
        todo.push_back({worst, r});
        todo.push_back({l, worst});
        continue;
      }
      first->push_back(keys[l]);
      starts_.push_back(static_cast<uint32_t>(l));
      models_.push_back(m);
      bases_.push_back(base);
    }
  }

  uint64_t max_error_ = kRegression ? 0 : 64;
  uint64_t max_block_bytes_ = 4096;
  uint64_t entry_bytes_ = 72;
  uint64_t radix_bits_ = 18;

  uint64_t n_ = 0;
  lin::SegmentRouter<K> router_;
  std::vector<uint32_t> starts_;               // segments + 1 (last = n)
  std::vector<lin::SegmentModel> models_;   // per segment
  std::vector<double> bases_;                  // pra only: fitted intercepts
  // Segments whose first key equals the previous segment's last key (a run
  // of duplicates cut by B_max), ascending; usually empty.
  std::vector<uint32_t> run_cont_;
  BuildStats stats_;
};

template <typename K>
using DobPla = DobLix<K, false>;
template <typename K>
using DobPra = DobLix<K, true>;

}  // namespace lidx

#endif  // LIDX_PLA_H_

// ft: FITing-Tree (Galakatos et al., SIGMOD'19). Segments come from the
// shrinking cone: a segment's line starts at its first point and the cone of
// admissible slopes narrows with every point; a point outside starts a new
// segment. The segment starts are indexed by a static B+-tree (implicit
// layout: each inner level keeps every fanout-th key of the level below, so
// a node's children are found by arithmetic, with no pointers to store).
//
// Guarantee: hi - lo <= 2 * error + 2 for any query.
//
// Knobs: error (default 32), fanout (B+-tree node keys, default 16).
//
// Usage:
//   auto idx = lidx::MakeIndex<uint64_t>("ft", {{"error", "64"}}, &err);
#ifndef LIDX_FT_H_
#define LIDX_FT_H_

#include <chrono>
#include <limits>
#include <vector>

#include "lidx/detail/line_core.h"
#include "lidx/detail/options.h"
#include "lidx/detail/segments.h"
#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"
#include "lidx/index.h"

namespace lidx {
namespace detail {

template <typename K>
class ShrinkingConeFitter {
 public:
  explicit ShrinkingConeFitter(double error) : error_(error) {}

  bool Add(K x, size_t y) {
    double fy = static_cast<double>(y);
    if (count_ == 0) {
      x0_ = x;
      y0_ = fy;
      lo_ = 0;  // positions never decrease
      hi_ = std::numeric_limits<double>::infinity();
      count_ = 1;
      return true;
    }
    double dx = ToDouble<K>(x - x0_);
    double slope = (fy - y0_) / dx;
    if (slope < lo_ || slope > hi_) return false;
    hi_ = std::min(hi_, (fy + error_ - y0_) / dx);
    lo_ = std::max(lo_, (fy - error_ - y0_) / dx);
    ++count_;
    return true;
  }

  LineSeg<K> Finish() {
    double slope = count_ >= 2 ? (lo_ + hi_) / 2 : 0.0;
    count_ = 0;
    return LineSeg<K>{x0_, slope, y0_};
  }

 private:
  double error_;
  size_t count_ = 0;
  K x0_ = 0;
  double y0_ = 0, lo_ = 0, hi_ = 0;
};

}  // namespace detail

template <typename K>
class FitingTreeIndex final : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 1;

  Status Configure(const Options& o) {
    return detail::ParseKnobs(o, "ft",
                              {{"error", &error_, 1, 1u << 30},
                               {"fanout", &fanout_, 2, 1024}});
  }

  std::string_view Id() const override { return "ft"; }
  bool Exact() const override { return false; }

  Status Build(const K* keys, size_t n, const uint32_t*) override {
    auto t0 = std::chrono::steady_clock::now();
    detail::ShrinkingConeFitter<K> fit(static_cast<double>(error_));
    core_.Build(keys, n, fit);
    BuildTree();
    stats_ = BuildStats{n, core_.segs.size(), 1 + inner_.size(), 0};
    stats_.build_seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - t0)
                               .count();
    return Status::OK();
  }

  Bound Search(K q) const override {
    Bound b;
    if (core_.Trivial(q, &b)) return b;
    // Descend: at each level, the last key <= q within the child node.
    size_t node = 0;
    for (size_t l = inner_.size(); l-- > 0;) {
      const std::vector<K>& level = inner_[l];
      size_t first = node * fanout_;
      size_t last = std::min(first + fanout_, level.size());
      size_t i = first + 1;
      while (i < last && level[i] <= q) ++i;
      node = i - 1;
    }
    const auto* segs = core_.segs.data();
    size_t first = node * fanout_;
    size_t last = std::min<size_t>(first + fanout_, core_.segs.size());
    size_t s = detail::LastSegAtOrBefore(segs, first, last, q);
    return detail::LineBound(segs, core_.segs.size(), s, q, core_.n,
                             core_.err);
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pod<uint64_t>(error_);
    w.Pod<uint64_t>(fanout_);
    core_.Serialize(&w);
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    uint64_t error = 0, fanout = 0;
    BuildStats st;
    detail::LineCore<K> core;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) s = r.Pod(&error, "error");
    if (s.ok()) s = r.Pod(&fanout, "fanout");
    if (s.ok()) s = core.Deserialize(&r);
    if (s.ok()) s = r.Stats(&st);
    if (s.ok()) s = r.Finish();
    if (!s.ok()) return s;
    if (fanout < 2) return detail::Reader::Corrupt("ft fanout < 2");
    error_ = error;
    fanout_ = fanout;
    core_ = std::move(core);
    stats_ = st;
    BuildTree();  // inner levels are derived, so they are not stored
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    size_t b = sizeof(*this) + core_.HeapBytes() + detail::VectorBytes(inner_);
    for (const auto& l : inner_) b += detail::VectorBytes(l);
    return b;
  }
  BuildStats Stats() const override { return stats_; }

 private:
  void BuildTree() {
    inner_.clear();
    size_t below = core_.segs.size();
    auto key_below = [&](size_t i) {
      return inner_.empty() ? core_.segs[i].x : inner_.back()[i];
    };
    while (below > fanout_) {
      std::vector<K> level;
      level.reserve((below + fanout_ - 1) / fanout_);
      for (size_t i = 0; i < below; i += fanout_) level.push_back(key_below(i));
      below = level.size();
      inner_.push_back(std::move(level));
    }
    detail::ShrinkToFit(&inner_);
  }

  uint64_t error_ = 32;
  uint64_t fanout_ = 16;
  detail::LineCore<K> core_;
  std::vector<std::vector<K>> inner_;  // inner_[0] sits just above segments
  BuildStats stats_;
};

}  // namespace lidx

#endif  // LIDX_FT_H_

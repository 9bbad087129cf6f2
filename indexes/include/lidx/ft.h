// ft: FITing-Tree (Galakatos et al., SIGMOD'19) as the EDBT study ran it:
// the implementation its footnote 10 names (github.com/RKolla99/FITing-Tree),
// whose layout this one keeps, written here. Segments come from the
// shrinking cone: a segment's line starts at its first point and the cone of
// admissible slopes narrows with every point; a point outside starts a new
// segment. Each segment is a 48-byte record (first key, first position, last
// key, long double slope: the authors' Segment<K, uint64_t, long double>)
// kept twice, as that code keeps it: in a vector grown one emplace_back at a
// time, and as full copies in the leaves of an STX-like B+-tree keyed by the
// first key (detail/stx_like_btree.h), which lookups descend. About 110-158
// bytes a segment where a compact layout needs 25 (engines/leveldb-learned/
// README.md, "PLR and FT").
//
// Guarantee: hi - lo <= 2 * error + 2 for any query.
//
// Knobs: error (default 32), fanout (keys of an inner B+-tree node: STX's
// count for the key type by default and at most, 16 for 8-byte keys; fewer
// make deeper trees in tests).
//
// Usage:
//   auto idx = lidx::MakeIndex<uint64_t>("ft", {{"error", "64"}}, &err);
#ifndef LIDX_FT_H_
#define LIDX_FT_H_

#include <algorithm>
#include <limits>
#include <vector>

#include "lidx/detail/build_clock.h"
#include "lidx/detail/line_core.h"
#include "lidx/detail/options.h"
#include "lidx/detail/segments.h"
#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"
#include "lidx/detail/stx_like_btree.h"
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

// The authors' Segment<K, uint64_t, long double>: 48 bytes for 8-byte keys.
template <typename K>
struct FtSegment {
  K start_key;
  uint64_t start_pos;
  K end_key;
  long double slope;
  LineSeg<K> Line() const {
    return LineSeg<K>{start_key, static_cast<double>(slope), static_cast<double>(start_pos)};
  }
};

}  // namespace detail

template <typename K>
class FitingTreeIndex final : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 2;  // 2: segments' last keys

  Status Configure(const Options& o) {
    return detail::ParseKnobs(o, "ft",
                              {{"error", &error_, 1, 1u << 30},
                               {"fanout", &fanout_, 2, Tree::kInnerSlots}});
  }

  std::string_view Id() const override { return "ft"; }
  bool Exact() const override { return false; }

  Status Build(const K* keys, size_t n, const uint32_t*) override {
    detail::BuildClock clock;
    detail::ShrinkingConeFitter<K> fit(static_cast<double>(error_));
    core_.Build(keys, n, fit);
    std::vector<K> ends(core_.segs.size());
    for (size_t s = 0; s < ends.size(); ++s) {
      // the last key before the next segment's first (a segment's keys are contiguous)
      size_t end = s + 1 < ends.size()
                       ? std::lower_bound(keys, keys + n, core_.segs[s + 1].x) - keys
                       : n;
      ends[s] = keys[end - 1];
    }
    Lay(ends);
    stats_ = BuildStats{n, segments_.size(), tree_.levels(), 0};
    stats_.build_seconds = clock.Seconds();
    return Status::OK();
  }

  Bound Search(K q) const override {
    const size_t n = core_.n;
    if (n == 0 || q <= segments_[0].start_key) return Bound{0, 0, 0};
    if (q > core_.last_key) return Bound{n, n, n};
    auto slot = tree_.LastAtOrBefore(q);
    detail::LineSeg<K> lines[2] = {slot.value().Line(), {}};
    auto next = slot.Next();
    if (next.leaf != nullptr) lines[1] = next.value().Line();
    return detail::LineBound(lines, next.leaf != nullptr ? 2 : 1, 0, q, core_.n, core_.err);
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pods<uint64_t, uint64_t>(error_, fanout_);
    detail::LineCore<K> core = core_;
    std::vector<K> ends;
    for (const auto& seg : segments_) {
      core.segs.push_back(seg.Line());
      ends.push_back(seg.end_key);
    }
    core.Serialize(&w);
    w.Vector(ends);
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    uint64_t error = 0, fanout = 0;
    BuildStats st;
    detail::LineCore<K> core;
    std::vector<K> ends;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) s = r.Pods({"error", "fanout"}, &error, &fanout);
    if (s.ok()) s = core.Deserialize(&r);
    if (s.ok()) s = r.Vector(&ends, "segment last keys");
    if (s.ok()) s = r.Stats(&st);
    if (s.ok()) s = r.Finish();
    if (!s.ok()) return s;
    if (fanout < 2 || fanout > Tree::kInnerSlots) {
      return detail::Reader::Corrupt("ft fanout outside 2.." + std::to_string(Tree::kInnerSlots));
    }
    if (ends.size() != core.segs.size()) return detail::Reader::Corrupt("ft last keys do not match segments");
    for (const auto& seg : core.segs) {
      // the record keeps a first position: an intercept that is not one would predict differently
      if (!(seg.icpt >= 0) || seg.icpt != static_cast<double>(static_cast<uint64_t>(seg.icpt))) {
        return detail::Reader::Corrupt("ft segment intercept is not a position");
      }
    }
    error_ = error;
    fanout_ = fanout;
    core_ = std::move(core);
    stats_ = st;
    Lay(ends);
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) + detail::VectorBytes(segments_) + tree_.NodeBytes();
  }
  BuildStats Stats() const override { return stats_; }

 private:
  using Record = detail::FtSegment<K>;
  using Tree = detail::StxLikeBtree<K, Record>;

  // The authors' two copies from core_'s segments, which are then let go.
  void Lay(const std::vector<K>& ends) {
    segments_ = std::vector<Record>();  // grown as the authors' code grows it: one emplace_back a segment
    std::vector<K> firsts;
    for (size_t s = 0; s < core_.segs.size(); ++s) {
      const auto& line = core_.segs[s];
      segments_.push_back(Record{line.x, static_cast<uint64_t>(line.icpt), ends[s], line.slope});
      firsts.push_back(line.x);
    }
    tree_.BulkLoad(firsts, segments_, fanout_);
    core_.segs = std::vector<detail::LineSeg<K>>();
  }

  uint64_t error_ = 32;
  uint64_t fanout_ = Tree::kInnerSlots;  // STX's: 16 for 8-byte keys, 10 for 16-byte ones
  detail::LineCore<K> core_;  // n, last key and measured errors; its segments live in segments_ and tree_
  std::vector<Record> segments_;
  Tree tree_;
  BuildStats stats_;
};

}  // namespace lidx

#endif  // LIDX_FT_H_

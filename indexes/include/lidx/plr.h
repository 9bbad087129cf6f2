// plr: Bourbon's greedy piecewise linear regression (seed 004 §4.1, after
// Xie et al.'s swing/greedy PLA). Points are taken one at a time; the first
// two fix a cone of lines through their midpoint, every further point
// narrows the cone, and a point outside it starts a new segment. Lookup
// binary-searches the segment starts, as Bourbon does.
//
// Guarantee: every lower_bound position lies within delta of the segment's
// line, so hi - lo <= 2 * delta + 2 (one extra each side for flooring the
// line's value), for present and absent keys alike. Bourbon's public code
// computed a slope over two equal keys (NaN); our points never share an x.
//
// Knobs: delta (error bound, default 8 as in Bourbon).
//
// Usage:
//   auto idx = lidx::MakeIndex<uint64_t>("plr", {{"delta", "8"}}, &err);
#ifndef LIDX_PLR_H_
#define LIDX_PLR_H_


#include "lidx/detail/build_clock.h"
#include "lidx/detail/line_core.h"
#include "lidx/detail/options.h"
#include "lidx/detail/segments.h"
#include "lidx/detail/serialize.h"
#include "lidx/index.h"

namespace lidx {
namespace detail {

// Bourbon's GreedyPLR. Coordinates are relative to the segment's first
// point so doubles keep their precision on 64-bit keys.
template <typename K>
class GreedyPlrFitter {
 public:
  explicit GreedyPlrFitter(double delta) : delta_(delta) {}

  bool Add(K x, size_t y) {
    double fy = static_cast<double>(y);
    if (count_ == 0) {
      x0_ = x;
      y0_ = fy;
      count_ = 1;
      return true;
    }
    double dx = ToDouble<K>(x - x0_);
    if (count_ == 1) {
      // The cone through the midpoint of the first two points, between the
      // lines joining their opposite error corners.
      sx_ = dx / 2;
      sy_ = (y0_ + fy) / 2;
      lo_slope_ = (fy - y0_ - 2 * delta_) / dx;
      hi_slope_ = (fy - y0_ + 2 * delta_) / dx;
      if (lo_slope_ < 0) lo_slope_ = 0;  // data never decreases
      count_ = 2;
      return true;
    }
    double lo_v = sy_ + lo_slope_ * (dx - sx_);
    double hi_v = sy_ + hi_slope_ * (dx - sx_);
    if (lo_v > fy + delta_ || hi_v < fy - delta_) return false;
    if (hi_v > fy + delta_) hi_slope_ = (fy + delta_ - sy_) / (dx - sx_);
    if (lo_v < fy - delta_) lo_slope_ = (fy - delta_ - sy_) / (dx - sx_);
    ++count_;
    return true;
  }

  LineSeg<K> Finish() {
    LineSeg<K> s{x0_, 0.0, y0_};
    if (count_ >= 2) {
      s.slope = (lo_slope_ + hi_slope_) / 2;
      s.icpt = sy_ - s.slope * sx_;
    }
    count_ = 0;
    return s;
  }

 private:
  double delta_;
  size_t count_ = 0;
  K x0_ = 0;
  double y0_ = 0, sx_ = 0, sy_ = 0, lo_slope_ = 0, hi_slope_ = 0;
};

}  // namespace detail

template <typename K>
class PlrIndex final : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 1;

  Status Configure(const Options& o) {
    return detail::ParseKnobs(o, "plr", {{"delta", &delta_, 1, 1u << 30}});
  }
  uint64_t delta() const { return delta_; }

  std::string_view Id() const override { return "plr"; }
  bool Exact() const override { return false; }

  Status Build(const K* keys, size_t n, const uint32_t*) override {
    detail::BuildClock clock;
    detail::GreedyPlrFitter<K> fit(static_cast<double>(delta_));
    core_.Build(keys, n, fit);
    stats_ = BuildStats{n, core_.segs.size(), 1, 0};
    stats_.build_seconds = clock.Seconds();
    return Status::OK();
  }

  Bound Search(K q) const override {
    Bound b;
    if (core_.Trivial(q, &b)) return b;
    const auto* segs = core_.segs.data();
    size_t s = detail::LastSegAtOrBefore(segs, 0, core_.segs.size(), q);
    return detail::LineBound(segs, core_.segs.size(), s, q, core_.n,
                             core_.err);
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pod<uint64_t>(delta_);
    core_.Serialize(&w);
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    uint64_t delta = 0;
    BuildStats st;
    detail::LineCore<K> core;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) s = r.Pod(&delta, "delta");
    if (s.ok()) s = core.Deserialize(&r);
    if (s.ok()) s = r.Stats(&st);
    if (s.ok()) s = r.Finish();
    if (!s.ok()) return s;
    delta_ = delta;
    core_ = std::move(core);
    stats_ = st;
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) + core_.HeapBytes();
  }
  BuildStats Stats() const override { return stats_; }

 private:
  uint64_t delta_ = 8;
  detail::LineCore<K> core_;
  BuildStats stats_;
};

}  // namespace lidx

#endif  // LIDX_PLR_H_

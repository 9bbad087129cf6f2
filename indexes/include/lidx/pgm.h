// pgm: PGM-index (Ferragina & Vinciguerra, VLDB'20). Segments come from the
// optimal streaming piecewise linear approximation (O'Rourke's algorithm:
// keep the convex hulls of the points' upper and lower error bars and the
// two extreme feasible lines; a segment ends only when no line fits), which
// gives the fewest segments for the error. The segment starts are indexed
// recursively the same way with epsilon_recursive until a level has at most
// kMaxTopSegments segments (the reference stops at one); all levels live in
// one flat array. A lookup binary-searches the top level without branches,
// then descends: each level's prediction, minus its measured error, starts a
// branch-free count of the starts <= q over at most 2 * epsilon_recursive + 3
// starts.
//
// Guarantee: hi - lo <= 2 * epsilon + 2 for any query; each recursive level's
// measured error is within 2 * epsilon_recursive + 2 too (errors are measured
// with the exact code Search() uses, segments.h).
//
// Knobs: epsilon (default 64), epsilon_recursive (default 4).
//
// Usage:
//   auto idx = lidx::MakeIndex<uint64_t>("pgm", {{"epsilon", "32"}}, &err);
#ifndef LIDX_PGM_H_
#define LIDX_PGM_H_

#include <chrono>
#include <type_traits>
#include <vector>

#include "lidx/detail/options.h"
#include "lidx/detail/segments.h"
#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"
#include "lidx/index.h"

namespace lidx {
namespace detail {

// Exact integer geometry for 64-bit keys (relative x < 2^64, |y| < 2^40, so
// products fit in 128 bits); long double for 128-bit keys, where rounding
// can only cost tightness, never correctness (errors are measured).
template <typename K>
class OptimalPlaFitter {
  using Num = std::conditional_t<(sizeof(K) <= 8), __int128, long double>;
  struct P {
    Num x, y;
  };
  // Slope comparisons by cross multiplication: dx > 0 always.
  static Num Cross(const P& o, const P& a, const P& b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  }
  // slope(a->b) < slope(c->d)
  static bool Less(const P& a, const P& b, const P& c, const P& d) {
    return (b.y - a.y) * (d.x - c.x) < (d.y - c.y) * (b.x - a.x);
  }

 public:
  explicit OptimalPlaFitter(uint64_t eps) : eps_(static_cast<Num>(eps)) {}

  bool Add(K x, size_t y) {
    if (count_ == 0) {
      x0_ = x;
      y0_ = y;
    }
    Num rx = static_cast<Num>(x - x0_), ry = static_cast<Num>(y);
    P up{rx, ry + eps_}, dn{rx, ry - eps_};
    if (count_ == 0) {
      rect_[0] = up;
      rect_[1] = dn;
      upper_.assign(1, up);
      lower_.assign(1, dn);
      ustart_ = lstart_ = 0;
      count_ = 1;
      return true;
    }
    if (count_ == 1) {
      rect_[2] = dn;
      rect_[3] = up;
      upper_.push_back(up);
      lower_.push_back(dn);
      count_ = 2;
      return true;
    }
    // rect_[0]->rect_[2] is the least steep feasible line, rect_[1]->rect_[3]
    // the steepest. The point's bar must meet the cone they span.
    if (Less(rect_[2], up, rect_[0], rect_[2]) ||
        Less(rect_[1], rect_[3], rect_[3], dn)) {
      return false;
    }
    if (Less(rect_[1], up, rect_[1], rect_[3])) {
      // The top of the bar cuts the steepest line: the new steepest line
      // touches it and the lower hull point that minimises the slope.
      size_t best = lstart_;
      for (size_t i = lstart_ + 1; i < lower_.size(); ++i) {
        if (Less(lower_[best], up, lower_[i], up)) break;
        best = i;
      }
      rect_[1] = lower_[best];
      rect_[3] = up;
      lstart_ = best;
      size_t end = upper_.size();
      while (end >= ustart_ + 2 && Cross(upper_[end - 2], upper_[end - 1], up) <= 0) {
        --end;
      }
      upper_.resize(end);
      upper_.push_back(up);
    }
    if (Less(rect_[0], rect_[2], rect_[0], dn)) {
      // The bottom of the bar lifts the least steep line.
      size_t best = ustart_;
      for (size_t i = ustart_ + 1; i < upper_.size(); ++i) {
        if (Less(upper_[i], dn, upper_[best], dn)) break;
        best = i;
      }
      rect_[0] = upper_[best];
      rect_[2] = dn;
      ustart_ = best;
      size_t end = lower_.size();
      while (end >= lstart_ + 2 && Cross(lower_[end - 2], lower_[end - 1], dn) >= 0) {
        --end;
      }
      lower_.resize(end);
      lower_.push_back(dn);
    }
    ++count_;
    return true;
  }

  LineSeg<K> Finish() {
    LineSeg<K> s{x0_, 0.0, static_cast<double>(y0_)};
    if (count_ >= 2) {
      using LD = long double;
      LD ax = static_cast<LD>(rect_[0].x), ay = static_cast<LD>(rect_[0].y);
      LD bx = static_cast<LD>(rect_[1].x), by = static_cast<LD>(rect_[1].y);
      LD d1x = static_cast<LD>(rect_[2].x) - ax,
         d1y = static_cast<LD>(rect_[2].y) - ay;
      LD d2x = static_cast<LD>(rect_[3].x) - bx,
         d2y = static_cast<LD>(rect_[3].y) - by;
      LD slope = (d1y / d1x + d2y / d2x) / 2;
      LD den = d1x * d2y - d1y * d2x;
      LD ix, iy;
      if (den == 0) {
        // Parallel extremes: run midway between them.
        ix = ax;
        iy = (ay + by + (ax - bx) * (d2y / d2x)) / 2;
      } else {
        LD t = ((bx - ax) * d2y - (by - ay) * d2x) / den;
        ix = ax + t * d1x;
        iy = ay + t * d1y;
      }
      if (!(slope >= 0)) slope = 0;
      s.slope = static_cast<double>(slope);
      s.icpt = static_cast<double>(iy - slope * ix);
    }
    count_ = 0;
    return s;
  }

 private:
  Num eps_;
  size_t count_ = 0;
  K x0_ = 0;
  size_t y0_ = 0;
  P rect_[4];
  std::vector<P> upper_, lower_;
  size_t ustart_ = 0, lstart_ = 0;
};

}  // namespace detail

template <typename K>
class PgmIndex final : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 2;
  // Recursion stops at a level this small, which is binary-searched instead:
  // a level costs a dependent chain of about 40 cycles (two conversions, a
  // multiply-add, a floor, a window scan), a binary-search step about 6, and
  // a lookup's latency, not its instruction count, is what the last mile
  // waits on. Skewed keys (lognormal) otherwise need two extra levels above
  // the first recursive one (742 -> 13 -> 2 -> 1 segments at 10M keys).
  static constexpr size_t kMaxTopSegments = 64;
  using Seg = detail::LineSeg<K>;

  Status Configure(const Options& o) {
    return detail::ParseKnobs(o, "pgm",
                              {{"epsilon", &eps_, 1, 1u << 30},
                               {"epsilon_recursive", &eps_rec_, 1, 1u << 30}});
  }

  std::string_view Id() const override { return "pgm"; }
  bool Exact() const override { return false; }

  // Introspection for tests: level 0 is over the data, the last is the root.
  size_t NumLevels() const { return errs_.size(); }
  size_t LevelSize(size_t l) const { return off_[l + 1] - off_[l]; }
  detail::Errors LevelErrors(size_t l) const { return errs_[l]; }

  Status Build(const K* keys, size_t n, const uint32_t*) override {
    auto t0 = std::chrono::steady_clock::now();
    n_ = n;
    segs_.clear();
    off_.clear();
    errs_.clear();
    last_key_ = n ? keys[n - 1] : K(0);
    if (n > 0) {
      detail::OptimalPlaFitter<K> fit(eps_);
      std::vector<std::vector<Seg>> levels;
      levels.push_back(detail::FitLines(keys, n, fit));
      errs_.push_back(detail::MeasureLineErrors(keys, n, levels.back()));
      std::vector<K> starts;
      while (levels.back().size() > kMaxTopSegments) {
        const auto& below = levels.back();
        starts.resize(below.size());
        for (size_t i = 0; i < below.size(); ++i) starts[i] = below[i].x;
        detail::OptimalPlaFitter<K> up(eps_rec_);
        auto level = detail::FitLines(starts.data(), starts.size(), up);
        errs_.push_back(
            detail::MeasureLineErrors(starts.data(), starts.size(), level));
        levels.push_back(std::move(level));
      }
      // One flat array: a descent touches a few adjacent cache lines and no
      // per-level vector headers.
      off_.push_back(0);
      for (const auto& l : levels) {
        segs_.insert(segs_.end(), l.begin(), l.end());
        off_.push_back(segs_.size());
      }
    }
    detail::ShrinkToFit(&segs_);
    detail::ShrinkToFit(&off_);
    detail::ShrinkToFit(&errs_);
    stats_ = BuildStats{n, n ? LevelSize(0) : 0, errs_.size(), 0};
    stats_.build_seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - t0)
                               .count();
    return Status::OK();
  }

  // Each recursive level predicts lower_bound(q) over the starts below
  // within its measured error, so only the window's lower end is needed: the
  // segment serving q is the last start <= q, counted over a fixed-width
  // window without branches. The bound widths were never the problem (every
  // level measures within 2 * epsilon + 2); the lookup's dependent chain was:
  // the last mile cannot start before the descent ends, so each level's
  // latency adds to every lookup, and binary searches in the windows add
  // mispredictions on top. See kMaxTopSegments.
  Bound Search(K q) const override {
    if (n_ == 0 || q <= segs_[0].x) return Bound{0, 0, 0};
    if (q > last_key_) return Bound{n_, n_, n_};
    const Seg* segs = segs_.data();
    const uint64_t* off = off_.data();
    const size_t top = errs_.size() - 1;
    // The top level: the last start <= q by a branch-free binary search
    // (its first start is the first key, < q).
    const Seg* base = segs + off[top];
    for (size_t len = off[top + 1] - off[top]; len > 1;) {
      size_t half = len / 2;
      base = base[half].x <= q ? base + half : base;
      len -= half;
    }
    size_t s = static_cast<size_t>(base - (segs + off[top]));
    for (size_t l = top; l > 0; --l) {
      const Seg* below = segs + off[l - 1];
      const size_t m = off[l] - off[l - 1];
      if (q >= below[m - 1].x) {
        s = m - 1;
        continue;
      }
      const Seg* cur = segs + off[l];
      int64_t p = detail::PredictLine(cur[s], q, m);
      if (off[l] + s + 1 < off[l + 1]) {
        // Past this segment's last start, lower_bound is the next segment's
        // first y, which that segment predicts within the error (segments.h).
        p = std::min(p, detail::PredictLine(cur[s + 1], cur[s + 1].x, m));
      }
      const detail::Errors& e = errs_[l];
      // lower_bound(q) >= lo, so every start before lo is < q: the answer is
      // in [lo - 1, lo + e.lo + e.hi] and below[0].x < q.
      int64_t lo = p - e.lo;
      size_t j = lo > 1 ? static_cast<size_t>(lo - 1) : 0;
      // below[m - 1].x > q (checked above), so the count stops there.
      size_t end = std::min<size_t>(j + static_cast<size_t>(e.lo + e.hi + 1),
                                    m - 1);
      size_t c = 0;
      for (size_t i = j + 1; i <= end; ++i) c += below[i].x <= q;
      s = j + c;
    }
    return detail::LineBound(segs, LevelSize(0), s, q, n_, errs_[0]);
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pod<uint64_t>(eps_);
    w.Pod<uint64_t>(eps_rec_);
    w.Pod<uint64_t>(n_);
    w.Pod<K>(last_key_);
    w.Vector(errs_);
    w.Vector(off_);
    w.Vector(segs_);
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    uint64_t eps = 0, eps_rec = 0, n = 0;
    K last = 0;
    std::vector<detail::Errors> errs;
    std::vector<uint64_t> off;
    std::vector<Seg> segs;
    BuildStats st;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) s = r.Pod(&eps, "epsilon");
    if (s.ok()) s = r.Pod(&eps_rec, "epsilon_recursive");
    if (s.ok()) s = r.Pod(&n, "n");
    if (s.ok()) s = r.Pod(&last, "last key");
    if (s.ok()) s = r.Vector(&errs, "level errors");
    if (s.ok()) s = r.Vector(&off, "level offsets");
    if (s.ok()) s = r.Vector(&segs, "segments");
    if (s.ok()) s = r.Stats(&st);
    if (s.ok()) s = r.Finish();
    if (!s.ok()) return s;
    if ((n == 0) != errs.empty() || !detail::FitsSize(n) ||
        off.size() != (errs.empty() ? 0 : errs.size() + 1) ||
        (!off.empty() && (off.front() != 0 || off.back() != segs.size()))) {
      return detail::Reader::Corrupt("pgm levels do not match n");
    }
    for (size_t l = 0; l < errs.size(); ++l) {
      if (off[l + 1] <= off[l] ||
          (l + 1 < errs.size() && off[l + 1] - off[l] <= kMaxTopSegments) ||
          errs[l].lo < 0 || errs[l].hi < 0) {
        return detail::Reader::Corrupt("pgm level sizes");
      }
      for (size_t i = off[l] + 1; i < off[l + 1]; ++i) {
        if (!(segs[i - 1].x < segs[i].x)) {
          return detail::Reader::Corrupt("pgm segments unsorted");
        }
      }
    }
    eps_ = eps;
    eps_rec_ = eps_rec;
    n_ = n;
    last_key_ = last;
    errs_ = std::move(errs);
    off_ = std::move(off);
    segs_ = std::move(segs);
    stats_ = st;
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) + detail::VectorBytes(segs_) +
           detail::VectorBytes(off_) + detail::VectorBytes(errs_);
  }
  BuildStats Stats() const override { return stats_; }

 private:
  uint64_t eps_ = 64;
  uint64_t eps_rec_ = 4;
  size_t n_ = 0;
  K last_key_ = 0;
  std::vector<Seg> segs_;        // level 0 (over the data) first, root last
  std::vector<uint64_t> off_;    // level l is segs_[off_[l], off_[l + 1])
  std::vector<detail::Errors> errs_;
  BuildStats stats_;
};

}  // namespace lidx

#endif  // LIDX_PGM_H_

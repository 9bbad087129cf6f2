// pgm: PGM-index (Ferragina & Vinciguerra, VLDB'20). Segments come from the
// optimal streaming piecewise linear approximation (O'Rourke's algorithm:
// keep the convex hulls of the points' upper and lower error bars and the
// two extreme feasible lines; a segment ends only when no line fits), which
// gives the fewest segments for the error. The segment starts are indexed
// recursively the same way with epsilon_recursive until a level has at most
// kMaxTopSegments segments (the reference stops at one).
//
// Lookup (the reference's design, in our code): the top level is
// binary-searched without branches; each level below is entered at the
// window its parent predicts and the serving segment is counted over a
// fixed-width window, again without branches; the last level's prediction
// gives the bound. A prediction is floor(slope * (q - x)) plus an integer
// intercept, capped by the next segment's intercept (every level ends in a
// sentinel segment whose intercept is the level's size, so the cap needs no
// bounds check). All levels live in one flat array, each segment's start
// beside its line: the window's loads also fetch the serving segment's line,
// so a level costs one round of (parallel) cache misses, not two.
// See the lidx README's PGM section for the measurements behind this.
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

#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "lidx/detail/build_clock.h"
#include "lidx/detail/optimal_pla.h"
#include "lidx/detail/options.h"
#include "lidx/detail/segments.h"
#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"
#include "lidx/index.h"

namespace lidx {
template <typename K>
class PgmIndex final : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 3;
  // Recursion stops at a level this small, which is binary-searched instead:
  // a level is a dependent chain (a conversion, a multiply, a window of
  // loads) several times longer than a binary-search step, and the last
  // mile cannot start before the descent ends. Skewed keys (lognormal)
  // otherwise need two extra levels above the first recursive one
  // (742 -> 13 -> 2 -> 1 segments at 10M keys).
  static constexpr size_t kMaxTopSegments = 64;

  // A segment's line: position = floor(slope * (q - start)) + icpt. The
  // intercept is the line's value at the start, rounded: the cap by the next
  // segment (its intercept) then costs one load, and rounding moves a
  // prediction by under one position, which the measured errors absorb.
  struct Seg {
    K x;
    double slope;
    int64_t icpt;
  };

  Status Configure(const Options& o) {
    return detail::ParseKnobs(o, "pgm",
                              {{"epsilon", &eps_, 1, 1u << 30},
                               {"epsilon_recursive", &eps_rec_, 1, 1u << 30}});
  }

  std::string_view Id() const override { return "pgm"; }
  bool Exact() const override { return false; }

  // Introspection for tests: level 0 is over the data, the last is the root.
  // Sizes count segments, not the sentinel each level ends with.
  size_t NumLevels() const { return errs_.size(); }
  size_t LevelSize(size_t l) const { return off_[l + 1] - off_[l] - 1; }
  detail::Errors LevelErrors(size_t l) const { return errs_[l]; }

  Status Build(const K* keys, size_t n, const uint32_t*) override {
    detail::BuildClock clock;
    n_ = n;
    // Offset() by two halves while the levels are measured (the same values
    // as the one conversion Finalize() may enable).
    narrow_ = false;
    segs_.clear();
    off_.clear();
    errs_.clear();
    last_key_ = n ? keys[n - 1] : K(0);
    if (n > 0) {
      // Level l is fitted over the starts of level l - 1, copied out of
      // segs_ because appending to segs_ may move them.
      off_.push_back(0);
      AppendLevel(keys, n, eps_);
      while (LevelSize(errs_.size() - 1) > kMaxTopSegments) {
        const size_t below = off_[off_.size() - 2];
        const size_t m = LevelSize(errs_.size() - 1);
        std::vector<K> starts(m);
        for (size_t i = 0; i < m; ++i) starts[i] = segs_[below + i].x;
        AppendLevel(starts.data(), m, eps_rec_);
      }
    }
    detail::ShrinkToFit(&segs_);
    detail::ShrinkToFit(&off_);
    detail::ShrinkToFit(&errs_);
    Finalize();
    stats_ = BuildStats{n, n ? LevelSize(0) : 0, errs_.size(), 0};
    stats_.build_seconds = clock.Seconds();
    return Status::OK();
  }

  // Each recursive level predicts lower_bound(q) over the starts below
  // within its measured error, so only the window's lower end is needed: the
  // segment serving q is the last start <= q, counted over a fixed-width
  // window without branches. What a lookup costs is this chain's latency,
  // not its instruction count: the last mile's loads wait for the bound.
  Bound Search(K q) const override {
    if (n_ == 0 || q <= segs_[0].x) return Bound{0, 0, 0};
    if (q > last_key_) return Bound{n_, n_, n_};
    const Seg* segs = segs_.data();
    const Lvl* lv = lvl_.data();
    const size_t top = lvl_.size() - 1;
    // The top level: the last start <= q by a branch-free binary search
    // (its first start is the first key, < q).
    size_t s = LastAtOrBefore(segs, lv[top].off, lv[top].size, q);
    for (size_t l = top; l > 0; --l) {
      const Lvl& below = lv[l - 1];
      int64_t p = Predict(s, q, lv[l].cap);
      // lower_bound(q) over the starts below is >= lo, so every start before
      // lo is < q: the last start <= q is in [lo - 1, lo + e.lo + e.hi].
      // The window is moved inside the level rather than cut, so its width,
      // and the count loop's trip count, is the same for every query.
      int64_t lo = p - lv[l].err.lo;
      size_t j = lo > 1 ? static_cast<size_t>(lo - 1) : 0;
      j = std::min(j, below.size - 1 - lv[l].window);
      const Seg* w = segs + below.off + j;
      s = below.off + j + CountAtOrBefore(w, lv[l].window, q);
    }
    int64_t p = Predict(s, q, lv[0].cap);
    int64_t lo = std::max<int64_t>(p - lv[0].err.lo, 0);
    int64_t hi = std::min<int64_t>(p + lv[0].err.hi, static_cast<int64_t>(n_));
    lo = std::min(lo, hi);
    Bound b;
    b.lo = static_cast<size_t>(lo);
    b.hi = static_cast<size_t>(hi);
    b.pos = static_cast<size_t>(std::clamp<int64_t>(p, lo, hi));
    return b;
  }

  // The reference's last mile over its fixed window, made latency-bound on
  // one round of misses: every cache line of [lo, hi) is requested before
  // the search reads any, then a binary search runs over lines already on
  // their way. A plain binary search waits for one miss per halving of the
  // window (~5 at epsilon 64), which was ~78% of a lookup (README, PGM's
  // lookup). Round 3 (README): the steps are arithmetic (a mask), not a
  // select, which GCC 12 compiled into a jump on the loaded key; and the
  // window's size is the same for nearly every query (the level's errors),
  // so its prefetches and halvings are unrolled for it: fewer instructions
  // per lookup let out-of-order execution reach further into the next ones.
  size_t LowerBound(const K* keys, K q) const override {
    const Bound b = Search(q);
    if (b.hi - b.lo != lm_.len) return LastMileAnyWidth(keys, b, q);
    PrefetchLines(keys + b.lo - b.lo % kPerLine, lm_.lines);
    __builtin_prefetch(keys + b.hi - 1);  // the line one more when lo is late in its line
    // The answer is one of the len + 1 positions [lo, hi]: first narrowed to
    // the last 2^halvings of them or the ones before, then halved.
    size_t base = b.lo;
    if (lm_.first != 0) base = Step(keys, base, lm_.first, q);
    size_t k = lm_.halvings;
    for (; k > 8; --k) base = Step(keys, base, size_t{1} << (k - 1), q);
    switch (k) {
      case 8: base = Step(keys, base, 128, q); [[fallthrough]];
      case 7: base = Step(keys, base, 64, q); [[fallthrough]];
      case 6: base = Step(keys, base, 32, q); [[fallthrough]];
      case 5: base = Step(keys, base, 16, q); [[fallthrough]];
      case 4: base = Step(keys, base, 8, q); [[fallthrough]];
      case 3: base = Step(keys, base, 4, q); [[fallthrough]];
      case 2: base = Step(keys, base, 2, q); [[fallthrough]];
      case 1: base = Step(keys, base, 1, q); [[fallthrough]];
      default: break;
    }
    return base;
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pods<uint64_t, uint64_t, uint64_t, K>(eps_, eps_rec_, n_, last_key_);
    w.Vectors(errs_, off_, segs_);
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
    if (s.ok()) {
      s = r.Pods({"epsilon", "epsilon_recursive", "n", "last key"}, &eps,
                 &eps_rec, &n, &last);
    }
    if (s.ok()) {
      s = r.Vectors({"level errors", "level offsets", "segments"}, &errs, &off,
                    &segs);
    }
    if (s.ok()) s = r.Stats(&st);
    if (s.ok()) s = r.Finish();
    if (!s.ok()) return s;
    if ((n == 0) != errs.empty() || !detail::FitsSize(n) ||
        off.size() != (errs.empty() ? 0 : errs.size() + 1) ||
        (!off.empty() && (off.front() != 0 || off.back() != segs.size()))) {
      return detail::Reader::Corrupt("pgm levels do not match n");
    }
    for (size_t l = 0; l < errs.size(); ++l) {
      // Each level: at least one segment plus its sentinel, whose intercept
      // is the size of what the level indexes (Predict's cap relies on it).
      const uint64_t below = l == 0 ? n : off[l] - off[l - 1] - 1;
      if (off[l + 1] < off[l] + 2 ||
          (l + 1 < errs.size() && off[l + 1] - off[l] - 1 <= kMaxTopSegments) ||
          errs[l].lo < 0 || errs[l].hi < 0 ||
          !detail::FitsSize(static_cast<uint64_t>(errs[l].lo)) ||
          !detail::FitsSize(static_cast<uint64_t>(errs[l].hi)) ||
          segs[off[l + 1] - 1].icpt != static_cast<int64_t>(below)) {
        return detail::Reader::Corrupt("pgm level sizes");
      }
      for (size_t i = off[l]; i + 1 < off[l + 1]; ++i) {
        if ((i > off[l] && !(segs[i - 1].x < segs[i].x)) ||
            !(segs[i].slope >= 0) || !(segs[i].slope <= 1e300)) {
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
    Finalize();
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) + detail::VectorBytes(segs_) + detail::VectorBytes(off_) +
           detail::VectorBytes(errs_) + detail::VectorBytes(lvl_);
  }
  BuildStats Stats() const override { return stats_; }

 private:
  // What a descent reads of each level, derived from off_ and errs_: one
  // small array instead of three.
  struct Lvl {
    size_t off;     // first segment in segs_
    size_t size;    // segments, sentinel excluded
    size_t window;  // starts counted below this level: min(err + 1, below - 1)
    double cap;     // the size of what the level indexes, as a double
    detail::Errors err;
  };

  // The last of xs[first, first + len) that is <= q (xs[first] <= q), by a
  // binary search whose steps depend on len only: no branch on the keys to
  // mispredict, and few instructions, so that the out-of-order window still
  // reaches the next lookup while this one's last mile waits on memory.
  static size_t LastAtOrBefore(const Seg* segs, size_t first, size_t len, K q) {
    const Seg* base = segs + first;
    while (len > 1) {
      size_t half = len / 2;
      base = base[half].x <= q ? base + half : base;
      len -= half;
    }
    return static_cast<size_t>(base - segs);
  }

  static constexpr size_t kPerLine = 64 / sizeof(K) > 0 ? 64 / sizeof(K) : 1;

  // The last mile's shape for a window of lm_.len keys, the width of
  // (nearly) every bound: its lines, and its len + 1 candidate answers
  // split as first + 2^halvings.
  struct LastMileShape {
    size_t len = std::numeric_limits<size_t>::max();  // none: every bound takes LastMileAnyWidth
    size_t lines = 0;     // cache lines of len keys that start a line
    size_t first = 0;     // len + 1 - 2^halvings
    size_t halvings = 0;  // floor(log2(len + 1))
  };

  // One step of a branch-free binary search whose answer is in
  // [base, base + 2h] (or [base, base + h + first - 1] for the first step):
  // moves past keys[base, base + h) when all of them are < q.
  static size_t Step(const K* keys, size_t base, size_t h, K q) {
    return base + (h & (size_t{0} - static_cast<size_t>(keys[base + h - 1] < q)));
  }

  // Requests `lines` cache lines from p on. The count is the index's, the
  // same for every lookup, so the jump into the cases is always predicted.
  // Always inlined: GCC 12 deems a function of prefetches alone free of
  // effects and drops the call.
  __attribute__((always_inline)) static void PrefetchLines(const K* p, size_t lines) {
    for (; lines > 8; lines -= 8, p += 8 * kPerLine) {
      for (size_t i = 0; i < 8; ++i) __builtin_prefetch(p + i * kPerLine);
    }
    switch (lines) {
      case 8: __builtin_prefetch(p + 7 * kPerLine); [[fallthrough]];
      case 7: __builtin_prefetch(p + 6 * kPerLine); [[fallthrough]];
      case 6: __builtin_prefetch(p + 5 * kPerLine); [[fallthrough]];
      case 5: __builtin_prefetch(p + 4 * kPerLine); [[fallthrough]];
      case 4: __builtin_prefetch(p + 3 * kPerLine); [[fallthrough]];
      case 3: __builtin_prefetch(p + 2 * kPerLine); [[fallthrough]];
      case 2: __builtin_prefetch(p + 1 * kPerLine); [[fallthrough]];
      case 1: __builtin_prefetch(p); [[fallthrough]];
      default: break;
    }
  }

  // The last mile for a bound narrower than lm_.len (cut at 0 or n; or
  // every bound, when n < lm_.len): every line requested, then halvings.
  static size_t LastMileAnyWidth(const K* keys, const Bound& b, K q) {
    size_t base = b.lo, len = b.hi - b.lo;
    // Empty only when q is outside the keys' range (or n == 0): nothing to
    // read, and keys[lo] may not exist.
    if (len == 0) return base;
    for (size_t i = b.lo - b.lo % kPerLine; i < b.hi; i += kPerLine) {
      __builtin_prefetch(keys + i);
    }
    while (len > 1) {
      // The answer stays in [base, base + len].
      const size_t half = len / 2;
      base = Step(keys, base, half, q);
      len -= half;
    }
    return base + static_cast<size_t>(keys[base] < q);
  }

  // How many of w[1, window] are <= q. The width is the level's, the same
  // for every lookup, so the jump into the cases is always predicted; two
  // sums halve the chain of additions.
  static size_t CountAtOrBefore(const Seg* w, size_t window, K q) {
    size_t a = 0, b = 0;
    for (; window > 16; --window) a += w[window].x <= q;
    switch (window) {
      case 16: a += w[16].x <= q; [[fallthrough]];
      case 15: b += w[15].x <= q; [[fallthrough]];
      case 14: a += w[14].x <= q; [[fallthrough]];
      case 13: b += w[13].x <= q; [[fallthrough]];
      case 12: a += w[12].x <= q; [[fallthrough]];
      case 11: b += w[11].x <= q; [[fallthrough]];
      case 10: a += w[10].x <= q; [[fallthrough]];
      case 9: b += w[9].x <= q; [[fallthrough]];
      case 8: a += w[8].x <= q; [[fallthrough]];
      case 7: b += w[7].x <= q; [[fallthrough]];
      case 6: a += w[6].x <= q; [[fallthrough]];
      case 5: b += w[5].x <= q; [[fallthrough]];
      case 4: a += w[4].x <= q; [[fallthrough]];
      case 3: b += w[3].x <= q; [[fallthrough]];
      case 2: a += w[2].x <= q; [[fallthrough]];
      case 1: b += w[1].x <= q; [[fallthrough]];
      default: break;
    }
    return a + b;
  }

  // q - x as a double, rounded to nearest like static_cast: by one signed
  // conversion when no segment spans 2^63 keys or more (the offset's top bit
  // is then clear, and both round the same exact value once, so predictions
  // and the measured errors are unchanged), else by detail::ToDouble's two
  // halves. One conversion instead of two, a multiply and an add: a shorter
  // chain at every level of the descent.
  double Offset(K d) const {
    if constexpr (std::is_same_v<K, uint64_t>) {
      if (narrow_) return static_cast<double>(static_cast<int64_t>(d));
    }
    return detail::ToDouble<K>(d);
  }

  // Segment i's prediction for q (segs_[i].x <= q), capped by the next segment's
  // intercept: past segment i's last point lower_bound is the next segment's
  // first position, which its intercept predicts within the error
  // (segments.h). Monotone in q; errors are measured with this very code.
  int64_t Predict(size_t i, K q, double cap) const {
    const Seg* sg = segs_.data();
    double v = std::min(sg[i].slope * Offset(q - sg[i].x), cap);
    return std::min(static_cast<int64_t>(v) + sg[i].icpt, sg[i + 1].icpt);
  }

  // Fits keys[0, n) with `eps`, appends the level's segments and sentinel,
  // and measures its errors over the staircase of keys.
  void AppendLevel(const K* keys, size_t n, uint64_t eps) {
    detail::OptimalPlaFitter<K> fit(eps);
    const size_t first = segs_.size();
    for (const detail::LineSeg<K>& seg : detail::FitLines(keys, n, fit)) {
      segs_.push_back(Seg{seg.x, seg.slope, std::llround(seg.icpt)});
    }
    segs_.push_back(Seg{std::numeric_limits<K>::max(), 0.0, static_cast<int64_t>(n)});
    off_.push_back(segs_.size());
    const size_t last = segs_.size() - 2;
    const double cap = static_cast<double>(n);
    detail::Errors e;
    size_t i = first;
    detail::ForEachStaircasePoint(keys, n, [&](K x, size_t y) {
      while (i < last && segs_[i + 1].x <= x) ++i;
      e.Add(Predict(i, x, cap), static_cast<int64_t>(y));
    });
    errs_.push_back(e);
  }

  void Finalize() {
    lvl_.clear();
    for (size_t l = 0; l < errs_.size(); ++l) {
      const size_t below = l == 0 ? n_ : LevelSize(l - 1);
      const uint64_t span = static_cast<uint64_t>(errs_[l].lo + errs_[l].hi);
      lvl_.push_back(Lvl{off_[l], LevelSize(l),
                         static_cast<size_t>(std::min<uint64_t>(span + 1, below - 1)),
                         static_cast<double>(below), errs_[l]});
    }
    detail::ShrinkToFit(&lvl_);
    // Narrow when every segment's offsets (up to the next start, or the last
    // key) stay under 2^63.
    narrow_ = true;
    for (size_t l = 0; l < errs_.size(); ++l) {
      for (size_t i = off_[l]; i + 1 < off_[l + 1]; ++i) {
        const K end = i + 2 < off_[l + 1] ? static_cast<K>(segs_[i + 1].x - 1) : last_key_;
        if (end >= segs_[i].x && static_cast<uint64_t>(end - segs_[i].x) >> 63 != 0) narrow_ = false;
      }
    }
    lm_ = LastMileShape{};
    const uint64_t width = errs_.empty() ? 0 : static_cast<uint64_t>(errs_[0].lo + errs_[0].hi);
    if (width >= 1 && width <= n_) {
      lm_.len = static_cast<size_t>(width);
      lm_.lines = (lm_.len - 1) / kPerLine + 1;
      lm_.halvings = 0;
      while ((size_t{2} << lm_.halvings) <= lm_.len + 1) ++lm_.halvings;
      lm_.first = lm_.len + 1 - (size_t{1} << lm_.halvings);
    }
  }

  uint64_t eps_ = 64;
  uint64_t eps_rec_ = 4;
  size_t n_ = 0;
  K last_key_ = 0;
  // Level 0 (over the data) first, root last; level l is [off_[l],
  // off_[l + 1]), its last entry a sentinel (start max K, intercept = size
  // of what the level indexes).
  std::vector<Seg> segs_;
  std::vector<uint64_t> off_;
  std::vector<detail::Errors> errs_;
  std::vector<Lvl> lvl_;
  LastMileShape lm_;
  bool narrow_ = false;
  BuildStats stats_;
};

}  // namespace lidx

#endif  // LIDX_PGM_H_

// slr-eq / slr-ea: Segmented Linear Regression search (seed 003, §4).
//
// Each segment is fitted by least squares (positions against keys); a query
// binary-searches the segments' minimum keys, predicts with its segment's
// line, and a last-mile search finishes. Two segmentations:
//   * slr-eq (equal-size): `segments` segments of equal key count. With
//     `bad_segments=1` it is the paper's "equal-size SLR search with bad
//     segments" (fig. 8): a segment whose worst error exceeds
//     `error_threshold` is not trusted and its bound is the whole segment,
//     to be binary searched.
//   * slr-ea (error-aware, Algorithm 1): fit, and while a segment's worst
//     error exceeds `error_threshold`, split it at the key of its worst error
//     (at the key farthest from the segment's chord when the worst is an end
//     key, see ChordSplit) and recurse; if that would need more than
//     `max_segments` segments the model is abandoned and lookups go back to
//     plain binary search.
// Least squares does not bound the error a priori, so each segment's actual
// errors are recorded at build time: the bound always holds (see
// detail/linear_segments.h for why, also for absent and duplicated keys).
//
// "Minimum pairs": below `min_pairs` keys no model is built (the paper keeps
// LevelDB's binary search there). Both "no model" cases return the whole
// array as the bound with pos in the middle; UsesModel() tells callers.
//
// The last-mile kind is part of the design (linear for slr-ea, exponential
// for slr-eq in the paper): `last_mile=linear|binary|exponential` sets it and
// LastMile() reports it. Search(q, &kind) also returns the kind to use for
// that very lookup: binary where the model is not trusted.
//
// Contract: Index<K> (index.h). Not exact. K = uint64_t or lidx::u128.
// Limits: n < 2^32.
//
// Knobs: segments (20, slr-eq), bad_segments (0|1, slr-eq),
//        error_threshold (100), max_segments (20, slr-ea), min_pairs (32),
//        last_mile (exponential for slr-eq, linear for slr-ea).
//
// Usage:
//   lidx::SlrEa<uint64_t> slr;                     // or SlrEq<uint64_t>
//   slr.Configure({{"error_threshold", "64"}});
//   slr.Build(keys, n, nullptr);
//   lidx::LastMileKind kind;
//   lidx::Bound b = slr.Search(q, &kind);
//   size_t p = lidx::LastMile(keys, b, q, kind);
#ifndef LIDX_SLR_H_
#define LIDX_SLR_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "lidx/detail/build_clock.h"
#include "lidx/detail/linear_segments.h"
#include "lidx/detail/options.h"
#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"
#include "lidx/index.h"

namespace lidx {

namespace lin = detail::linear;

enum class SlrMode : uint8_t { kEqualSize = 0, kErrorAware = 1 };

inline const char* LastMileName(LastMileKind k) {
  switch (k) {
    case LastMileKind::kLinear:
      return "linear";
    case LastMileKind::kExponential:
      return "exponential";
    case LastMileKind::kBinary:
      break;
  }
  return "binary";
}

template <typename K, SlrMode kMode>
class Slr final : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 1;

  Status Configure(const Options& o) {
    // The string-valued knob is taken out here; the numeric ones go through
    // the shared parser, which rejects unknown names.
    Options rest = o;
    auto it = rest.find("last_mile");
    if (it != rest.end()) {
      if (it->second == "linear") {
        last_mile_ = LastMileKind::kLinear;
      } else if (it->second == "binary") {
        last_mile_ = LastMileKind::kBinary;
      } else if (it->second == "exponential") {
        last_mile_ = LastMileKind::kExponential;
      } else {
        return Status::Error(std::string(Id()) +
                             ": knob 'last_mile' wants linear, binary or "
                             "exponential, got '" +
                             it->second + "'");
      }
      rest.erase(it);
    }
    if (mode_ == SlrMode::kEqualSize) {
      return detail::ParseKnobs(
          rest, Id(),
          {{"segments", &segments_, 1, 1u << 30},
           {"bad_segments", &bad_segments_, 0, 1},
           {"error_threshold", &error_threshold_, 0, 1u << 31},
           {"min_pairs", &min_pairs_, 0, 1u << 31}});
    }
    return detail::ParseKnobs(
        rest, Id(),
        {{"error_threshold", &error_threshold_, 0, 1u << 31},
         {"max_segments", &max_segments_, 1, 1u << 30},
         {"min_pairs", &min_pairs_, 0, 1u << 31}});
  }

  std::string_view Id() const override {
    return mode_ == SlrMode::kEqualSize ? "slr-eq" : "slr-ea";
  }
  bool Exact() const override { return false; }

  Status Build(const K* keys, size_t n, const uint32_t*) override {
    const detail::BuildClock clock;
    if (n >= std::numeric_limits<uint32_t>::max()) {
      return Status::Error(std::string(Id()) + ": n must be < 2^32");
    }
    n_ = n;
    first_.clear();
    starts_.clear();
    models_.clear();
    bases_.clear();
    if (n > 0 && n >= min_pairs_) {
      if (mode_ == SlrMode::kEqualSize) {
        BuildEqualSize(keys, n);
      } else if (!BuildErrorAware(keys, n)) {
        // Algorithm 1 line 5: too many segments, back to binary search.
        first_.clear();
        starts_.clear();
        models_.clear();
        bases_.clear();
      }
    }
    if (!models_.empty()) starts_.push_back(static_cast<uint32_t>(n));
    detail::ShrinkToFit(&first_);
    detail::ShrinkToFit(&starts_);
    detail::ShrinkToFit(&models_);
    detail::ShrinkToFit(&bases_);
    stats_ = BuildStats{n, models_.size(), 1, 0};
    stats_.build_seconds = clock.Seconds();
    return Status::OK();
  }

  Bound Search(K q) const override { return Search(q, nullptr); }

  // Also reports the last-mile kind to use for this lookup: the configured
  // one, or binary where the bound is a whole untrusted range.
  Bound Search(K q, LastMileKind* kind) const {
    if (models_.empty()) {
      if (kind) *kind = LastMileKind::kBinary;
      return Bound{0, n_ / 2, n_};
    }
    // m <= max_segments: the paper's O(log m) binary search over min keys.
    const size_t c = std::lower_bound(first_.begin(), first_.end(), q) -
                     first_.begin();
    if (c == 0) {
      if (kind) *kind = last_mile_;
      return Bound{0, 0, 0};
    }
    const size_t s = c - 1;
    const uint64_t start = starts_[s], end = starts_[s + 1];
    const lin::SegmentModel& m = models_[s];
    if (m.err_lo == lin::SegmentModel::kWhole) {
      if (kind) *kind = LastMileKind::kBinary;
      return Bound{start, start + (end - start) / 2, end};
    }
    const uint64_t p = lin::PredictPos(
        bases_[s], m.slope, lin::KeyDelta(q, first_[s]), start, end - 1);
    if (kind) *kind = last_mile_;
    Bound b;
    b.lo = p - std::min<uint64_t>(m.err_lo, p - start);
    b.hi = std::min<uint64_t>(end, p + m.err_hi + 1);
    b.pos = p;
    return b;
  }

  // False when no model was built (n < min_pairs, or slr-ea needed more than
  // max_segments): callers should binary search, as LevelDB does.
  bool UsesModel() const { return !models_.empty(); }
  LastMileKind LastMile() const { return last_mile_; }
  size_t Segments() const { return models_.size(); }
  // Segment first positions followed by n (empty without a model).
  const std::vector<uint32_t>& SegmentStarts() const { return starts_; }
  // Worst error of segment s (max over both sides); UINT32_MAX when s is an
  // untrusted "bad" segment.
  uint32_t SegmentError(size_t s) const {
    return std::max(models_[s].err_lo, models_[s].err_hi);
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pods<uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint8_t, uint64_t>(
        segments_, bad_segments_, error_threshold_, max_segments_, min_pairs_,
        static_cast<uint8_t>(last_mile_), n_);
    w.Vectors(first_, starts_, models_, bases_);
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    uint64_t segments = 0, bad = 0, thr = 0, max_segs = 0, min_pairs = 0;
    uint64_t n = 0;
    uint8_t lm = 0;
    std::vector<K> first;
    std::vector<uint32_t> starts;
    std::vector<lin::SegmentModel> models;
    std::vector<double> bases;
    BuildStats st;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) {
      s = r.Pods({"segments", "bad_segments", "error_threshold",
                  "max_segments", "min_pairs", "last_mile", "n"},
                 &segments, &bad, &thr, &max_segs, &min_pairs, &lm, &n);
    }
    if (s.ok()) {
      s = r.Vectors({"first_keys", "starts", "models", "bases"}, &first,
                    &starts, &models, &bases);
    }
    if (s.ok()) s = r.Stats(&st);
    if (s.ok()) s = r.Finish();
    if (!s.ok()) return s;
    const size_t segs = models.size();
    bool sane = lm <= 2 && first.size() == segs && bases.size() == segs &&
                starts.size() == (segs ? segs + 1 : 0) &&
                (segs == 0 || (starts[0] == 0 && starts.back() == n));
    for (size_t i = 0; sane && i < segs; ++i) {
      sane = starts[i] < starts[i + 1] &&
             (i == 0 || !(first[i] < first[i - 1]));
    }
    if (!sane) return detail::Reader::Corrupt(std::string(Id()) + " segments");
    segments_ = segments;
    bad_segments_ = bad;
    error_threshold_ = thr;
    max_segments_ = max_segs;
    min_pairs_ = min_pairs;
    last_mile_ = static_cast<LastMileKind>(lm);
    n_ = n;
    first_ = std::move(first);
    starts_ = std::move(starts);
    models_ = std::move(models);
    bases_ = std::move(bases);
    stats_ = st;
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) + detail::VectorBytes(first_) +
           detail::VectorBytes(starts_) + detail::VectorBytes(models_) +
           detail::VectorBytes(bases_);
  }

  BuildStats Stats() const override { return stats_; }

 private:
  // Fits [a, b) and appends it as a segment; returns its worst position.
  size_t AddSegment(const K* keys, size_t a, size_t b, uint64_t* worst_err) {
    double slope, base;
    lin::FitLeastSquares(keys, a, b, &slope, &base);
    lin::SegmentModel m;
    const size_t worst = lin::MeasureErrors(keys, a, b, base, slope, &m);
    *worst_err = std::max(m.err_lo, m.err_hi);
    first_.push_back(keys[a]);
    starts_.push_back(static_cast<uint32_t>(a));
    models_.push_back(m);
    bases_.push_back(base);
    return worst;
  }

  void BuildEqualSize(const K* keys, size_t n) {
    const size_t segs = std::min<size_t>(segments_, n);
    for (size_t s = 0; s < segs; ++s) {
      // 128-bit product: s * n overflows 64 bits only for absurd inputs, but
      // costs nothing to rule out.
      const size_t a = static_cast<size_t>((unsigned __int128)s * n / segs);
      const size_t b =
          static_cast<size_t>((unsigned __int128)(s + 1) * n / segs);
      uint64_t err;
      AddSegment(keys, a, b, &err);
      if (bad_segments_ && err > error_threshold_) {
        models_.back().err_lo = lin::SegmentModel::kWhole;
        models_.back().err_hi = lin::SegmentModel::kWhole;
      }
    }
  }

  // Where a segment whose worst error is at its first or last key is
  // divided. Least-squares residuals of any curved run of keys peak at its
  // ends, and dividing at an end key leaves a one-key segment and a remainder
  // that fits no better: on a 64 MiB LevelDB index block of OSM-like keys
  // (15,385 restarts, threshold 100) that reading of "divide at the key of
  // the worst error margin" peels one key per split and needs 13,352
  // segments. The key that breaks linearity is then the one farthest from
  // the line through the segment's two ends (its chord); never an end.
  static size_t ChordSplit(const K* keys, size_t a, size_t b) {
    const double span = lin::KeyDelta(keys[b - 1], keys[a]);
    const double last = static_cast<double>(b - 1 - a);
    if (!(span > 0)) return a + (b - a) / 2;
    size_t at = a + (b - a) / 2;
    double far = -1;
    for (size_t i = a + 1; i + 1 < b; ++i) {
      const double d = static_cast<double>(i - a) -
                       lin::KeyDelta(keys[i], keys[a]) / span * last;
      const double ad = d < 0 ? -d : d;
      if (ad > far) far = ad, at = i;
    }
    return at;
  }

  // Algorithm 1, depth first with an explicit stack so segments come out in
  // key order. Returns false when the segment budget is exceeded.
  bool BuildErrorAware(const K* keys, size_t n) {
    std::vector<std::pair<size_t, size_t>> todo{{0, n}};
    while (!todo.empty()) {
      auto [a, b] = todo.back();
      todo.pop_back();
      uint64_t err;
      size_t worst = AddSegment(keys, a, b, &err);
      if (err <= error_threshold_ || b - a == 1) continue;
      // Splitting turns this segment into two.
      if (models_.size() + todo.size() + 1 > max_segments_) return false;
      first_.pop_back();
      starts_.pop_back();
      models_.pop_back();
      bases_.pop_back();
      if (worst == a || worst == b - 1) worst = ChordSplit(keys, a, b);
      if (worst == a) ++worst;
      todo.push_back({worst, b});
      todo.push_back({a, worst});
    }
    return true;
  }

  static constexpr SlrMode mode_ = kMode;
  uint64_t segments_ = 20;
  uint64_t bad_segments_ = 0;
  uint64_t error_threshold_ = 100;
  uint64_t max_segments_ = 20;
  uint64_t min_pairs_ = 32;
  LastMileKind last_mile_ = kMode == SlrMode::kEqualSize
                                ? LastMileKind::kExponential
                                : LastMileKind::kLinear;

  uint64_t n_ = 0;
  std::vector<K> first_;
  std::vector<uint32_t> starts_;  // segments + 1 (last = n), empty w/o model
  std::vector<lin::SegmentModel> models_;
  std::vector<double> bases_;
  BuildStats stats_;
};

template <typename K>
using SlrEq = Slr<K, SlrMode::kEqualSize>;
template <typename K>
using SlrEa = Slr<K, SlrMode::kErrorAware>;

}  // namespace lidx

#endif  // LIDX_SLR_H_

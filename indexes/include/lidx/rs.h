// rs: RadixSpline (Kipf et al., aiDM'20). A single pass builds an
// error-bounded linear spline over the data (GreedySplineCorridor); a radix
// table on the top `radix_bits` bits of (key - min key) narrows the knot
// search to the knots sharing the query's prefix, then a binary search finds
// the segment and interpolation predicts the position.
//
// Guarantee: hi - lo <= 2 * epsilon + 2 for any query.
//
// Knobs: epsilon (spline error, default 32), radix_bits (default 18, at most
// kMaxRadixBits; the EDBT study found 1 best inside an LSM, where tables are
// small).
//
// Usage:
//   auto idx = lidx::MakeIndex<uint64_t>("rs", {{"epsilon", "16"},
//                                               {"radix_bits", "20"}}, &err);
#ifndef LIDX_RS_H_
#define LIDX_RS_H_

#include <vector>

#include "lidx/detail/build_clock.h"
#include "lidx/detail/options.h"
#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"
#include "lidx/detail/spline.h"
#include "lidx/index.h"

namespace lidx {

template <typename K>
class RadixSplineIndex final : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 1;
  // The radix table is derived from one header field, 2^radix_bits entries:
  // at 28 it is 1 GiB. Past that a stored model of a few KiB could make its
  // reader allocate 2-4 GiB (a fuzzed learned table did, under the fuzzer's
  // 2 GiB limit), so a configuration is refused there and a model read back
  // is refused as corrupt.
  static constexpr uint64_t kMaxRadixBits = 28;

  Status Configure(const Options& o) {
    return detail::ParseKnobs(o, "rs",
                              {{"epsilon", &eps_, 1, 1u << 30},
                               {"radix_bits", &radix_bits_, 0, kMaxRadixBits}});
  }

  std::string_view Id() const override { return "rs"; }
  bool Exact() const override { return false; }

  Status Build(const K* keys, size_t n, const uint32_t*) override {
    detail::BuildClock clock;
    spline_.Build(keys, n, static_cast<double>(eps_));
    BuildTable();
    stats_ = BuildStats{n, spline_.knots.size(), 2, 0};
    stats_.build_seconds = clock.Seconds();
    return Status::OK();
  }

  Bound Search(K q) const override {
    Bound b;
    if (spline_.Trivial(q, &b)) return b;
    const detail::Knot<K>* knots = spline_.knots.data();
    size_t p = static_cast<size_t>((q - knots[0].x) >> shift_);
    // Knots with this prefix start at table_[p]; the one before it has a
    // smaller prefix, hence a smaller key, and may still be q's segment.
    size_t first = table_[p] == 0 ? 0 : table_[p] - 1;
    size_t end = table_[p + 1];
    size_t j = detail::LastKnotAtOrBefore(knots, first, end, q);
    return detail::SplineBound(knots, j, q, spline_.n, spline_.err);
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pods<uint64_t, uint64_t>(eps_, radix_bits_);
    spline_.Serialize(&w);
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    uint64_t eps = 0, bits = 0;
    detail::SplineCore<K> spline;
    BuildStats st;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) s = r.Pods({"epsilon", "radix_bits"}, &eps, &bits);
    if (s.ok()) s = spline.Deserialize(&r);
    if (s.ok()) s = r.Stats(&st);
    if (s.ok()) s = r.Finish();
    if (s.ok() && bits > kMaxRadixBits) s = detail::Reader::Corrupt("rs radix_bits");
    if (!s.ok()) return s;
    eps_ = eps;
    radix_bits_ = bits;
    spline_ = std::move(spline);
    stats_ = st;
    BuildTable();  // derived from the knots, so not stored
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) + detail::VectorBytes(spline_.knots) +
           detail::VectorBytes(table_);
  }
  BuildStats Stats() const override { return stats_; }

 private:
  void BuildTable() {
    table_.clear();
    detail::ShrinkToFit(&table_);
    shift_ = 0;
    const std::vector<detail::Knot<K>>& knots = spline_.knots;
    if (knots.empty()) return;
    K range = knots.back().x - knots[0].x;
    int width = detail::BitWidth(range);
    int bits = static_cast<int>(radix_bits_);
    shift_ = width > bits ? width - bits : 0;
    // Shifting by the full width is undefined; one bit less just means the
    // table has two entries where radix_bits = 0 asked for one.
    shift_ = std::min(shift_, static_cast<int>(8 * sizeof(K)) - 1);
    size_t max_prefix = static_cast<size_t>(range >> shift_);
    // table_[b] = first knot whose prefix is >= b, for b in [0, max+1].
    table_.assign(max_prefix + 2, 0);
    size_t b = 0;
    for (size_t i = 0; i < knots.size(); ++i) {
      size_t pre = static_cast<size_t>((knots[i].x - knots[0].x) >> shift_);
      while (b <= pre) table_[b++] = static_cast<uint32_t>(i);
    }
    while (b < table_.size()) table_[b++] = static_cast<uint32_t>(knots.size());
  }

  uint64_t eps_ = 32;
  uint64_t radix_bits_ = 18;
  detail::SplineCore<K> spline_;
  std::vector<uint32_t> table_;
  int shift_ = 0;
  BuildStats stats_;
};

}  // namespace lidx

#endif  // LIDX_RS_H_

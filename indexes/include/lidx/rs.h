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

#include <chrono>
#include <vector>

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
    auto t0 = std::chrono::steady_clock::now();
    n_ = n;
    knots_ = detail::BuildSpline(keys, n, static_cast<double>(eps_));
    err_ = n ? detail::MeasureSplineErrors(keys, n, knots_) : detail::Errors{};
    BuildTable();
    stats_ = BuildStats{n, knots_.size(), 2, 0};
    stats_.build_seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - t0)
                               .count();
    return Status::OK();
  }

  Bound Search(K q) const override {
    if (n_ == 0 || q <= knots_[0].x) return Bound{0, 0, 0};
    const size_t last = knots_.size() - 1;
    if (q >= knots_[last].x) {
      if (q > knots_[last].x) return Bound{n_, n_, n_};
      size_t y = static_cast<size_t>(knots_[last].y);
      return Bound{y, y, y};
    }
    size_t p = static_cast<size_t>((q - knots_[0].x) >> shift_);
    // Knots with this prefix start at table_[p]; the one before it has a
    // smaller prefix, hence a smaller key, and may still be q's segment.
    size_t first = table_[p] == 0 ? 0 : table_[p] - 1;
    size_t end = table_[p + 1];
    size_t j = detail::LastKnotAtOrBefore(knots_.data(), first, end, q);
    return detail::SplineBound(knots_.data(), j, q, n_, err_);
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pod<uint64_t>(eps_);
    w.Pod<uint64_t>(radix_bits_);
    w.Pod<uint64_t>(n_);
    w.Pod<int64_t>(err_.lo);
    w.Pod<int64_t>(err_.hi);
    w.Vector(knots_);
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    uint64_t eps = 0, bits = 0, n = 0;
    detail::Errors e;
    std::vector<detail::Knot<K>> knots;
    BuildStats st;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) s = r.Pod(&eps, "epsilon");
    if (s.ok()) s = r.Pod(&bits, "radix_bits");
    if (s.ok()) s = r.Pod(&n, "n");
    if (s.ok()) s = r.Pod(&e.lo, "error below");
    if (s.ok()) s = r.Pod(&e.hi, "error above");
    if (s.ok()) s = r.Vector(&knots, "spline knots");
    if (s.ok()) s = r.Stats(&st);
    if (s.ok()) s = r.Finish();
    if (!s.ok()) return s;
    if ((n == 0) != knots.empty() || bits > kMaxRadixBits || !detail::FitsSize(n)) {
      return detail::Reader::Corrupt("rs knots do not match n");
    }
    for (size_t i = 1; i < knots.size(); ++i) {
      if (!(knots[i - 1].x < knots[i].x)) {
        return detail::Reader::Corrupt("rs knots unsorted");
      }
    }
    eps_ = eps;
    radix_bits_ = bits;
    n_ = n;
    err_ = e;
    knots_ = std::move(knots);
    stats_ = st;
    BuildTable();  // derived from the knots, so not stored
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) + detail::VectorBytes(knots_) +
           detail::VectorBytes(table_);
  }
  BuildStats Stats() const override { return stats_; }

 private:
  void BuildTable() {
    table_.clear();
    detail::ShrinkToFit(&table_);
    shift_ = 0;
    if (knots_.empty()) return;
    K range = knots_.back().x - knots_[0].x;
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
    for (size_t i = 0; i < knots_.size(); ++i) {
      size_t pre = static_cast<size_t>((knots_[i].x - knots_[0].x) >> shift_);
      while (b <= pre) table_[b++] = static_cast<uint32_t>(i);
    }
    while (b < table_.size()) table_[b++] = static_cast<uint32_t>(knots_.size());
  }

  uint64_t eps_ = 32;
  uint64_t radix_bits_ = 18;
  size_t n_ = 0;
  detail::Errors err_;
  std::vector<detail::Knot<K>> knots_;
  std::vector<uint32_t> table_;
  int shift_ = 0;
  BuildStats stats_;
};

}  // namespace lidx

#endif  // LIDX_RS_H_

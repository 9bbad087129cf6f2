// rmi: a two-level recursive model index (Kraska et al., SIGMOD'18) in the
// configuration the EDBT study used from Maltry & Dittrich's analysis-rmi:
// a root model picks one of `leaves` linear-regression leaves, and each leaf
// records its own maximum absolute error ("LAbs"). Unlike the other indexes
// the error is not a knob: it is whatever the leaves achieve, and the
// second-level size is what a caller sweeps to trade memory for bound width.
//
// Roots (knob `root`), all mapping d = q - first key to a leaf in [0, L):
//   auto (default): radix, unless the linear_spline root would spread keys
//     over leaves nearly as evenly (LinearSplineSuffices; uniform keys).
//   radix: a table over the bits of double(d), exponent plus the
//     top `root_bits` mantissa bits, so buckets are equal-width in log scale
//     (2^root_bits per octave); each holds the leaf-scaled rank at its lower
//     edge and is interpolated linearly. Skewed keys (lognormal spans nine
//     orders of magnitude) get as many leaves as uniform ones; at most
//     64 * 2^root_bits + 1 doubles.
//   linear_spline: the line through the first and last key (analysis-rmi's
//     LinearSpline; this index's only root before). A heavy tail sends most
//     keys to a few leaves: on 10M lognormal keys the average bound was
//     ~21,700 positions wide.
//   linear: the least-squares line over all keys (LinearRegression).
//   cubic: the least-squares cubic in d / (last - first), kept only when its
//     coefficients make it monotone even under rounding (see FitCubic);
//     otherwise the linear_spline root is used and RootKind() says so.
// Why auto: the radix root spreads keys at least as evenly as the linear
// spline (within a bucket it is one), but its longer chain (bit tricks, a
// table load) costs ~20 ns a lookup where the spread gains nothing.
//
// Guarantee: hi - lo <= 2 * (the query's leaf error).
//
// Why the leaf errors hold for absent keys: every root is monotone in q even
// in floating point (each is built from rounding-monotone steps: a monotone
// conversion, products with non-negative constants, sums with constants,
// clamps), so a leaf serves one contiguous key range; its model is monotone;
// and its error is measured, with the code Search() uses, at its staircase
// points (segments.h). The leaf's range also reaches into the gaps beside
// its first and last point, where lower_bound is that point's y; the
// prediction there is clamped to [y0, next leaf's y0], so it errs in the
// left gap by at most what it errs at the first point and in the right gap
// by at most what it errs at the last (monotone, and both clamps are those
// gaps' own lower_bound). No key in a gap needs measuring. Leaves no point
// lands in serve a single gap, whose lower_bound is one constant stored
// exactly.
//
// Knobs: leaves (second-level size; default 0 = n / 64),
//        root (auto | radix | linear_spline | linear | cubic; default auto),
//        root_bits (mantissa bits of the radix root, 0..10; default 6).
//
// Usage:
//   auto idx = lidx::MakeIndex<uint64_t>("rmi", {{"leaves", "65536"}}, &err);
#ifndef LIDX_RMI_H_
#define LIDX_RMI_H_

#include <cstring>
#include <vector>

#include "lidx/detail/build_clock.h"
#include "lidx/detail/options.h"
#include "lidx/detail/segments.h"
#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"
#include "lidx/index.h"

namespace lidx {

template <typename K>
class RmiIndex : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 2;

  enum class Root : uint32_t {
    kLinearSpline = 0,
    kLinear = 1,
    kCubic = 2,
    kRadix = 3,
    kAuto = 4  // a knob value only: resolved to radix or linear_spline
  };

  // 24 bytes. y0 is lower_bound of the leaf's first key; predictions are
  // clamped to [y0, next leaf's y0], the only values lower_bound takes in a
  // leaf's key range, so extrapolating into a gap cannot run away.
  struct Leaf {
    double slope;
    double icpt;  // f(q) = icpt + slope * (q - first key)
    uint32_t err;
    uint32_t y0;
  };

  Status Configure(const Options& o) {
    Options rest = o;
    auto it = rest.find("root");
    if (it != rest.end()) {
      const std::string& v = it->second;
      if (v == "auto") {
        root_knob_ = Root::kAuto;
      } else if (v == "radix") {
        root_knob_ = Root::kRadix;
      } else if (v == "linear_spline") {
        root_knob_ = Root::kLinearSpline;
      } else if (v == "linear") {
        root_knob_ = Root::kLinear;
      } else if (v == "cubic") {
        root_knob_ = Root::kCubic;
      } else {
        return Status::Error(
            "rmi: knob 'root' wants auto, radix, linear_spline, linear or "
            "cubic, "
            "got '" + v + "'");
      }
      rest.erase(it);
    }
    Status s = detail::ParseKnobs(rest, "rmi",
                                  {{"leaves", &leaves_knob_, 0, 1u << 28},
                                   {"root_bits", &root_bits_, 0, 10}});
    if (!s.ok() && s.message().find("unknown knob") != std::string::npos) {
      return Status::Error(s.message().substr(0, s.message().size() - 1) +
                           " root)");
    }
    return s;
  }

  std::string_view Id() const override { return "rmi"; }
  bool Exact() const override { return false; }
  uint64_t MaxLeafError() const {
    uint64_t m = 0;
    for (const Leaf& l : leaves_) m = std::max<uint64_t>(m, l.err);
    return m;
  }
  // The root in use (cubic falls back to linear_spline when not monotone).
  Root RootKind() const { return root_; }

  Status Build(const K* keys, size_t n, const uint32_t*) override {
    detail::BuildClock clock;
    if (n >= (uint64_t{1} << 32)) {
      return Status::Error("rmi: leaves store 32-bit positions; n >= 2^32");
    }
    n_ = n;
    leaves_.clear();
    table_.clear();
    root_ = root_knob_ == Root::kAuto ? Root::kRadix : root_knob_;
    c_[0] = c_[1] = c_[2] = c_[3] = c_[4] = 0;
    flip_ = 0;
    radix_shift_ = 52 - static_cast<uint32_t>(root_bits_);
    radix_base_ = 0;
    if (n > 0) {
      first_ = keys[0];
      last_ = keys[n - 1];
      size_t num = leaves_knob_ ? leaves_knob_ : std::max<size_t>(1, n / 64);
      FitRoot(keys, n, static_cast<double>(num));
      leaves_.resize(num);
      Train(keys, n);
    }
    detail::ShrinkToFit(&leaves_);
    detail::ShrinkToFit(&table_);
    stats_ = BuildStats{n, leaves_.size(), 2, 0};
    stats_.build_seconds = clock.Seconds();
    return Status::OK();
  }

  Bound Search(K q) const override {
    if (n_ == 0 || q <= first_) return Bound{0, 0, 0};
    if (q > last_) return Bound{n_, n_, n_};
    size_t li = LeafOf(q);
    const Leaf& l = leaves_[li];
    int64_t p = Predict(l, NextY0(li), q);
    int64_t lo = std::max<int64_t>(p - static_cast<int64_t>(l.err), 0);
    int64_t hi = std::min<int64_t>(p + static_cast<int64_t>(l.err),
                                   static_cast<int64_t>(n_));
    return Bound{static_cast<size_t>(lo), static_cast<size_t>(p),
                 static_cast<size_t>(hi)};
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pods<uint64_t, uint32_t, uint64_t, uint64_t, K, K, uint32_t, uint32_t>(
        leaves_knob_, static_cast<uint32_t>(root_knob_), root_bits_, n_, first_,
        last_, static_cast<uint32_t>(root_), flip_);
    for (double c : c_) w.Pod<double>(c);
    w.Pods<uint32_t, uint64_t>(radix_shift_, radix_base_);
    w.Vectors(table_, leaves_);
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    uint64_t knob = 0, bits = 0, n = 0, base = 0;
    uint32_t root_knob = 0, root = 0, flip = 0, shift = 0;
    K first = 0, last = 0;
    double c[5] = {0, 0, 0, 0, 0};
    std::vector<double> table;
    std::vector<Leaf> leaves;
    BuildStats st;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) {
      s = r.Pods({"leaves knob", "root knob", "root bits", "n", "first key",
                  "last key", "root kind", "cubic orientation"},
                 &knob, &root_knob, &bits, &n, &first, &last, &root, &flip);
    }
    for (int i = 0; s.ok() && i < 5; ++i) s = r.Pod(&c[i], "root coefficients");
    if (s.ok()) s = r.Pods({"radix shift", "radix base"}, &shift, &base);
    if (s.ok()) s = r.Vectors({"radix table", "leaves"}, &table, &leaves);
    if (s.ok()) s = r.Stats(&st);
    if (s.ok()) s = r.Finish();
    if (!s.ok()) return s;
    bool bad = (n == 0) != leaves.empty() || first > last ||
               !detail::FitsSize(n) || root_knob > 4 || root > 3 ||
               bits > 10 || flip > 1 || shift != 52 - bits;
    for (double v : c) bad = bad || !(v == v);
    if (root == static_cast<uint32_t>(Root::kRadix) && n > 0) {
      bad = bad || table.size() < 2;
    }
    for (size_t i = 1; i < table.size(); ++i) {
      bad = bad || !(table[i - 1] <= table[i]);
    }
    if (bad) return detail::Reader::Corrupt("rmi header fields");
    for (size_t i = 0; i < leaves.size(); ++i) {
      if (leaves[i].y0 > n || (i > 0 && leaves[i].y0 < leaves[i - 1].y0)) {
        return detail::Reader::Corrupt("rmi leaf positions");
      }
    }
    leaves_knob_ = knob;
    root_knob_ = static_cast<Root>(root_knob);
    root_bits_ = bits;
    n_ = n;
    first_ = first;
    last_ = last;
    root_ = static_cast<Root>(root);
    flip_ = flip;
    for (int i = 0; i < 5; ++i) c_[i] = c[i];
    radix_shift_ = shift;
    radix_base_ = base;
    table_ = std::move(table);
    leaves_ = std::move(leaves);
    stats_ = st;
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) + detail::VectorBytes(leaves_) +
           detail::VectorBytes(table_);
  }
  BuildStats Stats() const override { return stats_; }

 private:
  static uint64_t Bits(double d) {
    uint64_t b;
    std::memcpy(&b, &d, sizeof b);
    return b;
  }
  static double FromBits(uint64_t b) {
    double d;
    std::memcpy(&d, &b, sizeof d);
    return d;
  }

  // The root's value in leaf units, before the floor. Each case is a chain
  // of rounding-monotone steps, so it never decreases as q grows.
  double RootValue(K q) const {
    const double d = detail::ToDouble<K>(q - first_);
    switch (root_) {
      case Root::kLinearSpline:
        return c_[1] * d;
      case Root::kLinear:
        return c_[0] + c_[1] * d;
      case Root::kCubic: {
        const double t = std::min(d * c_[4], 1.0);
        if (flip_) {
          // c_[0] - h(1 - t) with h's coefficients >= 0.
          const double u = 1.0 - t;
          return c_[0] - u * (c_[1] + u * (c_[2] + u * c_[3]));
        }
        return c_[0] + t * (c_[1] + t * (c_[2] + t * c_[3]));
      }
      case Root::kRadix: {
        // Non-negative doubles order like their bit patterns, so the bucket
        // code is monotone in d. Below the first bucket (only d = 0) the
        // offset goes negative, which still stays below table_[0].
        const uint64_t code = Bits(d) >> radix_shift_;
        const size_t last = table_.size() - 2;
        size_t b = code > radix_base_ ? code - radix_base_ : 0;
        if (b > last) b = last;
        const uint64_t edge_code = radix_base_ + b;
        const uint64_t edge = edge_code << radix_shift_;
        const double lo = FromBits(edge);
        // 1 / bucket width, a power of two: 2^(bits - exponent of lo). So
        // (d - lo) * inv is exact within the bucket (d - lo is, Sterbenz).
        const double inv = FromBits(
            (uint64_t{2046} + (52 - radix_shift_) - (edge >> 52)) << 52);
        const double v =
            table_[b] + (table_[b + 1] - table_[b]) * ((d - lo) * inv);
        return std::min(v, table_[b + 1]);
      }
      case Root::kAuto:  // resolved by Build(), never stored in root_
        break;
    }
    return 0;
  }

  size_t LeafOf(K q) const {
    double v = RootValue(q);
    size_t last = leaves_.size() - 1;
    if (!(v > 0)) return 0;
    if (v >= static_cast<double>(last)) return last;
    return static_cast<size_t>(v);
  }

  void FitRoot(const K* keys, size_t n, double num);

  // The average leaf load a key would see under the linear_spline root,
  // estimated from the radix table: bucket b's keys spread over
  // c_[1] * width(b) leaves (at least one). Within 25% of n / leaves (what
  // the radix root gives) the cheaper root wins: a shorter root chain is
  // worth more than a slightly better spread (uniform keys).
  bool LinearSplineSuffices(double span, double num, size_t n) const;

  // Least squares on t = d / span in [0, 1]. Accepted only if all of
  // c1..c3 are >= 0 (then Horner in t only adds and multiplies non-negative
  // monotone terms) or, written around t = 1 as c0 - h(1 - t), all of h's
  // are (the concave shape a heavy tail gives); either form is monotone in
  // floating point, which the leaf contract needs, not just on paper.
  bool FitCubic(const K* keys, size_t n, double scale, double span);

  // table_[b] = leaf-scaled rank of the first key at or past bucket b's
  // lower edge; one merged pass over the keys.
  void FillRadix(const K* keys, size_t n, double scale);

  uint32_t NextY0(size_t leaf) const {
    return leaf + 1 < leaves_.size() ? leaves_[leaf + 1].y0
                                     : static_cast<uint32_t>(n_);
  }

  static int64_t Predict(const Leaf& l, uint32_t hi, K q, K first) {
    double v = l.icpt + l.slope * detail::ToDouble<K>(q - first);
    if (!(v > l.y0)) return l.y0;
    if (v >= static_cast<double>(hi)) return hi;
    return static_cast<int64_t>(v);
  }
  int64_t Predict(const Leaf& l, uint32_t hi, K q) const {
    return Predict(l, hi, q, first_);
  }

  void Train(const K* keys, size_t n);

  uint64_t leaves_knob_ = 0;
  Root root_knob_ = Root::kAuto;
  uint64_t root_bits_ = 6;
  size_t n_ = 0;
  K first_ = 0, last_ = 0;
  Root root_ = Root::kRadix;  // root_knob_, or the cubic's fallback
  uint32_t flip_ = 0;         // cubic written around t = 1
  double c_[5] = {0, 0, 0, 0, 0};
  uint32_t radix_shift_ = 46;
  uint64_t radix_base_ = 0;
  std::vector<double> table_;  // radix: bucket edges in leaf units
  std::vector<Leaf> leaves_;
  BuildStats stats_;
};

// The same index under its own id (registry.h `rmi-sized`): the engine
// sizes its leaves to hold the position boundary, where `rmi` keeps the
// second-level size it is given, as the EDBT study's RMI does. Its own id
// keeps each one's stored models to itself.
template <typename K>
class SizedRmiIndex final : public RmiIndex<K> {
 public:
  std::string_view Id() const override { return "rmi-sized"; }
};

}  // namespace lidx

#include "lidx/detail/rmi_train.h"

#endif  // LIDX_RMI_H_

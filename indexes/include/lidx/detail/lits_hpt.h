// The global string model of lits.h: the Hash-enhanced Prefix Table (HPT)
// of LITS (Yang and Chen, VLDB 2024). Row (position hash, previous-byte hash)
// holds, for the next byte c, cdf(c) and p(c) = cdf(c + 1) - cdf(c); a
// string's estimate is sum_i scale_i * cdf_i(c_i), scale_{i+1} = scale_i *
// p_i(c_i), evaluated in fixed point (cdf in 2^-31 units, a 62-bit scale,
// truncating) so that it is exactly monotone in bytewise order (lits.h's
// header says why that matters). Also the key statistics lits' build uses
// (Lcp, Gpkl).
#ifndef LIDX_DETAIL_LITS_HPT_H_
#define LIDX_DETAIL_LITS_HPT_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"

namespace lidx {
namespace detail {

inline size_t Lcp(std::string_view a, std::string_view b) {
  const size_t l = std::min(a.size(), b.size());
  size_t i = 0;
  while (i < l && a[i] == b[i]) ++i;
  return i;
}

// LITS's group partial key length: mean distinguishing prefix length of
// the group's keys (against their neighbours inside the group) minus the
// group's common prefix.
inline double Gpkl(const std::vector<uint32_t>& lcp, size_t lo, size_t hi,
                   size_t depth) {
  double sum = 0;
  for (size_t r = lo; r < hi; ++r) {
    const uint32_t left = r > lo ? lcp[r] : 0;
    const uint32_t right = r + 1 < hi ? lcp[r + 1] : 0;
    sum += std::max(left, right) + 1;
  }
  return sum / static_cast<double>(hi - lo) - static_cast<double>(depth);
}

class Hpt {
 public:
  static constexpr uint64_t kScale0 = uint64_t{1} << 62;

  // Row hash widths (knobs ps_bits, fc_bits), as in LITS.
  uint64_t ps_bits = 5;
  uint64_t fc_bits = 5;

  // Trains on m distinct sorted keys, key(r) the r-th: counts the bytes of
  // each key's distinguishing prefix with the attenuation 0.5^depth.
  template <typename KeyAt>
  void Train(size_t m, const KeyAt& key) {
    const size_t rows = size_t{1} << (ps_bits + fc_bits);
    std::vector<double> w(rows * 256, 0.0);
    if (m >= 2) {
      const size_t gcpl = Lcp(key(0), key(m - 1));
      double att[256];
      att[0] = 1;
      for (int i = 1; i < 256; ++i) att[i] = att[i - 1] * 0.5;
      size_t lcp_prev = 0;
      for (size_t r = 0; r < m; ++r) {
        const std::string_view k = key(r);
        const size_t lcp_next = r + 1 < m ? Lcp(k, key(r + 1)) : 0;
        // Only the distinguishing prefix carries information about order.
        const size_t end = std::min(k.size(), std::max(lcp_prev, lcp_next) + 1);
        for (size_t b = gcpl; b < end; ++b) {
          const unsigned char prev = b ? k[b - 1] : 0;
          w[RowSlot(b, prev) * 256 + static_cast<unsigned char>(k[b])] +=
              att[std::min<size_t>(b - gcpl, 255)];
        }
        lcp_prev = lcp_next;
      }
    }
    FillRows(rows, w);
  }

  // The HPT estimate of q's bytes from `from` on, in units of 2^-62. Exactly
  // monotone in bytewise order among strings sharing q's first `from` bytes:
  // at the first differing byte both sides hold the same scale S, and the
  // smaller side's remaining terms sum to at most floor(S*cdf(c)) +
  // floor(S*p(c)) <= floor(S*cdf(c+1)), where the larger side starts.
  uint64_t Estimate(std::string_view q, size_t from, uint64_t min_scale) const {
    uint64_t s = kScale0, v = 0;
    for (size_t i = from; i < q.size() && s >= min_scale; ++i) {
      const unsigned char prev = i ? q[i - 1] : 0;
      const uint16_t row = row_of_[RowSlot(i, prev)];
      if (row == kNoRow) break;
      const uint32_t* c = &cdf_[size_t{row} * 257];
      const unsigned char ch = q[i];
      const uint32_t lo = c[ch], hi = c[ch + 1];
      v += static_cast<uint64_t>((static_cast<unsigned __int128>(s) * lo) >>
                                 kOneShift);
      s = static_cast<uint64_t>(
          (static_cast<unsigned __int128>(s) * (hi - lo)) >> kOneShift);
    }
    return v;
  }

  void Clear() {
    row_of_.clear();
    cdf_.clear();
  }
  void WriteTables(Writer* w) const {
    w->Vector(row_of_);
    w->Vector(cdf_);
  }
  Status ReadTables(Reader* r) {
    Status s = r->Vector(&row_of_, "hpt rows");
    if (s.ok()) s = r->Vector(&cdf_, "hpt cdf");
    return s;
  }
  // What a read-back table must hold for Estimate() to stay in bounds and
  // monotone: one row entry per hash slot, cdfs non-decreasing to <= 1.
  bool Valid() const {
    if (ps_bits > 8 || fc_bits > 8 ||
        row_of_.size() != (size_t{1} << (ps_bits + fc_bits)) ||
        cdf_.size() % 257 != 0) {
      return false;
    }
    const size_t rows = cdf_.size() / 257;
    for (uint16_t row : row_of_) {
      if (row != kNoRow && row >= rows) return false;
    }
    for (size_t row = 0; row < rows; ++row) {
      for (int c = 0; c < 256; ++c) {
        if (cdf_[row * 257 + c] > cdf_[row * 257 + c + 1]) return false;
      }
      if (cdf_[row * 257 + 256] > kOne) return false;
    }
    return true;
  }
  size_t Bytes() const { return VectorBytes(row_of_) + VectorBytes(cdf_); }

 private:
  static constexpr uint16_t kNoRow = std::numeric_limits<uint16_t>::max();
  static constexpr uint32_t kOneShift = 31;  // cdf units: 2^-31
  static constexpr uint32_t kOne = uint32_t{1} << kOneShift;

  size_t RowSlot(size_t i, unsigned char prev) const {
    return ((i & ((size_t{1} << ps_bits) - 1)) << fc_bits) |
           (prev & ((size_t{1} << fc_bits) - 1));
  }

  // Rows from the byte weights w (256 per row); untrained rows get none.
  void FillRows(size_t rows, const std::vector<double>& w) {
    row_of_.assign(rows, kNoRow);
    for (size_t row = 0; row < rows; ++row) {
      double sum = 0;
      for (int c = 0; c < 256; ++c) sum += w[row * 256 + c];
      if (!(sum > 0) || cdf_.size() / 257 >= kNoRow) continue;
      row_of_[row] = static_cast<uint16_t>(cdf_.size() / 257);
      double cum = 0;
      for (int c = 0; c < 256; ++c) {
        cdf_.push_back(static_cast<uint32_t>(
            std::min<double>(kOne, std::floor(cum / sum * kOne))));
        cum += w[row * 256 + c];
      }
      cdf_.push_back(kOne);
    }
    ShrinkToFit(&row_of_);
    ShrinkToFit(&cdf_);
  }


  std::vector<uint16_t> row_of_;  // (position, prev byte) -> row
  std::vector<uint32_t> cdf_;     // 257 per trained row, kOne at the end
};

}  // namespace detail
}  // namespace lidx

#endif  // LIDX_DETAIL_LITS_HPT_H_

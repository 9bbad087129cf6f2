// key_map: byte-string keys -> integer keys for the integer indexes.
//
// MapKey<K>(s) reads the first sizeof(K) bytes of s big-endian, padding short
// strings with zero bytes. It preserves order (s <= t bytewise, unsigned,
// implies MapKey(s) <= MapKey(t)) but is not injective: strings sharing the
// prefix, and "ab" vs "ab\0", map to the same integer, which the indexes see
// as duplicates. Use K = uint64_t when keys differ within 8 bytes, K = u128
// when they need 16.
//
// Finding a string's position: build the index over mapped[i] =
// MapKey(strings[i]). For a query string q with m = MapKey(q), every string
// whose mapped value is < m is < q and every one whose value is > m is > q, so
// q's lower_bound among the strings lies between lower_bound(mapped, m) and
// upper_bound(mapped, m) = lower_bound(mapped, m + 1). StringBound() below
// returns that range widened by the index's error: lo from Search(m), hi from
// Search(m + 1) (n when m is the largest K). The caller finishes with a binary
// search over the strings themselves in [lo, hi].
//
// Usage:
//   std::vector<uint64_t> mapped;
//   for (auto& s : strings) mapped.push_back(lidx::MapKey<uint64_t>(s));
//   idx->Build(mapped.data(), mapped.size(), nullptr);
//   lidx::Bound b = lidx::StringBound(*idx, mapped.size(), query);
//   auto it = std::lower_bound(strings.begin() + b.lo, strings.begin() + b.hi,
//                              query);
#ifndef LIDX_KEY_MAP_H_
#define LIDX_KEY_MAP_H_

#include <cstdint>
#include <limits>
#include <string_view>

#include "lidx/index.h"

namespace lidx {

template <typename K>
K MapKey(std::string_view s) {
  K v = 0;
  for (size_t i = 0; i < sizeof(K); ++i) {
    v <<= 8;
    if (i < s.size()) v |= static_cast<unsigned char>(s[i]);
  }
  return v;
}

// lo <= (position of the first string >= query) <= hi, given an index built
// over MapKey() of n sorted strings. pos is the prediction for the prefix.
template <typename K>
Bound StringBound(const Index<K>& idx, size_t n, std::string_view query) {
  K m = MapKey<K>(query);
  Bound lo = idx.Search(m);
  Bound b;
  b.lo = lo.lo;
  b.pos = lo.pos;
  // ~K(0), not numeric_limits: the latter is 0 for __int128 outside gnu++.
  b.hi = m == static_cast<K>(~K(0)) ? n : idx.Search(m + 1).hi;
  if (b.hi < b.pos) b.hi = b.pos;  // cannot happen for a contract-keeping index
  return b;
}

}  // namespace lidx

#endif  // LIDX_KEY_MAP_H_

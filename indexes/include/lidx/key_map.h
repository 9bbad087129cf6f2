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
// MapDecimalKey(s) reads s's first 19 bytes as decimal digits (10^19 - 1 <
// 2^64), as LearnedIndexInLSM maps its keys (adgMod::SliceToInteger,
// mod/util.cpp: the decimal value of the key's digits): zero-padded decimal
// keys then spread as their numbers do, where their bytes, 10 of 256 values
// each, would map to a staircase no linear model follows. It preserves order
// for any bytes, digits or not: a string that ends, or a byte below '0', fills
// the remaining places with 0, a byte above '9' with 9. ChooseKeyMap() picks
// it for keys made only of digits; a table stores which map it used.
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

enum class KeyMap : uint8_t { kBytes = 0, kDecimal = 1 };

inline uint64_t MapDecimalKey(std::string_view s) {
  constexpr size_t kDigits = 19;
  uint64_t v = 0;
  int fill = -1;  // once s has no digit left for a place: 0 or 9 for the rest
  for (size_t i = 0; i < kDigits; ++i) {
    int d = fill;
    if (fill < 0) {
      const int c = i < s.size() ? static_cast<unsigned char>(s[i]) : -1;
      if (c < '0') {
        d = fill = 0;
      } else if (c > '9') {
        d = fill = 9;
      } else {
        d = c - '0';
      }
    }
    v = v * 10 + static_cast<uint64_t>(d);
  }
  return v;
}

inline uint64_t MapKey(KeyMap map, std::string_view s) {
  return map == KeyMap::kDecimal ? MapDecimalKey(s) : MapKey<uint64_t>(s);
}

// kDecimal when every key is made of digits only (and there is one), else
// kBytes. Keys: a range of what converts to std::string_view.
template <typename Keys>
KeyMap ChooseKeyMap(const Keys& keys) {
  bool any = false;
  for (const auto& k : keys) {
    for (char c : std::string_view(k)) {
      if (c < '0' || c > '9') return KeyMap::kBytes;
    }
    any = true;
  }
  return any ? KeyMap::kDecimal : KeyMap::kBytes;
}

// lo <= (position of the first string >= query) <= hi, given an index built
// over MapKey() of n sorted strings. pos is the prediction for the prefix.
template <typename K>
Bound MappedStringBound(const Index<K>& idx, size_t n, K m) {
  Bound lo = idx.Search(m);
  Bound b;
  b.lo = lo.lo;
  b.pos = lo.pos;
  // ~K(0), not numeric_limits: the latter is 0 for __int128 outside gnu++.
  b.hi = m == static_cast<K>(~K(0)) ? n : idx.Search(m + 1).hi;
  if (b.hi < b.pos) b.hi = b.pos;  // cannot happen for a contract-keeping index
  return b;
}

template <typename K>
Bound StringBound(const Index<K>& idx, size_t n, std::string_view query) {
  return MappedStringBound<K>(idx, n, MapKey<K>(query));
}

// The same for an index built over MapKey(map, ...) of the strings.
inline Bound StringBound(const Index<uint64_t>& idx, size_t n, std::string_view query,
                         KeyMap map) {
  return MappedStringBound<uint64_t>(idx, n, MapKey(map, query));
}

}  // namespace lidx

#endif  // LIDX_KEY_MAP_H_

#include "gen/lookups.h"

#include <algorithm>

#include "ycsb/random.h"

namespace gen {

bool MakeLookups(const Keys& keys, uint64_t count, double negative_share, uint64_t seed,
                 Keys* out, std::string* err) {
  if (keys.empty()) {
    *err = "keys: expected at least one key";
    return false;
  }
  if (!(negative_share >= 0 && negative_share <= 1)) {
    *err = "negative_share: expected a number in [0, 1]";
    return false;
  }
  Keys distinct(keys);
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  ycsb::Random64 r(seed);
  uint64_t negatives = static_cast<uint64_t>(static_cast<double>(count) * negative_share + 0.5);
  uint64_t lo = distinct.front(), hi = distinct.back();
  bool dense = hi - lo + 1 == distinct.size();
  if (negatives > 0 && dense && lo == 0 && hi == ~0ULL) {
    *err = "keys: no absent key exists for negative lookups (they fill the key space)";
    return false;
  }
  // A dense range takes its absent keys from above it, or from below it when
  // it ends at 2^64-1.
  bool below = dense && hi == ~0ULL;
  out->clear();
  out->reserve(count);
  for (uint64_t i = 0; i < count - negatives; i++) out->push_back(distinct[r.Uniform(distinct.size())]);
  for (uint64_t i = 0; i < negatives; i++) {
    uint64_t k;
    if (below) {
      k = lo - 1 - r.Uniform(std::min<uint64_t>(lo, distinct.size()));
    } else if (dense) {
      k = hi + 1 + r.Uniform(std::min<uint64_t>(~0ULL - hi, distinct.size()));
    } else {
      uint64_t span = hi - lo;
      do {
        k = span == ~0ULL ? r.Next() : lo + r.Uniform(span + 1);
      } while (std::binary_search(distinct.begin(), distinct.end(), k));
    }
    out->push_back(k);
  }
  for (uint64_t i = out->size(); i > 1; i--) std::swap((*out)[i - 1], (*out)[r.Uniform(i)]);
  return true;
}

Keys EveryKth(const Keys& keys, uint64_t step) {
  Keys out;
  out.reserve(keys.size() / step + 1);
  for (uint64_t i = 0; i < keys.size(); i += step) out.push_back(keys[i]);
  return out;
}

uint64_t DownsampleStep(uint64_t have, uint64_t want) {
  if (want == 0 || have <= want) return 1;
  return have / want;
}

}  // namespace gen

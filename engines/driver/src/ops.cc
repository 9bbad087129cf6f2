#include "ops.h"

#include <algorithm>

namespace lsmbench {

const char* OpName(OpType t) {
  switch (t) {
    case OpType::kGet:
      return "get";
    case OpType::kUpdate:
      return "update";
    case OpType::kInsert:
      return "insert";
    case OpType::kScan:
      return "scan";
    case OpType::kReadModifyWrite:
      return "rmw";
  }
  return "?";
}

Rng::Rng(uint64_t seed) {
  uint64_t z = seed;
  for (uint64_t& s : s_) {
    z += 0x9e3779b97f4a7c15ull;
    uint64_t x = z;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    s = x ^ (x >> 31);
  }
}

uint64_t Rng::Next() {
  auto rotl = [](uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
  uint64_t result = rotl(s_[1] * 5, 7) * 9;
  uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

uint64_t Rng::Below(uint64_t n) {
  unsigned __int128 m = static_cast<unsigned __int128>(Next()) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < n) {
    uint64_t threshold = -n % n;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(Next()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

double Rng::Unit() { return (Next() >> 11) * 0x1.0p-53; }

namespace {

// An absent key inside the data's range, or failing that (a dense key set)
// anywhere in the 64-bit space.
uint64_t AbsentKey(const std::vector<uint64_t>& keys, Rng* rng) {
  for (int attempt = 0; attempt < 64 && keys.size() >= 2; attempt++) {
    size_t i = rng->Below(keys.size() - 1);
    uint64_t gap = keys[i + 1] - keys[i];
    if (gap > 1) return keys[i] + 1 + rng->Below(gap - 1);
  }
  for (;;) {
    uint64_t k = rng->Next();
    if (!std::binary_search(keys.begin(), keys.end(), k)) return k;
  }
}

}  // namespace

std::vector<Op> PointLookups(const std::vector<uint64_t>& keys, uint64_t count,
                             double negative_share, uint64_t seed) {
  Rng rng(seed);
  std::vector<Op> ops;
  ops.reserve(count);
  for (uint64_t i = 0; i < count; i++) {
    bool negative = keys.empty() || rng.Unit() < negative_share;
    if (negative) {
      ops.push_back({OpType::kGet, Expect::kAbsent, 0, AbsentKey(keys, &rng)});
    } else {
      ops.push_back({OpType::kGet, Expect::kPresent, 0, keys[rng.Below(keys.size())]});
    }
  }
  return ops;
}

std::vector<Op> EdgeProbes(const std::vector<uint64_t>& keys) {
  std::vector<uint64_t> at = {0, 1, UINT64_MAX - 1, UINT64_MAX};
  if (!keys.empty()) {
    for (uint64_t k : {keys.front(), keys.back()}) {
      at.push_back(k);
      if (k > 0) at.push_back(k - 1);
      if (k < UINT64_MAX) at.push_back(k + 1);
    }
  }
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  std::vector<Op> ops;
  for (uint64_t k : at) {
    ops.push_back({OpType::kGet, Expect::kUnknown, 0, k});
    ops.push_back({OpType::kScan, Expect::kUnknown, 3, k});
  }
  return ops;
}

void Shuffle(std::vector<uint64_t>* v, uint64_t seed) {
  Rng rng(seed);
  for (size_t i = v->size(); i > 1; i--) {
    std::swap((*v)[i - 1], (*v)[rng.Below(i)]);
  }
}

}  // namespace lsmbench

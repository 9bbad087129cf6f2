#include "ops.h"

#include <algorithm>

#include "gen/lookups.h"

namespace lsmbench {

const char* OpName(OpType t) {
  // In OpType's order; the names the log's latency records use.
  static constexpr const char* kNames[kOpTypes] = {"get", "update", "insert", "scan", "rmw", "delete"};
  return kNames[static_cast<int>(t)];
}

namespace {

// An absent key inside the data's range, or failing that (a dense key set)
// anywhere in the 64-bit space.
uint64_t AbsentKey(const std::vector<uint64_t>& keys, Rng* rng) {
  for (int attempt = 0; attempt < 64 && keys.size() >= 2; attempt++) {
    size_t i = rng->Uniform(keys.size() - 1);
    uint64_t gap = keys[i + 1] - keys[i];
    if (gap > 1) return keys[i] + 1 + rng->Uniform(gap - 1);
  }
  for (;;) {
    uint64_t k = rng->Next();
    if (!std::binary_search(keys.begin(), keys.end(), k)) return k;
  }
}

}  // namespace

bool PointLookups(const std::vector<uint64_t>& keys, uint64_t count, double negative_share,
                  uint64_t seed, std::vector<Op>* out, std::string* err) {
  gen::Keys lookups;
  if (!gen::MakeLookups(keys, count, negative_share, seed, &lookups, err)) return false;
  // Each lookup's expected answer, from the keys themselves: the lookups in
  // key order, each found by a galloping search from the one before (a
  // binary search per lookup over millions of keys misses the cache at
  // nearly every level).
  std::vector<std::pair<uint64_t, size_t>> by_key(lookups.size());
  for (size_t i = 0; i < lookups.size(); i++) by_key[i] = {lookups[i], i};
  std::sort(by_key.begin(), by_key.end());
  std::vector<bool> present(lookups.size());
  const size_t n = keys.size();
  size_t pos = 0;  // keys[pos - 1] < every key still to look up
  for (const auto& [k, i] : by_key) {
    size_t lo = pos, step = 1;
    while (lo + step < n && keys[lo + step] < k) {
      lo += step;
      step *= 2;
    }
    pos = std::lower_bound(keys.begin() + lo, keys.begin() + std::min(lo + step + 1, n), k) -
          keys.begin();
    present[i] = pos < n && keys[pos] == k;
  }
  out->clear();
  out->reserve(lookups.size());
  for (size_t i = 0; i < lookups.size(); i++) {
    out->push_back({OpType::kGet, present[i] ? Expect::kPresent : Expect::kAbsent, 0, lookups[i]});
  }
  return true;
}

std::vector<Op> DiffStream(const std::vector<uint64_t>& keys, uint64_t count, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint64_t> touched;  // keys the stream wrote or deleted
  auto present_key = [&]() -> uint64_t {
    if (!touched.empty() && rng.Uniform(4) == 0) return touched[rng.Uniform(touched.size())];
    return keys.empty() ? rng.Next() : keys[rng.Uniform(keys.size())];
  };
  // Absent keys: inside gaps, next to present keys (where an off-by-one in
  // a predicted bound shows), and at the ends of the key space.
  auto probe_key = [&]() -> uint64_t {
    switch (rng.Uniform(4)) {
      case 0: {
        uint64_t k = present_key();
        return rng.Uniform(2) ? k + 1 : k - 1;  // wraps at the ends on purpose
      }
      case 1:
        return rng.Uniform(2) ? rng.Uniform(16) : UINT64_MAX - rng.Uniform(16);
      default:
        return keys.empty() ? rng.Next() : AbsentKey(keys, &rng);
    }
  };
  static constexpr uint32_t kScanLengths[] = {1, 2, 10, 100, 1000};
  std::vector<Op> ops;
  ops.reserve(count + 4);
  // The extremes of the key space are written and read back first.
  for (uint64_t k : {uint64_t{0}, UINT64_MAX}) {
    ops.push_back({OpType::kInsert, Expect::kUnknown, 0, k});
    touched.push_back(k);
  }
  while (ops.size() < count) {
    uint64_t roll = rng.Uniform(100);
    if (roll < 30) {
      ops.push_back({OpType::kGet, Expect::kUnknown, 0, present_key()});
    } else if (roll < 45) {
      ops.push_back({OpType::kGet, Expect::kUnknown, 0, probe_key()});
    } else if (roll < 57) {
      uint64_t k = present_key();
      ops.push_back({OpType::kUpdate, Expect::kUnknown, 0, k});
      touched.push_back(k);
    } else if (roll < 65) {
      uint64_t k = probe_key();
      ops.push_back({OpType::kInsert, Expect::kUnknown, 0, k});
      touched.push_back(k);
    } else if (roll < 75) {
      uint64_t k = rng.Uniform(5) == 0 ? probe_key() : present_key();
      ops.push_back({OpType::kDelete, Expect::kUnknown, 0, k});
      touched.push_back(k);
    } else {
      uint64_t k = rng.Uniform(3) == 0 ? probe_key() : present_key();
      ops.push_back({OpType::kScan, Expect::kUnknown, kScanLengths[rng.Uniform(5)], k});
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
    std::swap((*v)[i - 1], (*v)[rng.Uniform(i)]);
  }
}

}  // namespace lsmbench

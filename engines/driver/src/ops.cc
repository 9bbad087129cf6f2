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

std::vector<Op> PointLookups(const std::vector<uint64_t>& keys, uint64_t count,
                             double negative_share, uint64_t seed) {
  Rng rng(seed);
  std::vector<Op> ops;
  ops.reserve(count);
  for (uint64_t i = 0; i < count; i++) {
    bool negative = keys.empty() || rng.NextDouble() < negative_share;
    if (negative) {
      ops.push_back({OpType::kGet, Expect::kAbsent, 0, AbsentKey(keys, &rng)});
    } else {
      ops.push_back({OpType::kGet, Expect::kPresent, 0, keys[rng.Uniform(keys.size())]});
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

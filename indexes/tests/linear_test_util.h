// Datasets and the bound check shared by slr_test.cc and pla_test.cc.
// Every dataset is generated from a seed that failing tests print.
#ifndef LIDX_TESTS_LINEAR_TEST_UTIL_H_
#define LIDX_TESTS_LINEAR_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "lidx/index.h"

namespace lidx {
namespace testing_util {

struct Dataset {
  std::string name;
  uint64_t seed;
  std::vector<uint64_t> keys;
};

inline std::vector<Dataset> Datasets(size_t n, uint64_t seed) {
  std::vector<Dataset> out;
  std::mt19937_64 rng(seed);
  auto add = [&](std::string name, std::vector<uint64_t> k) {
    std::sort(k.begin(), k.end());
    out.push_back({std::move(name), seed, std::move(k)});
  };
  std::vector<uint64_t> k;
  for (size_t i = 0; i < n; ++i) k.push_back(rng());
  add("uniform", k);
  k.clear();
  for (size_t i = 0; i < n; ++i) k.push_back(1000 + i);
  add("dense", k);
  k.clear();
  std::lognormal_distribution<double> ln(0, 2);
  for (size_t i = 0; i < n; ++i) {
    k.push_back(static_cast<uint64_t>(std::min(ln(rng) * 1e9, 1.8e19)));
  }
  add("lognormal", k);
  k.clear();
  for (size_t i = 0; i < n; ++i) {
    // 16 tight clusters spread over the key space, plus gaps.
    k.push_back((rng() % 16) * (uint64_t{1} << 59) + rng() % 4096);
  }
  add("clustered", k);
  k.clear();
  for (size_t i = 0; i < n; ++i) k.push_back(rng() % std::max<size_t>(1, n / 50));
  add("duplicates", k);
  k.clear();
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = rng() % 4;
    k.push_back(r == 0 ? 0 : r == 1 ? ~uint64_t{0} : rng());
  }
  add("extremes", k);
  k.assign(n, 42);
  add("all-equal", k);
  return out;
}

// Queries: every key, its neighbours, random values and the extremes.
template <typename K>
std::vector<K> Queries(const std::vector<K>& keys, uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  std::vector<K> q = {K{0}, K{1}, ~K{0}, static_cast<K>(~K{0} - 1)};
  for (K k : keys) {
    q.push_back(k);
    q.push_back(k - 1);  // wraps at 0 on purpose: that is ~0
    q.push_back(k + 1);
  }
  for (size_t i = 0; i < keys.size() + 100; ++i) {
    K r = static_cast<K>(rng());
    if (sizeof(K) > 8) r = (r << 64) | static_cast<K>(rng());
    q.push_back(r);
  }
  return q;
}

// The contract of index.h for every query; returns the number of failures
// (capped reporting) so a broken index does not print a million lines.
template <typename K>
size_t CheckBounds(const Index<K>& idx, const std::vector<K>& keys,
                   const std::vector<K>& queries) {
  size_t failures = 0;
  for (K q : queries) {
    const size_t want =
        std::lower_bound(keys.begin(), keys.end(), q) - keys.begin();
    const Bound b = idx.Search(q);
    const bool ok = b.lo <= b.pos && b.pos <= b.hi && b.hi <= keys.size() &&
                    b.lo <= want && want <= b.hi &&
                    LastMile(keys.data(), b, q, LastMileKind::kBinary) == want &&
                    LastMile(keys.data(), b, q, LastMileKind::kExponential) ==
                        want &&
                    LastMile(keys.data(), b, q, LastMileKind::kLinear) == want;
    if (!ok && ++failures <= 5) {
      ADD_FAILURE() << idx.Id() << ": q=" << static_cast<uint64_t>(q >> (sizeof(K) > 8 ? 64 : 0))
                    << ":" << static_cast<uint64_t>(q) << " lower_bound=" << want
                    << " got [" << b.lo << "," << b.pos << "," << b.hi
                    << "] n=" << keys.size();
    }
  }
  return failures;
}

inline std::vector<unsigned __int128> Widen(const std::vector<uint64_t>& k,
                                            uint64_t seed) {
  // High half from the key, low half random but sorted within equal highs:
  // exercises keys that differ only below double precision.
  std::mt19937_64 rng(seed);
  std::vector<unsigned __int128> w;
  for (uint64_t x : k) {
    w.push_back((static_cast<unsigned __int128>(x) << 64) | (rng() % 1000));
  }
  std::sort(w.begin(), w.end());
  return w;
}

}  // namespace testing_util
}  // namespace lidx

#endif  // LIDX_TESTS_LINEAR_TEST_UTIL_H_

// Deterministic test datasets. Every generator is a pure function of
// (name, n, seed), so a failure's printed seed replays it exactly.
#ifndef LIDX_TESTS_DATASETS_H_
#define LIDX_TESTS_DATASETS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "lidx/index.h"
#include "lidx/key_map.h"

namespace lidx_test {

// The base seed: LIDX_TEST_SEED in the environment, else 42.
inline uint64_t BaseSeed() {
  const char* s = std::getenv("LIDX_TEST_SEED");
  return s ? std::strtoull(s, nullptr, 10) : 42;
}

inline uint64_t Mix(uint64_t a, const std::string& b) {
  uint64_t h = a ^ 0x9e3779b97f4a7c15ULL;
  for (char c : b) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

struct Dataset {
  std::string name;
  size_t n;
};

// The property-test matrix. Sizes stay small: big sizes belong to the bench.
inline std::vector<Dataset> TestDatasets() {
  return {{"empty", 0},          {"one", 1},           {"two", 2},
          {"two_equal", 2},      {"uniform", 20000},   {"dense", 20000},
          {"lognormal", 20000},  {"lognormal", 150000}, {"clustered", 20000},
          {"duplicates", 20000}, {"extremes", 5000},   {"all_equal", 3000},
          {"str_prefix8", 8000}, {"str_prefix16", 8000}};
}

// Strings sharing a 12-byte prefix, with a varying tail; sorted.
inline std::vector<std::string> PrefixStrings(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> out;
  const char* prefixes[] = {"user:profile", "user:profilf", "zzzz"};
  for (size_t i = 0; i < n; ++i) {
    std::string s = prefixes[rng() % 3];
    size_t len = rng() % 12;
    for (size_t j = 0; j < len; ++j) s.push_back(static_cast<char>(rng() % 4 ? 'a' + rng() % 3 : rng() % 256));
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Keys for `name`, sorted ascending, duplicates allowed.
template <typename K>
std::vector<K> MakeKeys(const std::string& name, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<K> k;
  k.reserve(n);
  const uint64_t kMax = ~uint64_t{0};
  if (name == "empty" || name == "one" || name == "two") {
    for (size_t i = 0; i < n; ++i) k.push_back(static_cast<K>(rng() >> 1));
  } else if (name == "two_equal") {
    K v = static_cast<K>(rng());
    k.assign(n, v);
  } else if (name == "uniform") {
    for (size_t i = 0; i < n; ++i) k.push_back(static_cast<K>(rng()));
  } else if (name == "dense") {
    uint64_t start = rng() >> 8;
    for (size_t i = 0; i < n; ++i) k.push_back(static_cast<K>(start + i));
  } else if (name == "lognormal") {
    std::lognormal_distribution<double> d(0.0, 2.0);
    for (size_t i = 0; i < n; ++i) {
      double v = d(rng) * 1e9;
      k.push_back(static_cast<K>(v >= 1.8e19 ? kMax : static_cast<uint64_t>(v)));
    }
  } else if (name == "clustered") {
    // Dense-ish runs separated by gaps of up to 2^50.
    uint64_t cur = rng() >> 20;
    for (size_t i = 0; i < n; ++i) {
      if (rng() % 500 == 0) cur += (rng() >> 14) + 1;
      cur += 1 + rng() % 4;
      k.push_back(static_cast<K>(cur));
    }
  } else if (name == "duplicates") {
    // Few distinct values, some with runs of thousands.
    for (size_t i = 0; i < n; ++i) {
      uint64_t v = rng() % (n / 50 + 1);
      if (rng() % 4 == 0) v = 7;  // one giant run
      k.push_back(static_cast<K>(v * 1000003));
    }
  } else if (name == "extremes") {
    for (size_t i = 0; i < n; ++i) {
      uint64_t r = rng();
      switch (r % 8) {
        case 0: k.push_back(0); break;
        case 1: k.push_back(static_cast<K>(kMax)); break;
        case 2: k.push_back(static_cast<K>(kMax - rng() % 100)); break;
        case 3: k.push_back(static_cast<K>(rng() % 100)); break;
        default: k.push_back(static_cast<K>(rng())); break;
      }
    }
  } else if (name == "all_equal") {
    k.assign(n, static_cast<K>(12345));
  } else if (name == "str_prefix8" || name == "str_prefix16") {
    for (const std::string& s : PrefixStrings(n, seed)) {
      if (name == "str_prefix8") {
        k.push_back(static_cast<K>(lidx::MapKey<uint64_t>(s)));
      } else {
        // A u64 index sees the top 8 of the 16 bytes; a u128 index all 16.
        lidx::u128 v = lidx::MapKey<lidx::u128>(s);
        k.push_back(sizeof(K) == 16 ? static_cast<K>(v)
                                    : static_cast<K>(v >> 64));
      }
    }
  } else {
    std::abort();
  }
  std::sort(k.begin(), k.end());
  return k;
}

}  // namespace lidx_test

#endif  // LIDX_TESTS_DATASETS_H_

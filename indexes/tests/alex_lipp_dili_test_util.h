// Key sets and checks shared by alex_test.cc, lipp_test.cc and dili_test.cc.
// Every key set is a function of a seed, and every failure message prints the
// seed and the first mismatching query, so a failure can be replayed.
#ifndef LIDX_TESTS_ALEX_LIPP_DILI_TEST_UTIL_H_
#define LIDX_TESTS_ALEX_LIPP_DILI_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "alloc_counter.h"
#include "lidx/index.h"

namespace exact_test {

using lidx::u128;

enum class Dist { kUniform, kDense, kLognormal, kClustered, kDuplicates, kExtremes };

inline const char* DistName(Dist d) {
  switch (d) {
    case Dist::kUniform: return "uniform";
    case Dist::kDense: return "dense";
    case Dist::kLognormal: return "lognormal";
    case Dist::kClustered: return "clustered";
    case Dist::kDuplicates: return "duplicates";
    case Dist::kExtremes: return "extremes";
  }
  return "?";
}

inline constexpr Dist kAllDists[] = {Dist::kUniform,    Dist::kDense,
                                     Dist::kLognormal,  Dist::kClustered,
                                     Dist::kDuplicates, Dist::kExtremes};

// n sorted uint64 keys of the given shape.
inline std::vector<uint64_t> MakeKeys(Dist d, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> k(n);
  const uint64_t kMax = std::numeric_limits<uint64_t>::max();
  switch (d) {
    case Dist::kUniform:
      for (auto& x : k) x = rng();
      break;
    case Dist::kDense: {
      uint64_t start = rng() >> 8;
      for (size_t i = 0; i < n; ++i) k[i] = start + i;
      break;
    }
    case Dist::kLognormal: {
      std::lognormal_distribution<double> ln(0, 2);
      for (auto& x : k) x = static_cast<uint64_t>(std::min(ln(rng) * 1e9, 1.8e19));
      break;
    }
    case Dist::kClustered: {
      // Tight runs separated by gaps of ~2^50: models see steps, not lines.
      uint64_t base = rng() >> 20;
      for (size_t i = 0; i < n; ++i) {
        if (i % 97 == 0) base += (rng() >> 14) + 1;
        base += 1 + rng() % 4;
        k[i] = base;
      }
      break;
    }
    case Dist::kDuplicates:
      for (auto& x : k) x = rng() % (n / 8 + 1) * 1000;
      break;
    case Dist::kExtremes:
      // Mass at both ends of the key space, including 0 and 2^64-1.
      for (size_t i = 0; i < n; ++i) {
        uint64_t r = rng() % (n + 1);
        k[i] = i % 2 ? kMax - r : r;
      }
      if (n > 0) k[0] = 0;
      if (n > 1) k[1] = kMax;
      break;
  }
  std::sort(k.begin(), k.end());
  return k;
}

// u128 keys: the uint64 shape shifted high, with low-word noise, so models
// must cope with differences far beyond double precision.
inline std::vector<u128> MakeWideKeys(Dist d, size_t n, uint64_t seed) {
  std::vector<uint64_t> hi = MakeKeys(d, n, seed);
  std::mt19937_64 rng(seed ^ 0x5eed);
  std::vector<u128> k(n);
  for (size_t i = 0; i < n; ++i) {
    k[i] = (static_cast<u128>(hi[i]) << 64) | (i % 3 == 0 ? 0 : rng());
  }
  std::sort(k.begin(), k.end());
  return k;
}

// Every key, its neighbours, random keys and the ends of the key space.
template <typename K>
std::vector<K> MakeQueries(const std::vector<K>& keys, uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ULL);
  std::vector<K> q = {K(0), K(1), static_cast<K>(~K(0)), static_cast<K>(~K(0) - 1)};
  for (K k : keys) {
    q.push_back(k);
    q.push_back(k + 1);
    q.push_back(k - 1);
  }
  for (size_t i = 0; i < keys.size() + 100; ++i) {
    K r = static_cast<K>(rng());
    if constexpr (sizeof(K) > 8) r = (r << 64) | rng();
    q.push_back(r);
  }
  return q;
}

// Search(q) must be exact: lo == pos == hi == std::lower_bound's position.
template <typename K>
::testing::AssertionResult AnswersExactly(const lidx::Index<K>& idx,
                                          const std::vector<K>& keys,
                                          const std::vector<K>& queries,
                                          const std::string& what) {
  size_t bad = 0;
  std::string first;
  for (K q : queries) {
    size_t want = std::lower_bound(keys.begin(), keys.end(), q) - keys.begin();
    lidx::Bound b = idx.Search(q);
    if (b.lo != want || b.pos != want || b.hi != want) {
      if (bad++ == 0) {
        first = "q=" + std::to_string(static_cast<uint64_t>(q >> (sizeof(K) * 8 - 64))) +
                ":" + std::to_string(static_cast<uint64_t>(q)) + " want " +
                std::to_string(want) + " got [" + std::to_string(b.lo) + "," +
                std::to_string(b.pos) + "," + std::to_string(b.hi) + "]";
      }
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << what << ": " << bad << " of " << queries.size()
         << " queries wrong; first " << first;
}

// What the index under test holds per the allocator, after Build().
template <typename Make>
void ExpectMemoryMatchesAllocator(Make make, const std::string& what) {
  size_t before = lidx_test::LiveHeapBytes();
  auto idx = make();
  size_t after = lidx_test::LiveHeapBytes();
  ASSERT_NE(idx, nullptr) << what;
  EXPECT_EQ(idx->MemoryBytes(), after - before) << what;
}


// Builds Idx<K> with `opts` over `keys`; fails the test on a bad Status.
template <template <typename> class Idx, typename K>
std::unique_ptr<Idx<K>> BuildOrFail(const std::vector<K>& keys,
                                    const lidx::Options& opts,
                                    const std::string& what) {
  auto idx = std::make_unique<Idx<K>>();
  lidx::Status s = idx->Configure(opts);
  EXPECT_TRUE(s.ok()) << what << ": " << s.message();
  s = idx->Build(keys.data(), keys.size(), nullptr);
  EXPECT_TRUE(s.ok()) << what << ": " << s.message();
  if (!s.ok()) return nullptr;
  return idx;
}

inline constexpr size_t kSizes[] = {0, 1, 2, 3, 4, 7, 64, 1000, 30000};

// Exactness over every shape and size, three seeds each.
template <template <typename> class Idx>
void CheckAllShapes(const lidx::Options& opts) {
  for (Dist d : kAllDists) {
    for (size_t n : kSizes) {
      for (uint64_t seed = 1; seed <= 3; ++seed) {
        std::string what = std::string(DistName(d)) + " n=" +
                           std::to_string(n) + " seed=" + std::to_string(seed);
        auto keys = MakeKeys(d, n, seed);
        auto idx = BuildOrFail<Idx>(keys, opts, what);
        if (!idx) return;
        EXPECT_TRUE(idx->Exact());
        EXPECT_TRUE(AnswersExactly(*idx, keys, MakeQueries(keys, seed), what));
      }
    }
  }
}

template <template <typename> class Idx>
void CheckWideKeys(const lidx::Options& opts) {
  for (Dist d : kAllDists) {
    for (size_t n : {size_t{0}, size_t{2}, size_t{5000}}) {
      uint64_t seed = 7;
      std::string what = std::string("u128 ") + DistName(d) +
                         " n=" + std::to_string(n) + " seed=7";
      auto keys = MakeWideKeys(d, n, seed);
      auto idx = BuildOrFail<Idx>(keys, opts, what);
      if (!idx) return;
      EXPECT_TRUE(AnswersExactly(*idx, keys, MakeQueries(keys, seed), what));
    }
  }
}

// Serialize -> Deserialize answers identically and re-serializes to the same
// bytes; damaged input is refused with a Status.
template <template <typename> class Idx>
void CheckRoundTrip(Dist d, size_t n, uint64_t seed) {
  std::string what = std::string(DistName(d)) + " n=" + std::to_string(n) +
                     " seed=" + std::to_string(seed);
  auto keys = MakeKeys(d, n, seed);
  auto idx = BuildOrFail<Idx>(keys, {}, what);
  ASSERT_NE(idx, nullptr);
  std::string bytes;
  idx->Serialize(&bytes);
  Idx<uint64_t> copy;
  lidx::Status s = copy.Deserialize(bytes);
  ASSERT_TRUE(s.ok()) << what << ": " << s.message();
  auto queries = MakeQueries(keys, seed);
  for (uint64_t q : queries) {
    lidx::Bound a = idx->Search(q), b = copy.Search(q);
    ASSERT_EQ(a.pos, b.pos) << what << " q=" << q;
  }
  std::string again;
  copy.Serialize(&again);
  EXPECT_TRUE(again == bytes) << what;
  EXPECT_EQ(copy.Stats().segments, idx->Stats().segments);
  EXPECT_FALSE(copy.Deserialize(std::string_view(bytes).substr(0, bytes.size() / 2)).ok());
  EXPECT_FALSE(copy.Deserialize(bytes + "x").ok());
  std::string other = bytes;
  other[5] ^= 1;  // first byte of the id
  EXPECT_FALSE(copy.Deserialize(other).ok());
  // Refused input leaves the previous index intact.
  EXPECT_TRUE(AnswersExactly(copy, keys, queries, what + " after refusals"));
}

template <template <typename> class Idx>
void CheckMemory(Dist d, size_t n, uint64_t seed) {
  auto keys = MakeKeys(d, n, seed);
  std::string what = std::string(DistName(d)) + " n=" + std::to_string(n) +
                     " seed=" + std::to_string(seed);
  ExpectMemoryMatchesAllocator(
      [&] { return BuildOrFail<Idx>(keys, {}, what); }, what);
}

template <template <typename> class Idx>
void CheckRejectsBadKnobs() {
  Idx<uint64_t> idx;
  lidx::Status s = idx.Configure({{"epsilon", "4"}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("epsilon"), std::string::npos) << s.message();
  EXPECT_FALSE(idx.Configure({{"max_depth", "zero"}}).ok());
}

template <template <typename> class Idx>
void CheckRejectsUnsortedKeys() {
  std::vector<uint64_t> keys = {1, 5, 3};
  Idx<uint64_t> idx;
  EXPECT_FALSE(idx.Build(keys.data(), keys.size(), nullptr).ok());
  EXPECT_EQ(idx.Search(4).pos, 0u);  // failed build leaves an empty index
}

// The resource guard turns an over-budget build into a Status, and the index
// stays usable (empty) afterwards. `deep` is a shape that needs more than one
// level of this index.
template <template <typename> class Idx>
void CheckGuardFailsBuildOverMemoryOrDepth(Dist deep) {
  auto keys = MakeKeys(Dist::kLognormal, 200000, 16);
  Idx<uint64_t> idx;
  ASSERT_TRUE(idx.Configure({{"max_memory_mb", "1"}}).ok());
  lidx::Status s = idx.Build(keys.data(), keys.size(), nullptr);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("max_memory_mb"), std::string::npos) << s.message();
  EXPECT_EQ(idx.Search(keys[100]).pos, 0u);
  EXPECT_LT(idx.MemoryBytes(), size_t{1} << 16);

  Idx<uint64_t> shallow;
  ASSERT_TRUE(shallow.Configure({{"max_depth", "1"}}).ok());
  auto deep_keys = MakeKeys(deep, 30000, 16);
  s = shallow.Build(deep_keys.data(), deep_keys.size(), nullptr);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("max_depth"), std::string::npos) << s.message();
}

// The contract every exact index keeps, as one typed suite: a test file
// instantiates it with ExactIndex<TheIndex, a shape it needs depth for>.
template <template <typename> class I, Dist kDeep>
struct ExactIndex {
  template <typename K>
  using Idx = I<K>;
  static constexpr Dist kDeepShape = kDeep;
};

template <typename T>
class ExactIndexContract : public ::testing::Test {};
TYPED_TEST_SUITE_P(ExactIndexContract);

TYPED_TEST_P(ExactIndexContract, ExactLowerBoundOnEveryShape) {
  CheckAllShapes<TypeParam::template Idx>({});
}

TYPED_TEST_P(ExactIndexContract, ExactOnWideKeys) {
  CheckWideKeys<TypeParam::template Idx>({});
}

TYPED_TEST_P(ExactIndexContract, SerializeRoundTrip) {
  CheckRoundTrip<TypeParam::template Idx>(Dist::kClustered, 20000, 11);
  CheckRoundTrip<TypeParam::template Idx>(Dist::kUniform, 0, 12);
}

TYPED_TEST_P(ExactIndexContract, MemoryMatchesAllocator) {
  CheckMemory<TypeParam::template Idx>(Dist::kLognormal, 50000, 13);
  CheckMemory<TypeParam::template Idx>(Dist::kDense, 1, 13);
}

TYPED_TEST_P(ExactIndexContract, RejectsUnknownKnobByName) {
  CheckRejectsBadKnobs<TypeParam::template Idx>();
}

TYPED_TEST_P(ExactIndexContract, RejectsUnsortedKeys) {
  CheckRejectsUnsortedKeys<TypeParam::template Idx>();
}

TYPED_TEST_P(ExactIndexContract, GuardFailsBuildOverMemoryOrDepth) {
  CheckGuardFailsBuildOverMemoryOrDepth<TypeParam::template Idx>(
      TypeParam::kDeepShape);
}

REGISTER_TYPED_TEST_SUITE_P(ExactIndexContract, ExactLowerBoundOnEveryShape,
                            ExactOnWideKeys, SerializeRoundTrip,
                            MemoryMatchesAllocator, RejectsUnknownKnobByName,
                            RejectsUnsortedKeys,
                            GuardFailsBuildOverMemoryOrDepth);

}  // namespace exact_test

#endif  // LIDX_TESTS_ALEX_LIPP_DILI_TEST_UTIL_H_

#include "ops.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

namespace lsmbench {

std::vector<uint64_t> Keys(size_t n, uint64_t seed) {
  Rng rng(seed);
  std::set<uint64_t> s;
  while (s.size() < n) s.insert(rng.Next() >> 8);
  return {s.begin(), s.end()};
}

TEST(Ops, SameSeedSameStream) {
  auto keys = Keys(1000, 1);
  auto a = PointLookups(keys, 5000, 0.2, 42), b = PointLookups(keys, 5000, 0.2, 42);
  auto c = PointLookups(keys, 5000, 0.2, 43);
  ASSERT_EQ(a.size(), b.size());
  bool differs = false;
  for (size_t i = 0; i < a.size(); i++) {
    ASSERT_EQ(a[i].key, b[i].key);
    differs = differs || a[i].key != c[i].key;
  }
  EXPECT_TRUE(differs);
}

TEST(Ops, ExpectationsAreTrueAndNegativesInRange) {
  auto keys = Keys(2000, 2);
  auto ops = PointLookups(keys, 20000, 0.3, 5);
  size_t negatives = 0;
  for (const Op& op : ops) {
    bool present = std::binary_search(keys.begin(), keys.end(), op.key);
    ASSERT_EQ(present, op.expect == Expect::kPresent) << op.key;
    if (!present) {
      negatives++;
      EXPECT_GT(op.key, keys.front());
      EXPECT_LT(op.key, keys.back());
    }
  }
  EXPECT_NEAR(negatives / 20000.0, 0.3, 0.02);
}

TEST(Ops, DenseKeysStillGetAbsentNegatives) {
  std::vector<uint64_t> keys;
  for (uint64_t k = 0; k < 100; k++) keys.push_back(k);
  for (const Op& op : PointLookups(keys, 1000, 1.0, 9)) {
    EXPECT_FALSE(std::binary_search(keys.begin(), keys.end(), op.key));
  }
}

TEST(Ops, ShuffleIsAPermutation) {
  auto keys = Keys(1000, 3), shuffled = keys;
  Shuffle(&shuffled, 1);
  EXPECT_NE(keys, shuffled);
  std::sort(shuffled.begin(), shuffled.end());
  EXPECT_EQ(keys, shuffled);
}

}  // namespace lsmbench

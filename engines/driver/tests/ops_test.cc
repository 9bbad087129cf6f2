#include "ops.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "gen/lookups.h"

namespace lsmbench {

std::vector<uint64_t> Keys(size_t n, uint64_t seed) {
  Rng rng(seed);
  std::set<uint64_t> s;
  while (s.size() < n) s.insert(rng.Next() >> 8);
  return {s.begin(), s.end()};
}

TEST(Ops, SameSeedSameStream) {
  auto keys = Keys(1000, 1);
  std::vector<Op> a, b, c;
  std::string err;
  ASSERT_TRUE(PointLookups(keys, 5000, 0.2, 42, &a, &err)) << err;
  ASSERT_TRUE(PointLookups(keys, 5000, 0.2, 42, &b, &err)) << err;
  ASSERT_TRUE(PointLookups(keys, 5000, 0.2, 43, &c, &err)) << err;
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
  std::vector<Op> ops;
  std::string err;
  ASSERT_TRUE(PointLookups(keys, 20000, 0.3, 5, &ops, &err)) << err;
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
  EXPECT_EQ(negatives, 6000u);  // round(count x share), as the lookup files have
}

TEST(Ops, PointLookupsAreTheLookupFilesKeys) {
  // One generator for the driver's lookups and datagen's lookup files.
  auto keys = Keys(3000, 4);
  std::vector<Op> ops;
  gen::Keys file;
  std::string err;
  ASSERT_TRUE(PointLookups(keys, 7000, 0.25, 11, &ops, &err)) << err;
  ASSERT_TRUE(gen::MakeLookups(keys, 7000, 0.25, 11, &file, &err)) << err;
  ASSERT_EQ(ops.size(), file.size());
  for (size_t i = 0; i < ops.size(); i++) ASSERT_EQ(ops[i].key, file[i]) << i;
}

TEST(Ops, DenseKeysStillGetAbsentNegatives) {
  std::vector<uint64_t> keys;
  for (uint64_t k = 0; k < 100; k++) keys.push_back(k);
  std::vector<Op> ops;
  std::string err;
  ASSERT_TRUE(PointLookups(keys, 1000, 1.0, 9, &ops, &err)) << err;
  for (const Op& op : ops) {
    EXPECT_FALSE(std::binary_search(keys.begin(), keys.end(), op.key));
    EXPECT_GT(op.key, keys.back());  // no gap inside: above the largest key
  }
  // A dense range up to the top of the key space gets them below it.
  ASSERT_TRUE(PointLookups({UINT64_MAX - 1, UINT64_MAX}, 10, 1.0, 9, &ops, &err)) << err;
  for (const Op& op : ops) EXPECT_TRUE(op.key == UINT64_MAX - 2 || op.key == UINT64_MAX - 3) << op.key;
  ASSERT_TRUE(PointLookups({UINT64_MAX}, 10, 1.0, 9, &ops, &err)) << err;
  for (const Op& op : ops) EXPECT_EQ(op.key, UINT64_MAX - 1);
}

TEST(Ops, ShuffleIsAPermutation) {
  auto keys = Keys(1000, 3), shuffled = keys;
  Shuffle(&shuffled, 1);
  EXPECT_NE(keys, shuffled);
  std::sort(shuffled.begin(), shuffled.end());
  EXPECT_EQ(keys, shuffled);
}

}  // namespace lsmbench

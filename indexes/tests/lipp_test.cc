#include "lidx/lipp.h"

#include <gtest/gtest.h>

#include "alex_lipp_dili_test_util.h"

namespace exact_test {
namespace {

using lidx::LippIndex;

TEST(Lipp, ExactLowerBoundOnEveryShape) { CheckAllShapes<LippIndex>({}); }

TEST(Lipp, ExactOnWideKeys) { CheckWideKeys<LippIndex>({}); }

TEST(Lipp, SerializeRoundTrip) {
  CheckRoundTrip<LippIndex>(Dist::kClustered, 20000, 11);
  CheckRoundTrip<LippIndex>(Dist::kUniform, 0, 12);
}

TEST(Lipp, MemoryMatchesAllocator) {
  CheckMemory<LippIndex>(Dist::kLognormal, 50000, 13);
  CheckMemory<LippIndex>(Dist::kDense, 1, 13);
}

// FMCD on evenly spaced keys finds conflict degree 1: every key gets its own
// root slot, so there is one node and no descent at all.
TEST(Lipp, DenseKeysNeedNoChildNodes) {
  auto keys = MakeKeys(Dist::kDense, 50000, 14);
  auto idx = BuildOrFail<LippIndex>(keys, {}, "dense seed=14");
  ASSERT_NE(idx, nullptr);
  EXPECT_EQ(idx->Stats().segments, 1u);
  EXPECT_EQ(idx->Stats().levels, 1u);
}

// Clustered keys conflict, so LIPP must create child nodes and still be exact.
TEST(Lipp, ConflictsBecomeChildNodes) {
  auto keys = MakeKeys(Dist::kClustered, 30000, 15);
  auto idx = BuildOrFail<LippIndex>(keys, {}, "clustered seed=15");
  ASSERT_NE(idx, nullptr);
  EXPECT_GT(idx->Stats().segments, 1u);
  EXPECT_GT(idx->Stats().levels, 1u);
}

TEST(Lipp, RejectsUnknownKnobByName) {
  LippIndex<uint64_t> idx;
  lidx::Status s = idx.Configure({{"epsilon", "4"}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("epsilon"), std::string::npos) << s.message();
  EXPECT_FALSE(idx.Configure({{"max_depth", "zero"}}).ok());
}

TEST(Lipp, RejectsUnsortedKeys) {
  std::vector<uint64_t> keys = {1, 5, 3};
  LippIndex<uint64_t> idx;
  EXPECT_FALSE(idx.Build(keys.data(), keys.size(), nullptr).ok());
  EXPECT_EQ(idx.Search(4).pos, 0u);  // failed build leaves an empty index
}

// The resource guard turns an over-budget build into a Status, and the index
// stays usable (empty) afterwards.
TEST(Lipp, GuardFailsBuildOverMemoryOrDepth) {
  auto keys = MakeKeys(Dist::kLognormal, 200000, 16);
  LippIndex<uint64_t> idx;
  ASSERT_TRUE(idx.Configure({{"max_memory_mb", "1"}}).ok());
  lidx::Status s = idx.Build(keys.data(), keys.size(), nullptr);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("max_memory_mb"), std::string::npos)
      << s.message();
  EXPECT_EQ(idx.Search(keys[100]).pos, 0u);
  EXPECT_LT(idx.MemoryBytes(), size_t{1} << 16);

  LippIndex<uint64_t> shallow;
  ASSERT_TRUE(shallow.Configure({{"max_depth", "1"}}).ok());
  auto clustered = MakeKeys(Dist::kClustered, 30000, 16);
  s = shallow.Build(clustered.data(), clustered.size(), nullptr);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("max_depth"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace exact_test

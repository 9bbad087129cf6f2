#include "lidx/dili.h"

#include <gtest/gtest.h>

#include "alex_lipp_dili_test_util.h"

namespace exact_test {
namespace {

using lidx::DiliIndex;

TEST(Dili, ExactLowerBoundOnEveryShape) { CheckAllShapes<DiliIndex>({}); }

TEST(Dili, ExactOnWideKeys) { CheckWideKeys<DiliIndex>({}); }

TEST(Dili, SerializeRoundTrip) {
  CheckRoundTrip<DiliIndex>(Dist::kClustered, 20000, 11);
  CheckRoundTrip<DiliIndex>(Dist::kUniform, 0, 12);
}

TEST(Dili, MemoryMatchesAllocator) {
  CheckMemory<DiliIndex>(Dist::kLognormal, 50000, 13);
  CheckMemory<DiliIndex>(Dist::kDense, 1, 13);
}

// The BU-tree gives a multi-level DILI on a large key set: there are inner
// nodes above the leaves, and the leaves hold few keys each on average.
TEST(Dili, BottomUpThenTopDownMakesATree) {
  for (Dist d : {Dist::kUniform, Dist::kLognormal}) {
    auto keys = MakeKeys(d, 30000, 18);
    std::string what = std::string(DistName(d)) + " n=30000 seed=18";
    auto idx = BuildOrFail<DiliIndex>(keys, {}, what);
    ASSERT_NE(idx, nullptr);
    EXPECT_GT(idx->Stats().levels, 1u) << what;
    EXPECT_GT(idx->Stats().segments, 30000u / 1000) << what;
  }
}

// Conflicting keys in a leaf become child leaves; a tight expansion forces
// many of them and answers stay exact.
TEST(Dili, LeafConflictsBecomeChildLeaves) {
  CheckAllShapes<DiliIndex>({{"leaf_expand", "1"}});
}

TEST(Dili, RejectsUnknownKnobByName) {
  DiliIndex<uint64_t> idx;
  lidx::Status s = idx.Configure({{"epsilon", "4"}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("epsilon"), std::string::npos) << s.message();
  EXPECT_FALSE(idx.Configure({{"max_depth", "zero"}}).ok());
}

TEST(Dili, RejectsUnsortedKeys) {
  std::vector<uint64_t> keys = {1, 5, 3};
  DiliIndex<uint64_t> idx;
  EXPECT_FALSE(idx.Build(keys.data(), keys.size(), nullptr).ok());
  EXPECT_EQ(idx.Search(4).pos, 0u);  // failed build leaves an empty index
}

// The resource guard turns an over-budget build into a Status, and the index
// stays usable (empty) afterwards.
TEST(Dili, GuardFailsBuildOverMemoryOrDepth) {
  auto keys = MakeKeys(Dist::kLognormal, 200000, 16);
  DiliIndex<uint64_t> idx;
  ASSERT_TRUE(idx.Configure({{"max_memory_mb", "1"}}).ok());
  lidx::Status s = idx.Build(keys.data(), keys.size(), nullptr);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("max_memory_mb"), std::string::npos)
      << s.message();
  EXPECT_EQ(idx.Search(keys[100]).pos, 0u);
  EXPECT_LT(idx.MemoryBytes(), size_t{1} << 16);

  DiliIndex<uint64_t> shallow;
  ASSERT_TRUE(shallow.Configure({{"max_depth", "1"}}).ok());
  auto clustered = MakeKeys(Dist::kUniform, 30000, 16);
  s = shallow.Build(clustered.data(), clustered.size(), nullptr);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("max_depth"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace exact_test

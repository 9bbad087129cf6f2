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

TEST(Dili, RejectsUnknownKnobByName) { CheckRejectsBadKnobs<DiliIndex>(); }

TEST(Dili, RejectsUnsortedKeys) { CheckRejectsUnsortedKeys<DiliIndex>(); }

TEST(Dili, GuardFailsBuildOverMemoryOrDepth) {
  CheckGuardFailsBuildOverMemoryOrDepth<DiliIndex>(Dist::kUniform);
}

}  // namespace
}  // namespace exact_test

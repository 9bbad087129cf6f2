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

TEST(Lipp, RejectsUnknownKnobByName) { CheckRejectsBadKnobs<LippIndex>(); }

TEST(Lipp, RejectsUnsortedKeys) { CheckRejectsUnsortedKeys<LippIndex>(); }

TEST(Lipp, GuardFailsBuildOverMemoryOrDepth) {
  CheckGuardFailsBuildOverMemoryOrDepth<LippIndex>(Dist::kClustered);
}

}  // namespace
}  // namespace exact_test

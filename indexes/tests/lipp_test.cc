#include "lidx/lipp.h"

#include <gtest/gtest.h>

#include "alex_lipp_dili_test_util.h"

namespace exact_test {
namespace {

using lidx::LippIndex;

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

// The shared contract; the Dist is a shape max_depth 1 cannot hold.
using LippKind = ExactIndex<LippIndex, Dist::kClustered>;
INSTANTIATE_TYPED_TEST_SUITE_P(Lipp, ExactIndexContract,
                               ::testing::Types<LippKind>);

}  // namespace
}  // namespace exact_test

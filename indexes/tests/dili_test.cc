#include "lidx/dili.h"

#include <gtest/gtest.h>

#include "alex_lipp_dili_test_util.h"

namespace exact_test {
namespace {

using lidx::DiliIndex;

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

// The shared contract; the Dist is a shape max_depth 1 cannot hold.
using DiliKind = ExactIndex<DiliIndex, Dist::kUniform>;
INSTANTIATE_TYPED_TEST_SUITE_P(Dili, ExactIndexContract,
                               ::testing::Types<DiliKind>);

}  // namespace
}  // namespace exact_test

#include "lidx/alex.h"

#include <gtest/gtest.h>

#include "alex_lipp_dili_test_util.h"

namespace exact_test {
namespace {

using lidx::AlexIndex;

TEST(Alex, ExactOnEveryShapeWithSmallNodes) {
  CheckAllShapes<AlexIndex>({{"max_data_node_bytes", "1024"}});
}

// The node-size knob bounds every data node: a small limit forces many data
// nodes under inner nodes, and answers stay exact.
TEST(Alex, NodeSizeKnobSplitsDataNodes) {
  for (Dist d : {Dist::kUniform, Dist::kLognormal, Dist::kClustered}) {
    auto keys = MakeKeys(d, 30000, 17);
    std::string what = std::string(DistName(d)) + " n=30000 seed=17";
    auto big = BuildOrFail<AlexIndex>(keys, {}, what);
    auto small = BuildOrFail<AlexIndex>(
        keys, {{"max_data_node_bytes", "4096"}}, what + " 4KiB nodes");
    ASSERT_NE(big, nullptr);
    ASSERT_NE(small, nullptr);
    // 30000 keys * 12 bytes / 0.7 density need >= 126 nodes of 4 KiB.
    EXPECT_GE(small->Stats().segments, 126u) << what;
    EXPECT_GT(small->Stats().levels, 1u) << what;
    EXPECT_TRUE(AnswersExactly(*small, keys, MakeQueries(keys, 17), what));
  }
}

TEST(Alex, FullDensityHasNoGapsAndStaysExact) {
  CheckAllShapes<AlexIndex>({{"init_density", "1"}, {"max_data_node_bytes", "2048"}});
}

// The shared contract; the Dist is a shape max_depth 1 cannot hold.
using AlexKind = ExactIndex<AlexIndex, Dist::kClustered>;
INSTANTIATE_TYPED_TEST_SUITE_P(Alex, ExactIndexContract,
                               ::testing::Types<AlexKind>);

}  // namespace
}  // namespace exact_test

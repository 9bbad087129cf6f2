// Engineer 1's per-index knob tests: the error knob is a guaranteed bound on
// hi - lo, checked through the full harness at several knob values.
#include <gtest/gtest.h>

#include "datasets.h"
#include "harness.h"

namespace lidx_test {
namespace {

const char* kDatasets[] = {"uniform", "lognormal", "clustered", "duplicates",
                           "extremes"};

TEST(FenceIndex, BlockIsTheBound) {
  for (uint64_t e : {1, 2, 16, 100}) {
    for (const char* ds : kDatasets) {
      uint64_t seed = Mix(BaseSeed(), ds);
      auto keys = MakeKeys<uint64_t>(ds, 10000, seed);
      auto r = CheckIndex<uint64_t>("fp", {{"entries", std::to_string(e)}},
                                    keys,
                                    std::string("dataset=") + ds +
                                        " seed=" + std::to_string(seed));
      EXPECT_LE(r.max_width, e - 1) << ds << " entries=" << e;
    }
  }
}

}  // namespace
}  // namespace lidx_test

// detail/stx_like_btree.h, the B+-tree ft keeps its segments in: for every
// size and inner node width, a descent finds the last key <= q as
// std::upper_bound does, the leaves chain every slot in order, leaves are
// filled as STX's bulk_load fills them (evenly, at most 8 slots) and the
// node bytes are STX's node sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "lidx/detail/stx_like_btree.h"

namespace lidx_test {
namespace {

struct Payload {
  uint64_t v;
  long double pad;  // the size and alignment of ft's segment record
  uint64_t w[2];
};

using Tree = lidx::detail::StxLikeBtree<uint64_t, Payload>;

TEST(StxLikeBtree, DescentChainAndFillMatchTheKeys) {
  for (size_t n : {1, 2, 7, 8, 9, 16, 17, 63, 64, 65, 136, 137, 500, 2049}) {
    for (size_t slots : {2, 3, 16}) {
      std::vector<uint64_t> keys(n);
      std::vector<Payload> values(n);
      for (size_t i = 0; i < n; ++i) {
        keys[i] = 10 + 3 * i;
        values[i].v = i;
      }
      Tree t;
      t.BulkLoad(keys, values, slots);
      // every query between and around the keys
      for (uint64_t q = 10; q <= keys.back() + 2; ++q) {
        const size_t want = std::upper_bound(keys.begin(), keys.end(), q) - keys.begin() - 1;
        ASSERT_EQ(t.LastAtOrBefore(q).value().v, want) << "n=" << n << " slots=" << slots << " q=" << q;
      }
      // the leaf chain visits every slot once, in key order, leaves at most 8 and evenly filled
      size_t i = 0, leaves = 0, smallest = 8, largest = 0;
      for (Tree::Slot s = t.LastAtOrBefore(keys[0]); s.leaf != nullptr; s = s.Next(), ++i) {
        ASSERT_EQ(s.value().v, i);
        if (s.i == 0) {
          ++leaves;
          smallest = std::min<size_t>(smallest, s.leaf->slotuse);
          largest = std::max<size_t>(largest, s.leaf->slotuse);
        }
      }
      EXPECT_EQ(i, n);
      EXPECT_EQ(leaves, (n + Tree::kLeafSlots - 1) / Tree::kLeafSlots);
      EXPECT_LE(largest, Tree::kLeafSlots);
      EXPECT_LE(largest - smallest, 1u);
      EXPECT_GE(t.NodeBytes(), leaves * sizeof(Tree::Leaf));
      EXPECT_EQ(t.levels() > 1, leaves > 1);
    }
  }
}

}  // namespace
}  // namespace lidx_test

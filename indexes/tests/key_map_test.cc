// key_map: order preservation, the documented collisions, and StringBound()
// bracketing a string's true position for every registered index.
#include "lidx/key_map.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "datasets.h"
#include "lidx/registry.h"

namespace lidx_test {
namespace {

TEST(KeyMap, BigEndianPrefixPreservesOrder) {
  EXPECT_EQ(lidx::MapKey<uint64_t>(""), 0u);
  EXPECT_EQ(lidx::MapKey<uint64_t>("\x01"), uint64_t{1} << 56);
  EXPECT_EQ(lidx::MapKey<uint64_t>("abcdefgh"), 0x6162636465666768ULL);
  // Longer strings only see their prefix: a documented collision.
  EXPECT_EQ(lidx::MapKey<uint64_t>("abcdefghX"),
            lidx::MapKey<uint64_t>("abcdefghY"));
  EXPECT_EQ(lidx::MapKey<uint64_t>("ab"), lidx::MapKey<uint64_t>(std::string("ab\0", 3)));
  EXPECT_LT(lidx::MapKey<lidx::u128>("abcdefghX"),
            lidx::MapKey<lidx::u128>("abcdefghY"));
  EXPECT_EQ(lidx::MapKey<lidx::u128>("\xff\xff\xff\xff\xff\xff\xff\xff"
                                     "\xff\xff\xff\xff\xff\xff\xff\xff"),
            static_cast<lidx::u128>(~lidx::u128(0)));
  auto strs = PrefixStrings(5000, 7);
  for (size_t i = 1; i < strs.size(); ++i) {
    ASSERT_LE(lidx::MapKey<uint64_t>(strs[i - 1]),
              lidx::MapKey<uint64_t>(strs[i]));
    ASSERT_LE(lidx::MapKey<lidx::u128>(strs[i - 1]),
              lidx::MapKey<lidx::u128>(strs[i]));
  }
}

template <typename K>
void CheckStringBounds(const std::string& id) {
  uint64_t seed = Mix(BaseSeed(), "strings");
  SCOPED_TRACE("index=" + id + " seed=" + std::to_string(seed) +
               " key bytes=" + std::to_string(sizeof(K)));
  auto strs = PrefixStrings(6000, seed);
  std::vector<K> mapped;
  for (const auto& s : strs) mapped.push_back(lidx::MapKey<K>(s));
  std::string err;
  auto idx = lidx::MakeIndex<K>(id, {}, &err);
  ASSERT_TRUE(idx) << err;
  ASSERT_TRUE(idx->Build(mapped.data(), mapped.size(), nullptr).ok());
  std::vector<std::string> qs(strs.begin(), strs.end());
  for (const auto& s : strs) qs.push_back(s + "\x01");
  qs.push_back("");
  qs.push_back("user:profile");
  qs.push_back("user:profilez");
  qs.push_back(std::string(20, '\xff'));
  int bad = 0;
  for (const auto& q : qs) {
    size_t want = std::lower_bound(strs.begin(), strs.end(), q) - strs.begin();
    lidx::Bound b = lidx::StringBound(*idx, strs.size(), q);
    if (!(b.lo <= want && want <= b.hi && b.hi <= strs.size()) && ++bad < 5) {
      ADD_FAILURE() << "query '" << q << "' at " << want << " outside ["
                    << b.lo << ", " << b.hi << "]";
    }
  }
  EXPECT_EQ(bad, 0);
}

TEST(KeyMap, StringBoundBracketsTruePositionForEveryIndex) {
  for (const std::string& id : lidx::RegisteredIds()) {
    CheckStringBounds<uint64_t>(id);
    CheckStringBounds<lidx::u128>(id);
  }
}

}  // namespace
}  // namespace lidx_test

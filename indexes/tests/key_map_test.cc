// key_map: order preservation, the documented collisions, and StringBound()
// bracketing a string's true position for every registered index.
#include "lidx/key_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <vector>

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

TEST(KeyMap, DecimalReadsTheDigitsAsTheArtifactDoes) {
  EXPECT_EQ(lidx::MapDecimalKey(""), 0u);
  EXPECT_EQ(lidx::MapDecimalKey("0000000000000000000"), 0u);
  EXPECT_EQ(lidx::MapDecimalKey("1"), 1000000000000000000ULL);
  EXPECT_EQ(lidx::MapDecimalKey("0000000000000000042"), 42u);
  EXPECT_EQ(lidx::MapDecimalKey("9999999999999999999"), 9999999999999999999ULL);
  // Past 19 digits the rest is not read: a documented collision.
  EXPECT_EQ(lidx::MapDecimalKey("00000000000000000421"), lidx::MapDecimalKey("00000000000000000429"));
  // A byte below '0' fills the places left with 0, above '9' with 9.
  EXPECT_EQ(lidx::MapDecimalKey("12/9"), 1200000000000000000ULL);
  EXPECT_EQ(lidx::MapDecimalKey("12:0"), 1299999999999999999ULL);
  EXPECT_EQ(lidx::MapKey(lidx::KeyMap::kDecimal, "7"), 7000000000000000000ULL);
  EXPECT_EQ(lidx::MapKey(lidx::KeyMap::kBytes, "abcdefgh"), 0x6162636465666768ULL);
}

TEST(KeyMap, DecimalPreservesOrderForAnyBytes) {
  // Digits, the bytes either side of them, and the extremes, in strings
  // around the 19 places read.
  const std::string alphabet = std::string("/0123456789:") + '\0' + '\xff';
  std::mt19937_64 rng(Mix(BaseSeed(), "decimal order"));
  std::vector<std::string> strs;
  for (int i = 0; i < 20000; ++i) {
    std::string s(rng() % 23, '0');
    for (char& c : s) c = rng() % 4 == 0 ? alphabet[rng() % alphabet.size()] : '0' + rng() % 10;
    strs.push_back(s);
  }
  for (const std::string& s : PrefixStrings(2000, 11)) strs.push_back(s);
  std::sort(strs.begin(), strs.end());
  for (size_t i = 1; i < strs.size(); ++i) {
    ASSERT_LE(lidx::MapDecimalKey(strs[i - 1]), lidx::MapDecimalKey(strs[i]))
        << "'" << strs[i - 1] << "' < '" << strs[i] << "'";
  }
}

TEST(KeyMap, ChooseKeyMapTakesDecimalForDigitsOnly) {
  using V = std::vector<std::string_view>;
  EXPECT_EQ(lidx::ChooseKeyMap(V{"0042", "1", "", "99"}), lidx::KeyMap::kDecimal);
  EXPECT_EQ(lidx::ChooseKeyMap(V{"0042", "12a"}), lidx::KeyMap::kBytes);
  EXPECT_EQ(lidx::ChooseKeyMap(V{std::string_view("1\0", 2)}), lidx::KeyMap::kBytes);
  EXPECT_EQ(lidx::ChooseKeyMap(V{}), lidx::KeyMap::kBytes);
}

// Zero-padded decimal strings of 24 places, as lsmbench's decimal24 keys,
// with their common prefix left on.
std::vector<std::string> DecimalStrings(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) {
    std::string d = std::to_string(i % 7 == 0 ? rng() % 1000 : rng());
    out.push_back(std::string(24 - d.size(), '0') + d);
  }
  out.push_back(std::string(24, '0'));
  out.push_back("000018446744073709551615");
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
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

void CheckDecimalStringBounds(const std::string& id) {
  uint64_t seed = Mix(BaseSeed(), "decimal strings");
  SCOPED_TRACE("index=" + id + " seed=" + std::to_string(seed));
  auto strs = DecimalStrings(6000, seed);
  ASSERT_EQ(lidx::ChooseKeyMap(strs), lidx::KeyMap::kDecimal);
  std::vector<uint64_t> mapped;
  for (const auto& s : strs) mapped.push_back(lidx::MapKey(lidx::KeyMap::kDecimal, s));
  std::string err;
  auto idx = lidx::MakeIndex<uint64_t>(id, {}, &err);
  ASSERT_TRUE(idx) << err;
  ASSERT_TRUE(idx->Build(mapped.data(), mapped.size(), nullptr).ok());
  // Absent keys between and beyond, shorter and longer ones, and bytes that
  // are not digits.
  std::vector<std::string> qs(strs.begin(), strs.end());
  for (const auto& s : strs) {
    qs.push_back(s + "\x01");
    qs.push_back(s.substr(0, 23));
    qs.push_back(s.substr(0, 20) + "/");
    qs.push_back(s.substr(0, 20) + ":");
  }
  qs.push_back("");
  qs.push_back(std::string(24, '9'));
  qs.push_back(std::string(24, '\xff'));
  int bad = 0;
  for (const auto& q : qs) {
    size_t want = std::lower_bound(strs.begin(), strs.end(), q) - strs.begin();
    lidx::Bound b = lidx::StringBound(*idx, strs.size(), q, lidx::KeyMap::kDecimal);
    if (!(b.lo <= want && want <= b.hi && b.hi <= strs.size()) && ++bad < 5) {
      ADD_FAILURE() << "query '" << q << "' at " << want << " outside ["
                    << b.lo << ", " << b.hi << "]";
    }
  }
  EXPECT_EQ(bad, 0);
}

TEST(KeyMap, DecimalStringBoundBracketsTruePositionForEveryIndex) {
  for (const std::string& id : lidx::RegisteredIds()) CheckDecimalStringBounds(id);
}

TEST(KeyMap, StringBoundBracketsTruePositionForEveryIndex) {
  for (const std::string& id : lidx::RegisteredIds()) {
    CheckStringBounds<uint64_t>(id);
    CheckStringBounds<lidx::u128>(id);
  }
}

}  // namespace
}  // namespace lidx_test

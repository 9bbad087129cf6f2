// lits (lits.h) through the StringIndex contract (string_index.h): the shared
// harness only knows integer keys, so this file holds string keys to the
// same properties: exact std::lower_bound for present and absent keys on
// strings with long shared prefixes, empty strings, duplicates, embedded
// 0x00/0xff bytes and 8-24 byte keys; serialize round trip; memory accounting
// against the allocation counter; knobs. Every dataset prints its seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "alloc_counter.h"
#include "datasets.h"
#include "harness.h"
#include "lidx/lits.h"
#include "lidx/lits_index.h"
#include "lidx/string_registry.h"

namespace lidx_test {
namespace {

// MakeIndex's table is a function-local static allocated on first use: make
// it before any test counts heap bytes, or the first index is charged for it.
const bool kRegistryWarm = [] {
  std::string err;
  lidx::MakeIndex<uint64_t>("lits", {}, &err);
  lidx::MakeIndex<lidx::u128>("lits", {}, &err);
  return true;
}();

using Strings = std::vector<std::string>;

std::vector<std::string_view> Views(const Strings& s) {
  return std::vector<std::string_view>(s.begin(), s.end());
}

std::string RandomBytes(std::mt19937_64& rng, size_t len, int alphabet) {
  std::string s;
  for (size_t i = 0; i < len; ++i) {
    s.push_back(static_cast<char>(alphabet >= 256 ? rng() % 256
                                                  : 'a' + rng() % alphabet));
  }
  return s;
}

// Named string datasets, sorted, duplicates allowed.
Strings MakeStrings(const std::string& name, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Strings k;
  if (name == "prefix12") {
    k = PrefixStrings(n, seed);  // shared with the integer datasets
  } else if (name == "long_prefix") {
    // 3 families sharing 64-byte prefixes that differ in their last byte,
    // then short tails; some keys are exactly a prefix of others.
    const std::string p(63, 'k');
    for (size_t i = 0; i < n; ++i) {
      std::string s = p + static_cast<char>('a' + rng() % 3);
      s += RandomBytes(rng, rng() % 6, 4);
      k.push_back(s);
    }
  } else if (name == "nested") {
    for (size_t i = 0; i < n; ++i) k.push_back(std::string(i % 300, 'a'));
    for (size_t i = 0; i < n / 3; ++i) k.push_back(std::string(i % 50, 'b'));
  } else if (name == "empty_and_dups") {
    for (size_t i = 0; i < n; ++i) {
      const uint64_t r = rng() % 10;
      k.push_back(r < 2 ? std::string() : r < 5 ? "dup" : RandomBytes(rng, 3, 3));
    }
  } else if (name == "ycsb_8_24") {
    // "user" + decimal digits, 8 to 24 bytes: the EDBT paper's var-length set.
    for (size_t i = 0; i < n; ++i) {
      std::string s = "user" + std::to_string(rng());
      s.resize(8 + rng() % 17, '0');
      k.push_back(s);
    }
  } else if (name == "binary") {
    for (size_t i = 0; i < n; ++i) {
      std::string s = RandomBytes(rng, 1 + rng() % 12, 256);
      if (rng() % 8 == 0) s[0] = '\0';
      if (rng() % 8 == 0) s.back() = '\xff';
      k.push_back(s);
    }
  } else if (name == "words") {
    for (size_t i = 0; i < n; ++i) k.push_back(RandomBytes(rng, 3 + rng() % 10, 26));
  } else {
    ADD_FAILURE() << "unknown dataset " << name;
  }
  std::sort(k.begin(), k.end());
  return k;
}

Strings Queries(const Strings& keys, uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x51ed);
  Strings q = {"", std::string(1, '\0'), std::string(40, '\xff'), "a", "zzzz"};
  for (const std::string& k : keys) {
    q.push_back(k);
    q.push_back(k + '\0');
    q.push_back(k + "\xff");
    if (!k.empty()) {
      q.push_back(k.substr(0, k.size() - 1));
      std::string up = k, down = k;
      up.back() = static_cast<char>(up.back() + 1);
      down.back() = static_cast<char>(down.back() - 1);
      q.push_back(up);
      q.push_back(down);
    }
  }
  for (int i = 0; i < 500; ++i) q.push_back(RandomBytes(rng, rng() % 20, 256));
  for (int i = 0; i < 500 && !keys.empty(); ++i) {
    // A key's prefix with a random tail: lands inside the trie, not beside it.
    const std::string& k = keys[rng() % keys.size()];
    q.push_back(k.substr(0, rng() % (k.size() + 1)) + RandomBytes(rng, rng() % 4, 256));
  }
  return q;
}

// Exactness for every query; returns the number of violations.
size_t CheckExact(const lidx::StringIndex& idx, const Strings& keys,
                  const Strings& queries, const std::string& label) {
  size_t failures = 0;
  for (const std::string& q : queries) {
    const size_t want =
        std::lower_bound(keys.begin(), keys.end(), q) - keys.begin();
    const lidx::Bound b = idx.Search(q);
    if ((b.lo != want || b.pos != want || b.hi != want) && ++failures <= 5) {
      std::string hex;
      for (unsigned char c : q.substr(0, 80)) {
        hex += "0123456789abcdef"[c >> 4];
        hex += "0123456789abcdef"[c & 15];
      }
      ADD_FAILURE() << label << ": q=0x" << hex << " (len " << q.size()
                    << ") lower_bound=" << want << " got [" << b.lo << ","
                    << b.pos << "," << b.hi << "] n=" << keys.size();
    }
  }
  return failures;
}

// The whole contract for one (knobs, keys), like harness.h's CheckIndex.
void CheckLits(const lidx::Options& opts, const Strings& keys,
               const std::string& label) {
  SCOPED_TRACE(label + " (replay: LIDX_TEST_SEED=" +
               std::to_string(BaseSeed()) + ")");
  const auto views = Views(keys);
  const size_t live0 = LiveHeapBytes();
  std::string err;
  auto idx = lidx::MakeStringIndex("lits", opts, &err);
  ASSERT_TRUE(idx) << err;
  ASSERT_TRUE(idx->Build(views.data(), views.size(), nullptr).ok());
  const size_t live1 = LiveHeapBytes();
  {
    const size_t seen = live1 - live0, reported = idx->MemoryBytes();
    const size_t diff = seen > reported ? seen - reported : reported - seen;
    EXPECT_LE(diff, std::max<size_t>(64, seen / 50))
        << "MemoryBytes()=" << reported << " but the allocator saw " << seen;
  }
  EXPECT_EQ(idx->Stats().keys, keys.size());
  EXPECT_TRUE(idx->Exact());

  const Strings qs = Queries(keys, Mix(BaseSeed(), label));
  EXPECT_EQ(CheckExact(*idx, keys, qs, label), 0u);

  std::string bytes;
  idx->Serialize(&bytes);
  auto copy = lidx::MakeStringIndex("lits", opts, &err);
  lidx::Status s = copy->Deserialize(bytes);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(CheckExact(*copy, keys, qs, label + " (deserialized)"), 0u);
  std::string again;
  copy->Serialize(&again);
  EXPECT_TRUE(again == bytes) << "re-serialized bytes differ";
  for (size_t cut : {size_t{0}, size_t{5}, bytes.size() / 3, bytes.size() / 2,
                     bytes.size() - 1}) {
    auto t = lidx::MakeStringIndex("lits", opts, &err);
    EXPECT_FALSE(t->Deserialize(std::string_view(bytes).substr(0, cut)).ok())
        << "accepted a " << cut << "-byte prefix";
  }
  copy.reset();
  const size_t before_free = LiveHeapBytes();
  idx.reset();
  EXPECT_EQ(before_free - LiveHeapBytes(), live1 - live0)
      << "destroying the index did not free what Build() left";
}

const char* kStringSets[] = {"prefix12",  "long_prefix", "nested", "empty_and_dups",
                             "ycsb_8_24", "binary",      "words"};

TEST(Lits, ExactOnStringDatasets) {
  for (const char* ds : kStringSets) {
    for (size_t n : {size_t{3000}, size_t{20000}}) {
      const uint64_t seed = Mix(BaseSeed(), ds);
      CheckLits({}, MakeStrings(ds, n, seed),
                std::string("dataset=") + ds + " n=" + std::to_string(n) +
                    " seed=" + std::to_string(seed));
    }
  }
}

TEST(Lits, TinyInputs) {
  const Strings cases[] = {{},
                           {""},
                           {"", ""},
                           {"a"},
                           {"a", "b"},
                           {"b", "b"},
                           {std::string(1, '\0'), std::string(2, '\0')},
                           {"", "a", "ab", "abc"}};
  for (const Strings& k : cases) {
    CheckLits({}, k, "tiny n=" + std::to_string(k.size()));
  }
  // Around the compact-leaf size: 16 keys stay one leaf, 17 build a node.
  for (size_t n : {15, 16, 17, 33}) {
    CheckLits({}, MakeStrings("words", n, n), "words n=" + std::to_string(n));
  }
}

TEST(Lits, ExactAcrossKnobs) {
  const lidx::Options settings[] = {
      {{"cnode_size", "1"}},                        // a node per collision
      {{"trie_gpkl", "0"}},                         // models wherever they can
      {{"trie_gpkl", "1000"}},                      // tries everywhere
      {{"scale", "1"}, {"ps_bits", "0"}, {"fc_bits", "0"}},  // one HPT row
      {{"scale", "8"}, {"ps_bits", "8"}, {"fc_bits", "8"}, {"cnode_size", "4"}},
  };
  for (const lidx::Options& o : settings) {
    for (const char* ds : {"prefix12", "long_prefix", "empty_and_dups",
                           "ycsb_8_24", "binary"}) {
      const uint64_t seed = Mix(BaseSeed(), std::string(ds) + "knobs");
      std::string knobs;
      for (const auto& [k, v] : o) knobs += " " + k + "=" + v;
      CheckLits(o, MakeStrings(ds, 5000, seed),
                std::string("dataset=") + ds + knobs +
                    " seed=" + std::to_string(seed));
    }
  }
}

TEST(Lits, NodeKindsFollowTheKnobs) {
  const uint64_t seed = Mix(BaseSeed(), "kinds");
  const Strings dec = MakeStrings("ycsb_8_24", 20000, seed);
  const auto v = Views(dec);
  // Decimal keys: the HPT separates them, so models carry the tree; small
  // compact leaves force it to grow levels.
  lidx::Lits models;
  ASSERT_TRUE(models.Configure({{"cnode_size", "1"}}).ok());
  ASSERT_TRUE(models.Build(v.data(), v.size(), nullptr).ok());
  EXPECT_GT(models.ModelNodes(), 1u) << "seed=" << seed;
  EXPECT_GT(models.Stats().levels, 1u) << "seed=" << seed;
  // A GPKL threshold above every group's makes every node a trie node.
  lidx::Lits tries;
  ASSERT_TRUE(tries.Configure({{"trie_gpkl", "1000"}}).ok());
  ASSERT_TRUE(tries.Build(v.data(), v.size(), nullptr).ok());
  EXPECT_GT(tries.TrieNodes(), 0u) << "seed=" << seed;
  EXPECT_EQ(tries.ModelNodes(), 0u) << "seed=" << seed;
  // The copy of the keys is part of the footprint.
  size_t key_bytes = 0;
  for (const std::string& s : dec) key_bytes += s.size();
  EXPECT_GE(models.MemoryBytes(), key_bytes + models.HptBytes());
}

TEST(Lits, KnobsAndErrors) {
  std::string err;
  EXPECT_EQ(lidx::MakeStringIndex("lits", {{"epsilon", "4"}}, &err), nullptr);
  EXPECT_NE(err.find("epsilon"), std::string::npos) << err;
  EXPECT_EQ(lidx::MakeStringIndex("nope", {}, &err), nullptr);
  EXPECT_NE(err.find("nope"), std::string::npos) << err;
  EXPECT_EQ(lidx::RegisteredStringIds(), std::vector<std::string>{"lits"});

  lidx::Lits lits;
  const std::string_view unsorted[] = {"b", "a"};
  EXPECT_FALSE(lits.Build(unsorted, 2, nullptr).ok());
  // A failed build leaves an empty, usable index.
  EXPECT_EQ(lits.Search("a").pos, 0u);
}

TEST(Lits, CorruptBytesNeverCrash) {
  // Every single-byte corruption is either rejected or still answers within
  // [0, n]: Search() must not read out of bounds on a structure that passed
  // validation.
  const Strings keys = MakeStrings("prefix12", 200, 11);
  auto v = Views(keys);
  lidx::Lits lits;
  ASSERT_TRUE(lits.Configure({{"cnode_size", "2"}}).ok());
  ASSERT_TRUE(lits.Build(v.data(), v.size(), nullptr).ok());
  std::string bytes;
  lits.Serialize(&bytes);
  const Strings qs = Queries(keys, 11);
  std::mt19937_64 rng(11);
  size_t accepted = 0;
  for (size_t i = 0; i < bytes.size(); i += 1 + rng() % 7) {
    std::string bad = bytes;
    bad[i] = static_cast<char>(bad[i] ^ (1 + rng() % 255));
    lidx::Lits t;
    if (!t.Deserialize(bad).ok()) continue;
    ++accepted;
    for (size_t j = 0; j < qs.size(); j += 13) {
      EXPECT_LE(t.Search(qs[j]).hi, keys.size()) << "corrupted byte " << i;
    }
  }
  // Mostly key bytes and statistics can change undetected; most must fail.
  EXPECT_LT(accepted, bytes.size() / 2);
}

// Integer keys through LitsIndex<K> (big-endian bytes), with knobs that
// force deep trees; the registry suite covers the defaults.
TEST(Lits, IntegerAdapterThroughHarness) {
  const lidx::Options settings[] = {{{"cnode_size", "1"}},
                                    {{"trie_gpkl", "1000"}, {"cnode_size", "3"}}};
  for (const lidx::Options& o : settings) {
    for (const char* ds : {"uniform", "lognormal", "duplicates", "extremes"}) {
      const uint64_t seed = Mix(BaseSeed(), ds);
      auto keys = MakeKeys<uint64_t>(ds, 5000, seed);
      CheckIndex<uint64_t>("lits", o, keys,
                           std::string("dataset=") + ds + " seed=" +
                               std::to_string(seed));
      auto wide = MakeKeys<lidx::u128>(ds, 3000, seed);
      for (auto& k : wide) k = (k << 64) | (k & 0xff);
      CheckIndex<lidx::u128>("lits", o, wide,
                             std::string("dataset=") + ds + " seed=" +
                                 std::to_string(seed) + " keys=u128");
    }
  }
  // A 64-bit index's bytes are not a 128-bit one's.
  auto keys = MakeKeys<uint64_t>("uniform", 100, 1);
  lidx::LitsIndex<uint64_t> narrow;
  ASSERT_TRUE(narrow.Build(keys.data(), keys.size(), nullptr).ok());
  std::string bytes;
  narrow.Serialize(&bytes);
  lidx::LitsIndex<lidx::u128> wide;
  EXPECT_FALSE(wide.Deserialize(bytes).ok());
}

}  // namespace
}  // namespace lidx_test

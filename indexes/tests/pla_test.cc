// DobLIX pla / pra (pla.h). The shared harness proves the bound contract,
// serialization and memory for each knob setting; these tests add what is
// specific to DobLIX: segments are data blocks that never exceed B_max bytes
// (with fixed or variable entry sizes), pla segments respect E, pra cuts on
// bytes alone (greedily, Algorithm 2), and the exposed segment boundaries are
// consistent with the bounds.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "datasets.h"
#include "harness.h"
#include "lidx/pla.h"
#include "linear_test_util.h"

namespace lidx_test {
namespace {

TEST(DobLix, HarnessAcrossKnobs) {
  const lidx::Options settings[] = {
      {{"max_error", "1"}},
      {{"max_error", "16"}, {"max_block_bytes", "100000000"}},
      {{"max_block_bytes", "1"}},  // one entry per block
      {{"max_block_bytes", "512"}, {"entry_bytes", "100"}, {"radix_bits", "0"}},
      {{"radix_bits", "4"}, {"max_block_bytes", "1000000"}, {"max_error", "4"}},
  };
  for (const char* id : {"pla", "pra"}) {
    for (const lidx::Options& o : settings) {
      for (const char* ds : kDatasets) {
        const uint64_t seed = Mix(BaseSeed(), ds);
        auto keys = MakeKeys<uint64_t>(ds, 6000, seed);
        CheckIndex<uint64_t>(id, o, keys, Label(ds, keys.size(), seed));
      }
    }
  }
  // pra's optional error cap.
  for (const char* ds : kDatasets) {
    const uint64_t seed = Mix(BaseSeed(), ds);
    auto keys = MakeKeys<uint64_t>(ds, 6000, seed);
    CheckIndex<uint64_t>("pra", {{"max_error", "3"}, {"max_block_bytes", "1000000"}},
                         keys, Label(ds, keys.size(), seed));
  }
}

TEST(DobLix, Harness128) {
  for (const char* id : {"pla", "pra"}) {
    for (const char* ds : {"uniform", "lognormal", "duplicates", "extremes"}) {
      const uint64_t seed = Mix(BaseSeed(), ds);
      auto keys = MakeKeys<lidx::u128>(ds, 5000, seed);
      // Keys that differ only in the low half, below double precision.
      for (auto& k : keys) k = (k << 64) | (k & 0xff);
      CheckIndex<lidx::u128>(id, {{"max_error", "2"}}, keys,
                             Label(ds, keys.size(), seed) + " keys=u128");
    }
  }
}

// Sizes of the entries of each segment, from SegmentStarts().
template <typename Idx>
std::vector<uint64_t> SegmentBytes(const Idx& idx, const std::vector<uint32_t>& sz) {
  const auto& st = idx.SegmentStarts();
  std::vector<uint64_t> out;
  for (size_t s = 0; s + 1 < st.size(); ++s) {
    uint64_t b = 0;
    for (uint32_t i = st[s]; i < st[s + 1]; ++i) b += sz[i];
    out.push_back(b);
  }
  return out;
}

template <bool kPra>
void CheckBlocks(const char* ds, uint64_t bmax, uint64_t e) {
  const uint64_t seed = Mix(BaseSeed(), std::string(ds) + "blocks");
  SCOPED_TRACE(std::string(kPra ? "pra" : "pla") + " dataset=" + ds +
               " B_max=" + std::to_string(bmax) + " E=" + std::to_string(e) +
               " seed=" + std::to_string(seed));
  auto keys = MakeKeys<uint64_t>(ds, 20000, seed);
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> sizes(keys.size());
  // Variable-size entries, a few larger than B_max on their own.
  for (auto& s : sizes) s = rng() % 50 == 0 ? bmax + 7 : 16 + rng() % 300;

  lidx::DobLix<uint64_t, kPra> idx;
  ASSERT_TRUE(idx.Configure({{"max_block_bytes", std::to_string(bmax)},
                             {"max_error", std::to_string(e)}})
                  .ok());
  ASSERT_TRUE(idx.Build(keys.data(), keys.size(), sizes.data()).ok());
  EXPECT_EQ(CheckBuiltBounds(idx, keys, seed), 0u);

  const auto& st = idx.SegmentStarts();
  ASSERT_EQ(st.size(), idx.Segments() + 1);
  EXPECT_EQ(st.front(), 0u);
  EXPECT_EQ(st.back(), keys.size());
  EXPECT_EQ(idx.Stats().segments, idx.Segments());
  const auto bytes = SegmentBytes(idx, sizes);
  for (size_t s = 0; s < bytes.size(); ++s) {
    const size_t len = st[s + 1] - st[s];
    // Data access first: a block never exceeds B_max unless it is a single
    // entry that is bigger on its own.
    if (len > 1) {
      EXPECT_LE(bytes[s], bmax) << "segment " << s;
    }
    if (!kPra) {
      // The spline keeps every key of the block within E (+1 for rounding
      // the prediction down).
      EXPECT_LE(idx.SegmentError(s), e + 1) << "segment " << s;
    } else if (s + 1 < bytes.size() && e == 0) {
      // Algorithm 2 is greedy: the next entry did not fit.
      EXPECT_GT(bytes[s] + sizes[st[s + 1]], bmax) << "segment " << s;
    }
  }
  // Every key's bound stays inside the block holding it (the RocksDB plugin
  // reads one block per lookup).
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i > 0 && keys[i] == keys[i - 1]) continue;
    const lidx::Bound b = idx.Search(keys[i]);
    const size_t s = std::upper_bound(st.begin(), st.end(), i) - st.begin() - 1;
    ASSERT_GE(b.lo, st[s]) << "key #" << i;
    ASSERT_LE(b.hi, st[s + 1]) << "key #" << i;
  }
}

TEST(DobLix, BlocksRespectBmaxAndE) {
  for (const char* ds : {"uniform", "lognormal", "clustered", "duplicates"}) {
    for (uint64_t bmax : {256, 4096, 65536}) {
      for (uint64_t e : {2, 64}) CheckBlocks<false>(ds, bmax, e);
      CheckBlocks<true>(ds, bmax, 0);
    }
  }
}

TEST(DobLix, FixedEntryBytesDefaultIs72) {
  auto keys = MakeKeys<uint64_t>("dense", 10000, 7);
  lidx::DobPra<uint64_t> pra;  // dense keys: only bytes cut
  ASSERT_TRUE(pra.Build(keys.data(), keys.size(), nullptr).ok());
  // 4096 / 72 = 56 entries per block.
  const auto& st = pra.SegmentStarts();
  for (size_t s = 0; s + 2 < st.size(); ++s) EXPECT_EQ(st[s + 1] - st[s], 56u);

  lidx::DobPla<uint64_t> pla;
  ASSERT_TRUE(pla.Configure({{"entry_bytes", "1024"}}).ok());
  ASSERT_TRUE(pla.Build(keys.data(), keys.size(), nullptr).ok());
  EXPECT_EQ(pla.SegmentStarts()[1], 4u);
}

TEST(DobLix, PlaErrorCutsWithoutByteLimit) {
  // Lognormal keys with a huge B_max: segments are cut by E alone, so a
  // smaller E must give more segments, all within E.
  const uint64_t seed = Mix(BaseSeed(), "pla-e");
  auto keys = MakeKeys<uint64_t>("lognormal", 50000, seed);
  size_t prev = 0;
  for (uint64_t e : {256, 32, 4}) {
    lidx::DobPla<uint64_t> pla;
    ASSERT_TRUE(pla.Configure({{"max_error", std::to_string(e)},
                               {"max_block_bytes", "1000000000000"}})
                    .ok());
    ASSERT_TRUE(pla.Build(keys.data(), keys.size(), nullptr).ok());
    EXPECT_GT(pla.Segments(), prev) << "E=" << e << " seed=" << seed;
    prev = pla.Segments();
    for (size_t s = 0; s < pla.Segments(); ++s) {
      ASSERT_LE(pla.SegmentError(s), e + 1) << "E=" << e << " seed=" << seed;
    }
  }
}

TEST(DobLix, PraRecordsItsOwnErrorAndPlaUsesLessMemory) {
  const uint64_t seed = Mix(BaseSeed(), "pra-mem");
  auto keys = MakeKeys<uint64_t>("uniform", 30000, seed);
  lidx::DobPla<uint64_t> pla;
  lidx::DobPra<uint64_t> pra;
  ASSERT_TRUE(pla.Build(keys.data(), keys.size(), nullptr).ok());
  ASSERT_TRUE(pra.Build(keys.data(), keys.size(), nullptr).ok());
  // Uniform keys, fixed sizes: both cut by bytes only, same blocks.
  EXPECT_EQ(pla.SegmentStarts(), pra.SegmentStarts());
  // PRA stores an intercept per block on top of PLA's point and slope.
  EXPECT_LT(pla.MemoryBytes(), pra.MemoryBytes());
  // E' is the real worst error of each regression: some key attains it.
  for (size_t s = 0; s < pra.Segments(); ++s) {
    EXPECT_LT(pra.SegmentError(s), 56u);
  }
}

TEST(DobLix, RejectsBadKnobs) {
  lidx::DobPla<uint64_t> pla;
  lidx::Status s = pla.Configure({{"epsilon", "3"}});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("epsilon"), std::string::npos) << s.message();
  EXPECT_FALSE(pla.Configure({{"max_error", "0"}}).ok());  // pla needs E >= 1
  EXPECT_FALSE(pla.Configure({{"max_block_bytes", "x"}}).ok());
  lidx::DobPra<uint64_t> pra;
  EXPECT_TRUE(pra.Configure({{"max_error", "0"}}).ok());
}

TEST(DobLix, DeserializeRejectsOtherIdAndInconsistentArrays) {
  auto keys = MakeKeys<uint64_t>("uniform", 3000, 3);
  lidx::DobPla<uint64_t> pla;
  ASSERT_TRUE(pla.Build(keys.data(), keys.size(), nullptr).ok());
  std::string bytes;
  pla.Serialize(&bytes);
  lidx::DobPra<uint64_t> pra;
  EXPECT_FALSE(pra.Deserialize(bytes).ok());
  lidx::DobPla<lidx::u128> wide;
  EXPECT_FALSE(wide.Deserialize(bytes).ok());
  // Flip the stored n: the starts array no longer ends at n.
  lidx::DobPla<uint64_t> copy;
  std::string bad = bytes;
  const size_t n_off = 4 + 1 + 3 + 4 + 1 + 4 * 8;
  bad[n_off] ^= 1;
  EXPECT_FALSE(copy.Deserialize(bad).ok());
}

}  // namespace
}  // namespace lidx_test

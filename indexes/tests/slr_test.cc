// SLR (slr.h). The shared harness proves the bound contract, serialization
// and memory per knob setting; these tests pin the paper's behaviour:
// equal-size segment counts and sizes, error-aware segments within the
// threshold or the fallback to binary search, minimum pairs, bad segments,
// and the last-mile knob.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "datasets.h"
#include "harness.h"
#include "lidx/slr.h"
#include "linear_test_util.h"

namespace lidx_test {
namespace {

TEST(Slr, HarnessAcrossKnobs) {
  const std::pair<const char*, lidx::Options> settings[] = {
      {"slr-eq", {{"segments", "1"}}},
      {"slr-eq", {{"segments", "7"}, {"last_mile", "linear"}}},
      {"slr-eq", {{"segments", "5000"}}},
      {"slr-eq", {{"bad_segments", "1"}, {"error_threshold", "10"}}},
      {"slr-ea", {{"error_threshold", "4"}, {"max_segments", "100000"}}},
      {"slr-ea", {{"error_threshold", "0"}, {"max_segments", "3000"}}},
      {"slr-ea", {{"min_pairs", "0"}, {"last_mile", "binary"}}},
  };
  for (const auto& [id, o] : settings) {
    for (const char* ds : kDatasets) {
      const uint64_t seed = Mix(BaseSeed(), ds);
      auto keys = MakeKeys<uint64_t>(ds, 4000, seed);
      CheckIndex<uint64_t>(id, o, keys, Label(ds, keys.size(), seed));
    }
  }
}

TEST(Slr, Harness128) {
  const std::pair<const char*, lidx::Options> settings[] = {
      {"slr-eq", {{"segments", "30"}}},
      {"slr-ea", {{"max_segments", "1000"}}},
  };
  for (const auto& [id, o] : settings) {
    for (const char* ds : {"uniform", "lognormal", "duplicates", "extremes"}) {
      const uint64_t seed = Mix(BaseSeed(), ds);
      auto keys = MakeKeys<lidx::u128>(ds, 3000, seed);
      // Keys that differ only in the low half, below double precision.
      for (auto& k : keys) k = (k << 64) | (k & 0xff);
      CheckIndex<lidx::u128>(id, o, keys,
                             Label(ds, keys.size(), seed) + " keys=u128");
    }
  }
}

TEST(Slr, EqualSizeSegmentsAreEqual) {
  auto keys = MakeKeys<uint64_t>("lognormal", 10007, 5);
  lidx::SlrEq<uint64_t> slr;
  ASSERT_TRUE(slr.Build(keys.data(), keys.size(), nullptr).ok());
  ASSERT_TRUE(slr.UsesModel());
  EXPECT_EQ(slr.Segments(), 20u);  // the paper's default
  const auto& st = slr.SegmentStarts();
  for (size_t s = 0; s + 1 < st.size(); ++s) {
    const size_t len = st[s + 1] - st[s];
    EXPECT_TRUE(len == 10007 / 20 || len == 10007 / 20 + 1) << len;
  }
  EXPECT_EQ(slr.LastMile(), lidx::LastMileKind::kExponential);
}

TEST(Slr, ErrorAwareSegmentsStayUnderThreshold) {
  for (const char* ds : {"uniform", "lognormal", "clustered", "duplicates"}) {
    const uint64_t seed = Mix(BaseSeed(), ds);
    auto keys = MakeKeys<uint64_t>(ds, 5000, seed);
    lidx::SlrEa<uint64_t> slr;
    ASSERT_TRUE(
        slr.Configure({{"error_threshold", "16"}, {"max_segments", "1000000"}})
            .ok());
    ASSERT_TRUE(slr.Build(keys.data(), keys.size(), nullptr).ok());
    ASSERT_TRUE(slr.UsesModel()) << ds;
    for (size_t s = 0; s < slr.Segments(); ++s) {
      ASSERT_LE(slr.SegmentError(s), 16u) << ds << " seed=" << seed;
    }
    EXPECT_EQ(CheckBuiltBounds(slr, keys, seed), 0u) << ds;
    EXPECT_EQ(slr.LastMile(), lidx::LastMileKind::kLinear);
    // Algorithm 1 splits only while needed: a looser threshold never needs
    // more segments.
    lidx::SlrEa<uint64_t> loose;
    ASSERT_TRUE(
        loose.Configure({{"error_threshold", "200"}, {"max_segments", "1000000"}})
            .ok());
    ASSERT_TRUE(loose.Build(keys.data(), keys.size(), nullptr).ok());
    EXPECT_LE(loose.Segments(), slr.Segments()) << ds;
  }
}

TEST(Slr, ErrorAwareFallsBackToBinarySearchOverBudget) {
  const uint64_t seed = Mix(BaseSeed(), "budget");
  auto keys = MakeKeys<uint64_t>("lognormal", 20000, seed);
  lidx::SlrEa<uint64_t> slr;  // threshold 100, at most 20 segments
  ASSERT_TRUE(slr.Configure({{"error_threshold", "1"}}).ok());
  ASSERT_TRUE(slr.Build(keys.data(), keys.size(), nullptr).ok());
  EXPECT_FALSE(slr.UsesModel());
  lidx::LastMileKind kind = lidx::LastMileKind::kLinear;
  const lidx::Bound b = slr.Search(keys[123], &kind);
  EXPECT_EQ(b.lo, 0u);
  EXPECT_EQ(b.hi, keys.size());
  EXPECT_EQ(kind, lidx::LastMileKind::kBinary);
  EXPECT_EQ(CheckBuiltBounds(slr, keys, seed), 0u);
}

// A gently curved run of keys (squares): least squares puts the worst error
// at an end key, and dividing there would peel one key per split (2,868
// segments here). Divided at the key farthest from the chord, six segments
// meet the paper's default threshold within its budget of 20.
TEST(Slr, ErrorAwareDividesCurvesWithinBudget) {
  std::vector<uint64_t> keys(5000);
  for (uint64_t i = 0; i < keys.size(); ++i) keys[i] = i * i * 1000;
  lidx::SlrEa<uint64_t> slr;  // threshold 100, at most 20 segments
  ASSERT_TRUE(slr.Build(keys.data(), keys.size(), nullptr).ok());
  ASSERT_TRUE(slr.UsesModel());
  EXPECT_LE(slr.Segments(), 8u);
  for (size_t s = 0; s < slr.Segments(); ++s) EXPECT_LE(slr.SegmentError(s), 100u);
  EXPECT_EQ(CheckBuiltBounds(slr, keys, 0), 0u);
}

TEST(Slr, MinimumPairs) {
  auto keys = MakeKeys<uint64_t>("uniform", 31, 1);
  for (const char* id : {"slr-eq", "slr-ea"}) {
    std::string err;
    auto idx = lidx::MakeIndex<uint64_t>(id, {}, &err);
    ASSERT_TRUE(idx->Build(keys.data(), keys.size(), nullptr).ok());
    EXPECT_EQ(idx->Stats().segments, 0u) << id << ": 31 < min_pairs=32";
    EXPECT_EQ(CheckBuiltBounds(*idx, keys, 1), 0u);
    keys.push_back(~uint64_t{0});
    ASSERT_TRUE(idx->Build(keys.data(), keys.size(), nullptr).ok());
    EXPECT_GT(idx->Stats().segments, 0u) << id << ": 32 keys get a model";
    keys.pop_back();
  }
}

TEST(Slr, BadSegmentsAreBinarySearchedWhole) {
  const uint64_t seed = Mix(BaseSeed(), "bad");
  auto keys = MakeKeys<uint64_t>("clustered", 20000, seed);
  lidx::SlrEq<uint64_t> plain, bad;
  ASSERT_TRUE(plain.Configure({{"error_threshold", "50"}}).ok());
  ASSERT_TRUE(bad.Configure({{"error_threshold", "50"}, {"bad_segments", "1"}}).ok());
  ASSERT_TRUE(plain.Build(keys.data(), keys.size(), nullptr).ok());
  ASSERT_TRUE(bad.Build(keys.data(), keys.size(), nullptr).ok());
  ASSERT_EQ(plain.SegmentStarts(), bad.SegmentStarts());
  size_t bad_count = 0;
  const auto& st = bad.SegmentStarts();
  for (size_t s = 0; s < bad.Segments(); ++s) {
    const bool is_bad = plain.SegmentError(s) > 50;
    bad_count += is_bad;
    EXPECT_EQ(bad.SegmentError(s) == UINT32_MAX, is_bad) << "segment " << s;
    // A key strictly inside the segment: its bound is the segment, binary.
    const size_t i = st[s] + (st[s + 1] - st[s]) / 2;
    if (keys[i] == keys[st[s]]) continue;
    lidx::LastMileKind kind;
    const lidx::Bound b = bad.Search(keys[i], &kind);
    if (is_bad) {
      EXPECT_EQ(b.lo, st[s]);
      EXPECT_EQ(b.hi, st[s + 1]);
      EXPECT_EQ(kind, lidx::LastMileKind::kBinary);
    } else {
      EXPECT_EQ(kind, lidx::LastMileKind::kExponential);
    }
  }
  EXPECT_GT(bad_count, 0u) << "dataset too easy to exercise bad segments";
  EXPECT_EQ(CheckBuiltBounds(bad, keys, seed), 0u);
}

TEST(Slr, KnobsAndLastMile) {
  lidx::SlrEq<uint64_t> eq;
  lidx::Status s = eq.Configure({{"last_mile", "quadratic"}});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("last_mile"), std::string::npos);
  s = eq.Configure({{"max_segments", "3"}});  // an slr-ea knob
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("max_segments"), std::string::npos);
  lidx::SlrEa<uint64_t> ea;
  EXPECT_FALSE(ea.Configure({{"segments", "3"}}).ok());
  ASSERT_TRUE(ea.Configure({{"last_mile", "exponential"}}).ok());
  EXPECT_EQ(ea.LastMile(), lidx::LastMileKind::kExponential);
  // The kind survives serialization.
  auto keys = MakeKeys<uint64_t>("dense", 1000, 2);
  ASSERT_TRUE(ea.Build(keys.data(), keys.size(), nullptr).ok());
  std::string bytes;
  ea.Serialize(&bytes);
  lidx::SlrEa<uint64_t> copy;
  ASSERT_TRUE(copy.Deserialize(bytes).ok());
  EXPECT_EQ(copy.LastMile(), lidx::LastMileKind::kExponential);
  lidx::SlrEq<uint64_t> other;
  EXPECT_FALSE(other.Deserialize(bytes).ok());
}

}  // namespace
}  // namespace lidx_test

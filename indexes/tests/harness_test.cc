// Runs the property harness over every registered index and every dataset,
// with default knobs, for 64-bit keys; plus a 128-bit smoke pass.
#include <gtest/gtest.h>

#include <cctype>
#include <tuple>

#include "datasets.h"
#include "harness.h"
#include "lidx/registry.h"

namespace lidx_test {
namespace {

class AllIndexes
    : public ::testing::TestWithParam<std::tuple<std::string, Dataset>> {};

TEST_P(AllIndexes, Contract64) {
  const auto& [id, ds] = GetParam();
  uint64_t seed = Mix(BaseSeed(), ds.name);
  auto keys = MakeKeys<uint64_t>(ds.name, ds.n, seed);
  CheckIndex<uint64_t>(id, {}, keys,
                       "dataset=" + ds.name + " n=" + std::to_string(ds.n) +
                           " seed=" + std::to_string(seed));
}

TEST_P(AllIndexes, Contract128Smoke) {
  const auto& [id, ds] = GetParam();
  if (ds.n > 20000) GTEST_SKIP() << "128-bit pass is a smoke test";
  uint64_t seed = Mix(BaseSeed(), ds.name);
  auto keys = MakeKeys<lidx::u128>(ds.name, ds.n, seed);
  if (ds.name != "str_prefix16") {
    // Spread 64-bit datasets over the high half, with a low-half tail, so
    // the 128-bit arithmetic is exercised.
    for (auto& k : keys) k = (k << 64) | (k & 0xffff);
  }
  CheckIndex<lidx::u128>(id, {}, keys,
                         "dataset=" + ds.name + " n=" + std::to_string(ds.n) +
                             " seed=" + std::to_string(seed) + " keys=u128");
}

std::string Name(
    const ::testing::TestParamInfo<std::tuple<std::string, Dataset>>& info) {
  const auto& [id, ds] = info.param;
  std::string name = id + "_" + ds.name + "_" + std::to_string(ds.n);
  // gtest names allow [A-Za-z0-9_] only; ids may hold '-' ("slr-eq").
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Registry, AllIndexes,
                         ::testing::Combine(
                             ::testing::ValuesIn(lidx::RegisteredIds()),
                             ::testing::ValuesIn(TestDatasets())),
                         Name);

TEST(Registry, UnknownIdAndKnobAreRejectedByName) {
  std::string err;
  EXPECT_EQ(lidx::MakeIndex<uint64_t>("nope", {}, &err), nullptr);
  EXPECT_NE(err.find("nope"), std::string::npos) << err;
  for (const std::string& id : lidx::RegisteredIds()) {
    err.clear();
    EXPECT_EQ(lidx::MakeIndex<uint64_t>(id, {{"bogus_knob", "1"}}, &err),
              nullptr)
        << id;
    EXPECT_NE(err.find("bogus_knob"), std::string::npos) << id << ": " << err;
  }
}

// The metadata engines and studies read (IndexInfo) says what the index
// does: Exact() as declared, the boundary's knobs accepted, and the bound
// they give no wider than the boundary promises (error-bounded: 2e+2).
TEST(Registry, MetadataMatchesTheIndexes) {
  auto keys = MakeKeys<uint64_t>("uniform", 20000, 7);
  for (const lidx::IndexInfo& info : lidx::Infos()) {
    SCOPED_TRACE(std::string(info.id));
    ASSERT_NE(lidx::FindIndexInfo(info.id), nullptr);
    EXPECT_EQ(lidx::FindIndexInfo(info.id)->label, info.label);
    EXPECT_TRUE(info.family == "clustered" || info.family == "unclustered" ||
                info.family == "other");
    EXPECT_FALSE(info.label.empty());
    EXPECT_EQ(info.knob.empty(), info.boundary == lidx::BoundaryKind::kNone);
    // A variant names another registered index, of its own family.
    if (!info.variant_of.empty()) {
      const lidx::IndexInfo* base = lidx::FindIndexInfo(info.variant_of);
      ASSERT_NE(base, nullptr) << info.variant_of;
      EXPECT_EQ(base->family, info.family);
      EXPECT_TRUE(base->variant_of.empty());
    }
    std::string err;
    auto idx = lidx::MakeIndex<uint64_t>(info.id, lidx::BoundaryKnobs(info, 16, keys.size()), &err);
    ASSERT_NE(idx, nullptr) << err;
    EXPECT_EQ(idx->Exact(), info.exact);
    if (info.boundary != lidx::BoundaryKind::kError) continue;
    ASSERT_TRUE(idx->Build(keys.data(), keys.size(), nullptr).ok());
    for (size_t i = 0; i < keys.size(); i += 97) {
      lidx::Bound b = idx->Search(keys[i]);
      EXPECT_LE(b.hi - b.lo, 16u + 2) << "key " << i;
    }
  }
  EXPECT_EQ(lidx::FindIndexInfo("nope"), nullptr);
}

TEST(Registry, SerializedIndexOfOneIdIsRejectedByAnother) {
  auto ids = lidx::RegisteredIds();
  if (ids.size() < 2) GTEST_SKIP();
  auto keys = MakeKeys<uint64_t>("uniform", 1000, 1);
  std::string err, bytes;
  auto a = lidx::MakeIndex<uint64_t>(ids[0], {}, &err);
  ASSERT_TRUE(a->Build(keys.data(), keys.size(), nullptr).ok());
  a->Serialize(&bytes);
  for (size_t i = 1; i < ids.size(); ++i) {
    auto b = lidx::MakeIndex<uint64_t>(ids[i], {}, &err);
    lidx::Status s = b->Deserialize(bytes);
    EXPECT_FALSE(s.ok()) << ids[i] << " accepted " << ids[0] << "'s bytes";
  }
}

}  // namespace
}  // namespace lidx_test

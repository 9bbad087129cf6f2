// The harness must be able to fail: feed it indexes that break one promise
// each and check that it reports exactly that.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "datasets.h"
#include "harness.h"
#include "lidx/fp.h"

namespace lidx_test {
namespace {

enum class Flaw { kNarrowBound, kLiesAboutMemory, kLosesStateOnLoad };

// Fence pointers with one deliberate flaw.
class Flawed final : public lidx::Index<uint64_t> {
 public:
  explicit Flawed(Flaw f) : flaw_(f) { fp_.Configure({{"entries", "8"}}); }
  std::string_view Id() const override { return "flawed"; }
  bool Exact() const override { return false; }
  lidx::Status Build(const uint64_t* k, size_t n, const uint32_t* s) override {
    return fp_.Build(k, n, s);
  }
  lidx::Bound Search(uint64_t q) const override {
    lidx::Bound b = fp_.Search(q);
    if (flaw_ == Flaw::kNarrowBound && b.hi > b.lo + 1) b.hi--;
    if (flaw_ == Flaw::kLosesStateOnLoad && loaded_) b.pos = b.lo = b.hi;
    return b;
  }
  void Serialize(std::string* out) const override { fp_.Serialize(out); }
  lidx::Status Deserialize(std::string_view in) override {
    loaded_ = true;
    return fp_.Deserialize(in);
  }
  size_t MemoryBytes() const override {
    return flaw_ == Flaw::kLiesAboutMemory ? sizeof(*this) : fp_.MemoryBytes() + sizeof(*this) - sizeof(fp_);
  }
  lidx::BuildStats Stats() const override { return fp_.Stats(); }

 private:
  Flaw flaw_;
  bool loaded_ = false;
  lidx::FenceIndex<uint64_t> fp_;
};

// Runs the harness on a flawed index and returns what it reported.
std::string Reported(Flaw f, const std::vector<uint64_t>& keys) {
  ::testing::TestPartResultArray results;
  {
    ::testing::ScopedFakeTestPartResultReporter intercept(
        ::testing::ScopedFakeTestPartResultReporter::
            INTERCEPT_ONLY_CURRENT_THREAD,
        &results);
    CheckIndexWith<uint64_t>(
        "flawed", {}, [f] { return std::make_unique<Flawed>(f); }, keys,
        "dataset=uniform n=5000 seed=1");
  }
  std::string all;
  for (int i = 0; i < results.size(); ++i) {
    all += results.GetTestPartResult(i).message();
    all += "\n";
  }
  return all;
}

TEST(HarnessSelfTest, CatchesEachFlaw) {
  std::vector<uint64_t> keys = MakeKeys<uint64_t>("uniform", 5000, 1);
  std::string r = Reported(Flaw::kNarrowBound, keys);
  EXPECT_NE(r.find("lower_bound="), std::string::npos) << r;
  // The failure names the replay seed and dataset seed.
  EXPECT_NE(r.find("LIDX_TEST_SEED="), std::string::npos) << r;
  EXPECT_NE(r.find("seed=1"), std::string::npos) << r;
  r = Reported(Flaw::kLiesAboutMemory, keys);
  EXPECT_NE(r.find("the allocator saw"), std::string::npos) << r;
  r = Reported(Flaw::kLosesStateOnLoad, keys);
  EXPECT_NE(r.find("round-tripped index differs"), std::string::npos) << r;
}

}  // namespace
}  // namespace lidx_test

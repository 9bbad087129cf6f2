// The differential stream against an in-memory engine: a correct engine
// passes it and digests deterministically; an engine that forgets a delete,
// or answers one scan differently, is caught by the verifier or the digest.
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "key_codec.h"
#include "map_engine.h"
#include "runner.h"

namespace lsmbench {
namespace {

// Ignores deletes of one key: a table that resurrects a deleted entry.
class ForgetfulEngine : public MapEngine {
 public:
  explicit ForgetfulEngine(uint64_t key) : key_(key) {}
  bool Delete(std::string_view k, std::string* e) override {
    uint64_t decoded = 0;
    if (KeyCodec().Decode(k, &decoded) && decoded == key_) return true;
    return MapEngine::Delete(k, e);
  }

 private:
  uint64_t key_;
};

class DiffStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (uint64_t k = 1; k < 3000; k++) spec_.keys.push_back(k * 7 + (k % 5));
    spec_.progress = false;
    spec_.digest = true;
    spec_.settle_every = 1000;
    spec_.ops = DiffStream(spec_.keys, 4000, 3);
    path_ = ::testing::TempDir() + "/diff_stream_test_" + std::to_string(getpid()) + ".jsonl";
  }
  // Runs the stream; returns the check record.
  nlohmann::json RunWith(Engine* e, RunResult* r) {
    std::string err;
    RunLog log;
    EXPECT_TRUE(log.Open(path_, &err)) << err;
    *r = lsmbench::Run(e, spec_, &log);
    EXPECT_TRUE(log.Finish("ok", &err)) << err;
    std::ifstream in(path_);
    std::string line;
    nlohmann::json check;
    while (std::getline(in, line)) {
      auto rec = nlohmann::json::parse(line);
      if (rec["type"] == "check") check = rec;
    }
    return check;
  }
  RunSpec spec_;
  std::string path_;
};

TEST_F(DiffStreamTest, CoversEveryKindOfOperationAndTheKeySpaceEnds) {
  int kinds[kOpTypes] = {};
  bool zero = false, max = false;
  for (const Op& op : spec_.ops) {
    kinds[static_cast<int>(op.type)]++;
    EXPECT_EQ(op.expect, Expect::kUnknown);
    zero |= op.key == 0;
    max |= op.key == UINT64_MAX;
  }
  for (OpType t : {OpType::kGet, OpType::kUpdate, OpType::kInsert, OpType::kScan, OpType::kDelete}) {
    EXPECT_GT(kinds[static_cast<int>(t)], 100) << OpName(t);
  }
  EXPECT_TRUE(zero && max);
  EXPECT_EQ(DiffStream(spec_.keys, 4000, 3).size(), spec_.ops.size());
}

TEST_F(DiffStreamTest, CorrectEngineAgreesAndDigestIsDeterministic) {
  RunResult r1, r2;
  MapEngine a, b;
  nlohmann::json c1 = RunWith(&a, &r1), c2 = RunWith(&b, &r2);
  EXPECT_EQ(r1.error, "");
  EXPECT_EQ(r1.wrong, 0u);
  ASSERT_TRUE(c1.contains("answers_digest"));
  EXPECT_EQ(c1["answers_digest"], c2["answers_digest"]);
  EXPECT_GT(c1["answers_digested"].get<uint64_t>(), 2000u);
}

TEST_F(DiffStreamTest, ResurrectedDeleteIsAWrongAnswer) {
  // The first deleted key that was present before its delete and is read
  // (or scanned) afterwards without being written again.
  auto it = std::find_if(spec_.ops.begin(), spec_.ops.end(), [&](const Op& op) {
    return op.type == OpType::kDelete &&
           std::binary_search(spec_.keys.begin(), spec_.keys.end(), op.key);
  });
  ASSERT_NE(it, spec_.ops.end());
  uint64_t victim = it->key;
  spec_.ops.insert(it + 1, {OpType::kGet, Expect::kUnknown, 0, victim});
  ForgetfulEngine e(victim);
  RunResult r;
  RunWith(&e, &r);
  EXPECT_GE(r.wrong, 1u);
}

TEST_F(DiffStreamTest, DifferentAnswersGiveDifferentDigests) {
  RunResult r;
  MapEngine a;
  std::string d1 = RunWith(&a, &r)["answers_digest"];
  spec_.ops.back() = {OpType::kScan, Expect::kUnknown, 3, 0};
  MapEngine b;
  std::string d2 = RunWith(&b, &r)["answers_digest"];
  EXPECT_NE(d1, d2);
}

}  // namespace
}  // namespace lsmbench

// The runner and verifier against an in-memory engine: a correct one must
// pass every check, and each kind of wrong answer must be caught.
#include "runner.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "key_codec.h"
#include "map_engine.h"
#include "records.h"

namespace lsmbench {

// Corrupts exactly one answer the way a broken index would.
class FaultyEngine : public MapEngine {
 public:
  enum class Fault { kWrongValue, kMissingKey, kPhantomKey, kScanSkips };
  FaultyEngine(Fault fault, uint64_t key) : fault_(fault), key_(key) {}
  bool Get(std::string_view k, std::string* v, bool* found, std::string* e) override {
    MapEngine::Get(k, v, found, e);
    uint64_t decoded = 0;
    if (KeyCodec().Decode(k, &decoded) && decoded == key_) {
      if (fault_ == Fault::kWrongValue && *found) (*v)[20] ^= 1;
      if (fault_ == Fault::kMissingKey) *found = false;
      if (fault_ == Fault::kPhantomKey && !*found) {
        *found = true;
        MakeValue(key_, 0, 64, v);
      }
    }
    return true;
  }
  bool Scan(std::string_view k, size_t n, std::vector<KV>* out, std::string* e) override {
    MapEngine::Scan(k, n + 1, out, e);
    if (fault_ == Fault::kScanSkips && out->size() > 1) out->erase(out->begin() + 1);
    if (out->size() > n) out->resize(n);
    return true;
  }

 private:
  Fault fault_;
  uint64_t key_;
};

class RunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (uint64_t k = 0; k < 2000; k++) spec_.keys.push_back(k * 10 + (k % 3));
    spec_.keys.push_back(UINT64_MAX);
    spec_.progress = false;
    std::string err;
    EXPECT_TRUE(PointLookups(spec_.keys, 3000, 0.25, 1, &spec_.ops, &err)) << err;
    path_ = ::testing::TempDir() + "/runner_test_" + std::to_string(getpid()) + ".jsonl";
  }
  RunResult RunWith(Engine* e) {
    std::string err;
    RunLog log;
    EXPECT_TRUE(log.Open(path_, &err)) << err;
    RunResult r = lsmbench::Run(e, spec_, &log);
    EXPECT_TRUE(log.Finish("ok", &err)) << err;
    return r;
  }
  RunSpec spec_;
  std::string path_;
};

TEST_F(RunnerTest, CorrectEngineHasNoWrongAnswers) {
  MapEngine e;
  spec_.ops.push_back({OpType::kGet, Expect::kPresent, 0, UINT64_MAX});
  spec_.ops.push_back({OpType::kScan, Expect::kUnknown, 50, 0});
  spec_.ops.push_back({OpType::kScan, Expect::kUnknown, 50, UINT64_MAX - 1});
  spec_.ops.push_back({OpType::kInsert, Expect::kUnknown, 0, 15});
  spec_.ops.push_back({OpType::kUpdate, Expect::kUnknown, 0, 11});
  spec_.ops.push_back({OpType::kReadModifyWrite, Expect::kUnknown, 0, 22});
  spec_.ops.push_back({OpType::kGet, Expect::kUnknown, 0, 11});
  spec_.ops.push_back({OpType::kGet, Expect::kUnknown, 0, 22});
  spec_.ops.push_back({OpType::kGet, Expect::kUnknown, 0, 15});
  spec_.ops.push_back({OpType::kScan, Expect::kUnknown, 5, 11});
  RunResult r = RunWith(&e);
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.wrong, 0u);
  EXPECT_EQ(r.verified, 3000u + 8 + EdgeProbes(spec_.keys).size());  // puts are not answers
}

TEST_F(RunnerTest, EachInjectedWrongAnswerIsCaught) {
  uint64_t present = spec_.ops[0].expect == Expect::kPresent ? spec_.ops[0].key : spec_.keys[5];
  spec_.ops.push_back({OpType::kGet, Expect::kPresent, 0, present});
  spec_.ops.push_back({OpType::kGet, Expect::kAbsent, 0, 1});  // keys are 0, 11, 22, ...
  using F = FaultyEngine::Fault;
  for (auto [fault, key] : {std::pair{F::kWrongValue, present}, std::pair{F::kMissingKey, present},
                            std::pair{F::kPhantomKey, uint64_t{1}}}) {
    FaultyEngine e(fault, key);
    RunResult r = RunWith(&e);
    EXPECT_GE(r.wrong, 1u) << "fault " << static_cast<int>(fault);
  }
  spec_.ops = {{OpType::kScan, Expect::kUnknown, 10, 100}};
  FaultyEngine skips(F::kScanSkips, 0);
  EXPECT_GE(RunWith(&skips).wrong, 1u);
}

TEST_F(RunnerTest, EdgeProbesCatchWrongAnswersTheStreamNeverAsks) {
  spec_.ops.clear();
  using F = FaultyEngine::Fault;
  FaultyEngine max_missing(F::kMissingKey, UINT64_MAX);  // the last loaded key
  EXPECT_EQ(RunWith(&max_missing).wrong, 1u);
  FaultyEngine zero_phantom(F::kPhantomKey, 0 + 1);  // 1 is absent; keys are 0, 11, ...
  EXPECT_EQ(RunWith(&zero_phantom).wrong, 1u);
}

TEST_F(RunnerTest, LogHasEveryRecordTypeAndEndsWithEnd) {
  MapEngine e;
  RunWith(&e);
  std::ifstream in(path_);
  std::map<std::string, int> types;
  std::string line, last;
  while (std::getline(in, line)) {
    last = nlohmann::json::parse(line)["type"];
    types[last]++;
  }
  EXPECT_EQ(types["phase"], 3);
  EXPECT_EQ(types["latency"], 3);  // get all/found/absent
  EXPECT_EQ(types["breakdown"], 1);
  EXPECT_EQ(types["engine"], 1);
  EXPECT_EQ(types["check"], 1);
  EXPECT_EQ(last, "end");
}

// lsmbench --phase load then --phase run: the run skips load and settle and
// answers from what the earlier load left; without that load it fails.
TEST_F(RunnerTest, RunWithoutLoadAnswersFromTheDatabaseALoadLeft) {
  auto phases = [this] {
    std::ifstream in(path_);
    std::vector<std::string> out;
    std::string line;
    while (std::getline(in, line)) {
      nlohmann::json r = nlohmann::json::parse(line);
      if (r["type"] == "phase") out.push_back(r["phase"]);
    }
    return out;
  };
  MapEngine loaded;
  std::vector<Op> ops = spec_.ops;
  spec_.ops.clear();  // --phase load
  EXPECT_EQ(RunWith(&loaded).wrong, 0u);
  EXPECT_THAT(phases(), ::testing::ElementsAre("load", "settle", "run"));
  spec_.ops = ops;  // --phase run, same engine state
  spec_.load = false;
  RunResult r = RunWith(&loaded);
  EXPECT_EQ(r.wrong, 0u);
  EXPECT_GT(r.verified, 3000u);
  EXPECT_THAT(phases(), ::testing::ElementsAre("run"));
  MapEngine empty;  // no load before: present keys are missing
  EXPECT_GT(RunWith(&empty).wrong, 0u);
}

// A map engine that interleaves and records, in one shared list, which
// database served each get and when it was paused or resumed.
class TurnEngine : public MapEngine {
 public:
  TurnEngine(char id, std::string* calls) : id_(id), calls_(calls) {}
  bool Interleaves() const override { return true; }
  void Pause() override { calls_->push_back('P'); }
  void Resume() override { calls_->push_back('R'); }
  bool Get(std::string_view k, std::string* v, bool* found, std::string* e) override {
    calls_->push_back(id_);
    return MapEngine::Get(k, v, found, e);
  }

 private:
  char id_;
  std::string* calls_;
};

class InterleaveTest : public RunnerTest {
 protected:
  // Loads every key into each engine, then interleaves the stream on them.
  std::vector<RunResult> Interleaved(std::vector<Engine*> engines, size_t batch, std::string* err) {
    for (Engine* e : engines) {
      for (uint64_t k : spec_.keys) {
        std::string key, value;
        spec_.codec.Encode(k, &key);
        MakeValue(k, 0, spec_.value_bytes, &value);
        e->Put(key, value, err);
      }
    }
    spec_.load = false;
    logs_.clear();
    std::vector<Member> members;
    for (size_t i = 0; i < engines.size(); i++) {
      logs_.push_back(std::make_unique<RunLog>());
      EXPECT_TRUE(logs_.back()->Open(path_ + std::to_string(i), err)) << *err;
      members.push_back({engines[i], "db" + std::to_string(i), logs_.back().get()});
    }
    return Interleave(members, spec_, batch, err);
  }
  std::vector<std::unique_ptr<RunLog>> logs_;
};

TEST_F(InterleaveTest, EachDatabaseAnswersTheWholeStreamInTurnsOfABatch) {
  spec_.ops.resize(25);
  std::string calls, err;
  TurnEngine a('a', &calls), b('b', &calls);
  std::vector<RunResult> r = Interleaved({&a, &b}, 10, &err);
  ASSERT_EQ(err, "");
  const size_t probes = EdgeProbes(spec_.keys).size();
  for (const RunResult& one : r) {
    EXPECT_EQ(one.wrong, 0u);
    EXPECT_EQ(one.verified, 25u + probes);
  }
  // Turns: probes of a, of b; then batches of 10, 10 and 5, the first
  // database of a turn rotating; each turn between Resume and Pause.
  std::string gets;
  for (char c : calls) {
    if (c == 'a' || c == 'b') gets += c;
  }
  size_t probe_gets = 0;
  for (const Op& op : EdgeProbes(spec_.keys)) probe_gets += op.type == OpType::kGet;
  std::string want = std::string(probe_gets, 'a') + std::string(probe_gets, 'b') + std::string(10, 'a') +
                     std::string(10, 'b') + std::string(10, 'b') + std::string(10, 'a') +
                     std::string(5, 'a') + std::string(5, 'b');
  EXPECT_EQ(gets, want);
  EXPECT_EQ(calls.substr(0, probe_gets + 2), "R" + std::string(probe_gets, 'a') + "P");
  EXPECT_EQ(calls.find("ab"), std::string::npos) << "a turn ends with Pause before the next";
  EXPECT_EQ(calls.find("ba"), std::string::npos);
}

TEST_F(InterleaveTest, AWrongAnswerIsItsDatabasesAlone) {
  std::string calls, err;
  TurnEngine good('a', &calls);
  uint64_t present = spec_.keys[5];
  spec_.ops.push_back({OpType::kGet, Expect::kPresent, 0, present});
  class WrongTurn : public FaultyEngine {
   public:
    using FaultyEngine::FaultyEngine;
    bool Interleaves() const override { return true; }
  } bad(FaultyEngine::Fault::kMissingKey, present);
  std::vector<RunResult> r = Interleaved({&good, &bad}, 100, &err);
  ASSERT_EQ(err, "");
  EXPECT_EQ(r[0].wrong, 0u);
  EXPECT_GE(r[1].wrong, 1u);
}

TEST_F(InterleaveTest, AnEngineThatDoesNotInterleaveIsRefused) {
  std::string calls, err;
  TurnEngine a('a', &calls);
  MapEngine plain;  // Interleaves() is false
  std::vector<RunResult> r = Interleaved({&a, &plain}, 10, &err);
  EXPECT_THAT(err, ::testing::HasSubstr("does not interleave"));
  EXPECT_EQ(calls.find('a'), std::string::npos) << "nothing ran";
}

// A turn-taking engine that says how many background jobs it began.
class JobsEngine : public TurnEngine {
 public:
  JobsEngine(char id, std::string* calls, int64_t jobs) : TurnEngine(id, calls), jobs_(jobs) {}
  int64_t BackgroundJobs() override { return jobs_; }

 private:
  int64_t jobs_;
};

TEST_F(InterleaveTest, AWritingRunInterleavesOnlyWhereItsBackgroundJobsAreCounted) {
  spec_.ops.resize(20);
  spec_.ops.push_back({OpType::kInsert, Expect::kUnknown, 0, 15});
  std::string calls, err;
  TurnEngine a('a', &calls), b('b', &calls);  // BackgroundJobs() is -1
  Interleaved({&a, &b}, 10, &err);
  EXPECT_THAT(err, ::testing::HasSubstr("cannot tell its flushes and compactions"));
  EXPECT_EQ(calls.find('a'), std::string::npos) << "nothing ran";
  err.clear();
  JobsEngine c('c', &calls, 0), d('d', &calls, 0);
  for (const RunResult& r : Interleaved({&c, &d}, 10, &err)) EXPECT_EQ(r.wrong, 0u);
  EXPECT_EQ(err, "");
}

TEST_F(InterleaveTest, AWritingRunWhoseWritesLeftTheMemtableFails) {
  spec_.ops.resize(20);
  spec_.ops.push_back({OpType::kInsert, Expect::kUnknown, 0, 15});
  std::string calls, err;
  JobsEngine a('a', &calls, 0), flushed('b', &calls, 1);
  std::vector<RunResult> r = Interleaved({&a, &flushed}, 10, &err);
  EXPECT_THAT(err, ::testing::HasSubstr("1 flushes or compactions began during an interleaved run"));
  EXPECT_THAT(r[1].error, ::testing::HasSubstr("run it alone"));
  err.clear();
  spec_.ops.pop_back();  // read-only: background jobs do not matter
  Interleaved({&a, &flushed}, 10, &err);
  EXPECT_EQ(err, "");
}

// The records of one type in a finished log.
std::vector<nlohmann::json> Records(const std::string& path, const std::string& type) {
  std::ifstream in(path);
  std::vector<nlohmann::json> out;
  std::string line;
  while (std::getline(in, line)) {
    nlohmann::json r = nlohmann::json::parse(line);
    if (r["type"] == type) out.push_back(r);
  }
  return out;
}

// A map engine whose gets take a few milliseconds: a run that a time
// limit stops long before its last op on any machine.
class SlowEngine : public TurnEngine {
 public:
  using TurnEngine::TurnEngine;
  bool Get(std::string_view k, std::string* v, bool* found, std::string* e) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return TurnEngine::Get(k, v, found, e);
  }
};

// What a run's records say of its ops: the run phase's and the gets'
// latency count, which must agree.
uint64_t OpsLogged(const std::string& path, nlohmann::json* run_phase) {
  for (const nlohmann::json& p : Records(path, "phase")) {
    if (p["phase"] == "run") *run_phase = p;
  }
  uint64_t gets = 0;
  for (const nlohmann::json& l : Records(path, "latency")) {
    if (l["op"] == "get" && l["subset"] == "all") gets = l["count"];
  }
  EXPECT_EQ(gets, (*run_phase)["ops"].get<uint64_t>());
  return gets;
}

TEST_F(RunnerTest, ATimeLimitStopsTheRunAndItsRecordsCountTheOpsDone) {
  std::string calls;
  SlowEngine e('s', &calls);
  spec_.max_run_ns = 200 * 1000000ull;  // 200 ms of 3000 gets of >= 5 ms: at most 41 ops
  RunResult r = RunWith(&e);
  EXPECT_TRUE(r.time_limited);
  EXPECT_GE(r.ops_done, 1u);
  EXPECT_LE(r.ops_done, 41u);
  EXPECT_EQ(r.wrong, 0u);
  nlohmann::json phase;
  EXPECT_EQ(OpsLogged(path_, &phase), r.ops_done);
  EXPECT_EQ(phase["ops_planned"], 3000u);
  EXPECT_EQ(phase["time_limited"], true);
  EXPECT_DOUBLE_EQ(phase["time_limit_seconds"].get<double>(), 0.2);
  EXPECT_GE(phase["seconds"].get<double>(), 0.2);
  EXPECT_LT(phase["seconds"].get<double>(), 60.0);  // one op past the limit, on a very slow machine
  EXPECT_DOUBLE_EQ(phase["ops_per_sec"].get<double>(), r.ops_done / phase["seconds"].get<double>());
  nlohmann::json check = Records(path_, "check").at(0);
  EXPECT_EQ(check["verified"].get<uint64_t>(), r.ops_done + check["edge_probes"].get<uint64_t>());
}

TEST_F(RunnerTest, ALimitNotReachedRunsEveryOpAndSaysItHadOne) {
  MapEngine e;
  spec_.max_run_ns = 600 * 1000000000ull;
  RunResult r = RunWith(&e);
  EXPECT_FALSE(r.time_limited);
  EXPECT_EQ(r.ops_done, 3000u);
  nlohmann::json phase;
  EXPECT_EQ(OpsLogged(path_, &phase), 3000u);
  EXPECT_EQ(phase["ops_planned"], 3000u);
  EXPECT_EQ(phase["time_limited"], false);
  spec_.max_run_ns = 0;  // no limit: the phase record is as before it
  RunWith(&e);
  EXPECT_FALSE(OpsLogged(path_, &phase) != 3000u || phase.contains("ops_planned") ||
               phase.contains("time_limited"));
}

// Each member counts its own turns: the slow one stops at the limit and
// skips its turns, the fast one answers the whole stream.
TEST_F(InterleaveTest, AMemberPastItsTimeSkipsItsTurnsWhileTheOthersGoOn) {
  std::string calls, err;
  TurnEngine fast('a', &calls);
  SlowEngine slow('b', &calls);
  // 3000 map gets take milliseconds; 3000 slow ones at least 15 s.
  spec_.max_run_ns = 2 * 1000000000ull;
  std::vector<RunResult> r = Interleaved({&fast, &slow}, 10, &err);
  ASSERT_EQ(err, "");
  EXPECT_FALSE(r[0].time_limited);
  EXPECT_EQ(r[0].ops_done, 3000u);
  EXPECT_TRUE(r[1].time_limited);
  EXPECT_GE(r[1].ops_done, 1u);
  EXPECT_LE(r[1].ops_done, 401u);
  EXPECT_EQ(r[0].wrong + r[1].wrong, 0u);
  size_t probe_gets = 0;
  for (const Op& op : EdgeProbes(spec_.keys)) probe_gets += op.type == OpType::kGet;
  // the slow member served no get after its limit: its ops and its probes
  EXPECT_EQ(std::count(calls.begin(), calls.end(), 'b'), static_cast<long>(r[1].ops_done + probe_gets));
  EXPECT_EQ(std::count(calls.begin(), calls.end(), 'a'), static_cast<long>(3000 + probe_gets));
  for (size_t i = 0; i < 2; i++) {
    EXPECT_TRUE(logs_[i]->Finish("ok", &err)) << err;
    nlohmann::json phase;
    EXPECT_EQ(OpsLogged(path_ + std::to_string(i), &phase), r[i].ops_done);
    EXPECT_EQ(phase["time_limited"], i == 1);
    EXPECT_EQ(phase["ops_planned"], 3000u);
  }
}

TEST_F(RunnerTest, UnfinishedLogNeverAppearsUnderItsName) {
  std::string err;
  std::filesystem::remove(path_);
  {
    RunLog log;
    ASSERT_TRUE(log.Open(path_, &err));
    log.Write("run", {{"schema_version", 1}});
  }  // destroyed without Finish(), as when a run fails
  EXPECT_FALSE(std::filesystem::exists(path_));
  EXPECT_FALSE(std::filesystem::exists(path_ + ".tmp"));
}

}  // namespace lsmbench

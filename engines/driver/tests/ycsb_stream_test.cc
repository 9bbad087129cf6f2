// YCSB streams over a dataset: the mix is YCSB's, every key is the
// dataset's, inserts use held-out keys, and a correct engine passes every
// check under every core workload.
#include "ycsb_stream.h"

#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "map_engine.h"
#include "runner.h"

namespace lsmbench {

namespace {

std::vector<uint64_t> Keys(size_t n) {
  std::vector<uint64_t> keys;
  for (uint64_t i = 0; i < n; i++) keys.push_back(i * 7 + 3);
  return keys;
}

std::string Spec(const std::string& name) { return std::string(REPO_ROOT) + "/workloads/ycsb/" + name; }

}  // namespace

TEST(YcsbStream, WorkloadAMixesReadsAndUpdatesOverLoadedKeys) {
  auto keys = Keys(10000);
  YcsbStream s;
  std::string err;
  ASSERT_TRUE(MakeYcsbStream(keys, Spec("workloada"), {}, 20000, 42, Holdout{}, &s, &err)) << err;
  EXPECT_EQ(s.load_keys, keys);  // no inserts: nothing held out
  std::map<OpType, int> n;
  for (const Op& op : s.ops) {
    n[op.type]++;
    ASSERT_TRUE(std::binary_search(keys.begin(), keys.end(), op.key));
  }
  EXPECT_NEAR(n[OpType::kGet] / 20000.0, 0.5, 0.02);
  EXPECT_NEAR(n[OpType::kUpdate] / 20000.0, 0.5, 0.02);
  EXPECT_EQ(s.value_bytes, 1000u);  // YCSB's 10 fields x 100 bytes
  YcsbStream again;
  ASSERT_TRUE(MakeYcsbStream(keys, Spec("workloada"), {}, 20000, 42, Holdout{}, &again, &err));
  for (size_t i = 0; i < s.ops.size(); i++) ASSERT_EQ(s.ops[i].key, again.ops[i].key);
}

TEST(YcsbStream, InsertsUseHeldOutKeysOnly) {
  auto keys = Keys(10000);
  for (const char* order : {"hashed", "ordered"}) {
    YcsbStream s;
    std::string err;
    ASSERT_TRUE(MakeYcsbStream(keys, Spec("workloadd"), {std::string("insertorder=") + order},
                               5000, 7, Holdout{}, &s, &err))
        << err;
    std::set<uint64_t> loaded(s.load_keys.begin(), s.load_keys.end());
    std::set<uint64_t> inserted;
    uint64_t last = 0;
    for (const Op& op : s.ops) {
      if (op.type == OpType::kInsert) {
        EXPECT_EQ(loaded.count(op.key), 0u) << order;
        EXPECT_TRUE(std::binary_search(keys.begin(), keys.end(), op.key));
        if (std::string(order) == "ordered") {
          EXPECT_GT(op.key, last);
          EXPECT_GT(op.key, *loaded.rbegin());
          last = op.key;
        }
        inserted.insert(op.key);
      } else {
        // A read never names a key that is neither loaded nor inserted yet.
        EXPECT_TRUE(loaded.count(op.key) || inserted.count(op.key)) << order << " " << op.key;
      }
    }
    EXPECT_GT(inserted.size(), 100u);
  }
}

// Every mix of a study starts from one load: with one Holdout, a read-heavy
// and a write-only workload load the same keys and insert only keys it lacks,
// whatever their own seeds; a workload inserting more than the holdout was
// sized for is refused.
TEST(YcsbStream, OneHoldoutGivesEveryMixTheSameLoad) {
  auto keys = Keys(20000);
  const std::vector<std::string> read_heavy = {"updateproportion=0", "insertproportion=0.1"};
  const std::vector<std::string> write_only = {"updateproportion=0", "insertproportion=1"};
  Holdout holdout;
  holdout.share = 1.0;
  holdout.seed = 11;
  holdout.seeded = true;
  std::string err;
  YcsbStream heavy, only;
  ASSERT_TRUE(MakeYcsbStream(keys, Spec("doblix_read_heavy"), read_heavy, 4000, 1, holdout,
                             &heavy, &err))
      << err;
  ASSERT_TRUE(MakeYcsbStream(keys, Spec("doblix_write_only"), write_only, 4000, 2, holdout,
                             &only, &err))
      << err;
  EXPECT_EQ(heavy.load_keys, only.load_keys);
  EXPECT_GE(keys.size() - heavy.load_keys.size(), 4000u);  // sized for the write-only mix
  for (const YcsbStream* s : {&heavy, &only}) {
    std::set<uint64_t> inserted;
    for (const Op& op : s->ops) {
      if (op.type != OpType::kInsert) continue;
      EXPECT_FALSE(std::binary_search(s->load_keys.begin(), s->load_keys.end(), op.key));
      EXPECT_TRUE(inserted.insert(op.key).second);  // each held-out key inserted once
    }
    EXPECT_GT(inserted.size(), 300u);
  }
  // Another holdout seed holds out other keys: the seed is the load's.
  holdout.seed = 12;
  YcsbStream other;
  ASSERT_TRUE(MakeYcsbStream(keys, Spec("doblix_write_only"), write_only, 4000, 2, holdout,
                             &other, &err));
  EXPECT_NE(other.load_keys, only.load_keys);

  holdout.share = 0.05;
  EXPECT_FALSE(MakeYcsbStream(keys, Spec("doblix_read_heavy"), read_heavy, 4000, 1, holdout,
                              &heavy, &err));
  EXPECT_THAT(err, ::testing::HasSubstr("--holdout-share"));
}

TEST(YcsbStream, RecordAndOperationCountsAreNotUserSettable) {
  YcsbStream s;
  std::string err;
  EXPECT_FALSE(
      MakeYcsbStream(Keys(100), Spec("workloada"), {"recordcount=5"}, 10, 1, Holdout{}, &s, &err));
  EXPECT_THAT(err, ::testing::HasSubstr("recordcount"));
  EXPECT_FALSE(MakeYcsbStream(Keys(100), Spec("workloada"), {"readproportion=lots"}, 10, 1,
                              Holdout{}, &s, &err));
  EXPECT_FALSE(
      MakeYcsbStream(Keys(100), Spec("no_such_workload"), {}, 10, 1, Holdout{}, &s, &err));
}

// YCSB's maxexecutiontime (whole seconds) reaches the runner; the op
// stream is the same with and without it.
TEST(YcsbStream, MaxExecutionTimeIsReadAndLeavesTheStreamAlone) {
  YcsbStream plain, limited;
  std::string err;
  ASSERT_TRUE(MakeYcsbStream(Keys(1000), Spec("workloadc"), {}, 500, 3, Holdout{}, &plain, &err)) << err;
  EXPECT_EQ(plain.max_execution_seconds, 0u);
  ASSERT_TRUE(MakeYcsbStream(Keys(1000), Spec("workloadc"), {"maxexecutiontime=60"}, 500, 3, Holdout{},
                             &limited, &err))
      << err;
  EXPECT_EQ(limited.max_execution_seconds, 60u);
  ASSERT_EQ(limited.ops.size(), plain.ops.size());
  for (size_t i = 0; i < plain.ops.size(); i++) ASSERT_EQ(limited.ops[i].key, plain.ops[i].key);
  EXPECT_FALSE(MakeYcsbStream(Keys(1000), Spec("workloadc"), {"maxexecutiontime=1.5"}, 500, 3, Holdout{},
                              &limited, &err));
  EXPECT_THAT(err, ::testing::HasSubstr("maxexecutiontime: expected an integer >= 0"));
}

TEST(YcsbStream, CorrectEngineHasNoWrongAnswersUnderEveryCoreWorkload) {
  for (const char* w : {"workloada", "workloadb", "workloadc", "workloadd", "workloade", "workloadf"}) {
    RunSpec spec;
    YcsbStream s;
    std::string err;
    ASSERT_TRUE(
        MakeYcsbStream(Keys(3000), Spec(w), {"fieldlength=10"}, 3000, 5, Holdout{}, &s, &err))
        << err;
    spec.keys = s.load_keys;
    spec.ops = s.ops;
    spec.value_bytes = s.value_bytes;
    spec.progress = false;
    MapEngine engine;
    RunLog log;
    std::string path = ::testing::TempDir() + "/ycsb_" + w + std::to_string(getpid());
    ASSERT_TRUE(log.Open(path, &err));
    RunResult r = lsmbench::Run(&engine, spec, &log);
    ASSERT_TRUE(log.Finish("ok", &err));
    EXPECT_EQ(r.error, "") << w;
    EXPECT_EQ(r.wrong, 0u) << w;
    EXPECT_GT(r.verified, 0u) << w;
  }
}

}  // namespace lsmbench

// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// LearnAll beside the running learner, as the crash test's reopen calls it
// (engines/crashtest/crash_tool.cc): both learn the same files, and a file's
// model, once installed, must never be replaced, since readers hold it by a
// plain pointer. Replacing it freed it under their lookups: the reopen
// failures `IO error: 000051.ldb: Invalid argument` (a read past the end of
// the table at a freed layout's offset) of issue 54 item 1. Built and run by
// engines/leveldb-hooks/upstream_tests.py.
#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "layer_tests/bourbon_testutil.h"
#include "layers/bourbon/bourbon.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/options.h"

namespace leveldb {

namespace {

// Several tables of 1 MiB, LevelDB's least max_file_size.
constexpr int kKeys = 120000;

std::string ValueOf(int i) { return std::string(8 + i % 40, 'a' + i % 26); }

constexpr size_t kTableBytes = 32 << 10;

// Every file learned as it is written, the learner taking each at once.
bourbon::Config EagerLearner() {
  bourbon::Config config;
  config.learning = bourbon::Learning::kAlways;
  config.t_wait_seconds = 0;
  config.max_file_size = kTableBytes;
  return config;
}

}  // namespace

TEST(BourbonLearnerTest, LearnAllBesideTheLearnerInstallsEachModelOnce) {
  const std::string dir = testing::TempDir() + "bourbon_learner_test";
  DestroyDB(dir, Options());
  {
    test::BourbonDb t(dir, test::BourbonOptions(kTableBytes), EagerLearner());
    ASSERT_TRUE(t.open.ok()) << t.open.ToString();
    auto key = [](int i) { return test::DecimalKey((i * 7919) % kKeys); };
    auto value = [](int i) { return ValueOf((i * 7919) % kKeys); };
    ASSERT_TRUE(t.Load(kKeys, key, value).ok());
    t.db->CompactRange(nullptr, nullptr);  // the reopen compacts nothing
  }
  {
    test::BourbonDb t(dir, test::BourbonOptions(kTableBytes), EagerLearner());
    ASSERT_TRUE(t.open.ok()) << t.open.ToString();
    // Gets with checksums verified all along, as the crash test's check.
    std::atomic<bool> done{false};
    std::atomic<int> wrong{0};
    std::string first_error;
    std::thread reader([&] {
      ReadOptions ro;
      ro.verify_checksums = true;
      for (int round = 0; !done.load() || round == 0; round++) {
        for (int i = 0; i < kKeys; i += 7) {
          std::string value;
          Status s = t.db->Get(ro, test::DecimalKey(i), &value);
          if (!s.ok() || value != ValueOf(i)) {
            if (wrong.fetch_add(1) == 0) {
              first_error = test::DecimalKey(i) + ": " + s.ToString();
            }
          }
        }
      }
    });
    // Bourbon learns with the options of the first table opened.
    std::string value;
    ASSERT_TRUE(t.db->Get(ReadOptions(), test::DecimalKey(0), &value).ok());
    t.format->Attach(t.db.get());  // starts the learner
    t.format->LearnAll();
    // The learner's queue drains: every live file learned.
    bourbon::Snapshot snap;
    for (int tries = 0; tries < 2000; tries++) {
      snap = t.format->Collect();
      bool all = snap.queue_length == 0;
      for (const bourbon::FileRecord& f : snap.files) {
        all &= f.deleted_s >= 0 || std::string(f.state) == "learned";
      }
      if (all) break;
      Env::Default()->SleepForMicroseconds(5000);
    }
    done.store(true);
    reader.join();
    EXPECT_EQ(wrong.load(), 0) << first_error;
    uint64_t live = 0;
    for (const bourbon::FileRecord& f : snap.files) {
      if (f.deleted_s >= 0) continue;
      live++;
      EXPECT_EQ(std::string(f.state), "learned") << f.number;
    }
    ASSERT_GE(live, 4u) << "too few tables to learn beside the learner";
    // One installed model a file: a second learning of a file keeps the first.
    EXPECT_EQ(snap.learned, live);
  }
  DestroyDB(dir, Options());
}

}  // namespace leveldb

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// Attach after a reopen takes the files the database holds, and never a
// listing older than the file events it has seen: a compaction that logs
// its edit between the listing and Attach's update (the open schedules one
// at once) must not put its deleted inputs back as live files, nor its
// moved files at their old levels (issue 54 item 3: the crash test's
// reopen). Built and run by engines/leveldb-hooks/upstream_tests.py.
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "layer_tests/bourbon_testutil.h"
#include "layers/bourbon/bourbon.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/options.h"

namespace leveldb {

namespace {

// number -> level of a "leveldb.sstables" listing.
std::map<uint64_t, int> FilesOf(const std::string& sstables) {
  std::map<uint64_t, int> out;
  std::istringstream in(sstables);
  std::string line;
  int level = -1;
  while (std::getline(in, line)) {
    unsigned long long number, size;
    if (std::sscanf(line.c_str(), "--- level %d ---", &level) == 1) continue;
    if (std::sscanf(line.c_str(), " %llu:%llu[", &number, &size) == 2) out[number] = level;
  }
  return out;
}

std::string Listing(DB* db) {
  std::string s;
  EXPECT_TRUE(db->GetProperty("leveldb.sstables", &s));
  return s;
}

// Bourbon's live files: number -> level.
std::map<uint64_t, int> Live(bourbon::Bourbon* format) {
  std::map<uint64_t, int> out;
  for (const bourbon::FileRecord& f : format->Collect().files) {
    if (f.deleted_s < 0) out[f.number] = static_cast<int>(f.level);
  }
  return out;
}

// Every file learned as it is written.
bourbon::Config LearningAlways() {
  bourbon::Config config;
  config.learning = bourbon::Learning::kAlways;
  return config;
}

}  // namespace

TEST(BourbonAttachTest, AListingOlderThanTheFileEventsIsReadAgain) {
  const std::string dir = testing::TempDir() + "bourbon_attach_test";
  DestroyDB(dir, Options());
  {
    test::BourbonDb t(dir, test::BourbonOptions(32 << 10), LearningAlways());
    ASSERT_TRUE(t.open.ok()) << t.open.ToString();
    auto key = [](int i) { return test::DecimalKey((i * 7919) % 6000); };
    auto value = [](int i) { return std::string(40, 'a' + i % 26); };
    ASSERT_TRUE(t.Load(6000, key, value).ok());
  }
  test::BourbonDb t(dir, test::BourbonOptions(32 << 10), LearningAlways());
  ASSERT_TRUE(t.open.ok()) << t.open.ToString();
  // As a reopen's Attach may see it: the listing, then a compaction's edit.
  const uint64_t events = t.format->FileEventsSeen();
  const std::string stale = Listing(t.db.get());
  t.db->CompactRange(nullptr, nullptr);
  ASSERT_NE(FilesOf(stale), FilesOf(Listing(t.db.get()))) << "the compaction changed no file";
  EXPECT_FALSE(t.format->AttachFiles(stale, events));
  t.format->Attach(t.db.get(), /*start_learner=*/false);
  EXPECT_EQ(Live(t.format.get()), FilesOf(Listing(t.db.get())));
  DestroyDB(dir, Options());
}

}  // namespace leveldb

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

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

struct BourbonDb {
  explicit BourbonDb(const std::string& dir) {
    options.create_if_missing = true;
    options.block_restart_interval = 1;
    options.compression = kNoCompression;
    options.write_buffer_size = 32 << 10;
    options.max_file_size = 32 << 10;
    bourbon::Config config;
    config.learning = bourbon::Learning::kAlways;
    format = std::make_unique<bourbon::Bourbon>(config, options, dir);
    options.table_format = format.get();
    options.hooks = format.get();
    DB* raw = nullptr;
    EXPECT_TRUE(DB::Open(options, dir, &raw).ok());
    db.reset(raw);
  }
  ~BourbonDb() {
    format->Detach();
    db.reset();
  }
  std::string Listing() {
    std::string s;
    EXPECT_TRUE(db->GetProperty("leveldb.sstables", &s));
    return s;
  }
  // Bourbon's live files: number -> level.
  std::map<uint64_t, int> Live() {
    std::map<uint64_t, int> out;
    for (const bourbon::FileRecord& f : format->Collect().files) {
      if (f.deleted_s < 0) out[f.number] = static_cast<int>(f.level);
    }
    return out;
  }
  Options options;
  std::unique_ptr<bourbon::Bourbon> format;
  std::unique_ptr<DB> db;
};

}  // namespace

TEST(BourbonAttachTest, AListingOlderThanTheFileEventsIsReadAgain) {
  const std::string dir = testing::TempDir() + "bourbon_attach_test";
  DestroyDB(dir, Options());
  {
    BourbonDb t(dir);
    for (int i = 0; i < 6000; i++) {
      char key[17];
      std::snprintf(key, sizeof(key), "%016d", (i * 7919) % 6000);
      ASSERT_TRUE(t.db->Put(WriteOptions(), key, std::string(40, 'a' + i % 26)).ok());
    }
  }
  BourbonDb t(dir);
  // As a reopen's Attach may see it: the listing, then a compaction's edit.
  const uint64_t events = t.format->FileEventsSeen();
  const std::string stale = t.Listing();
  t.db->CompactRange(nullptr, nullptr);
  ASSERT_NE(FilesOf(stale), FilesOf(t.Listing())) << "the compaction changed no file";
  EXPECT_FALSE(t.format->AttachFiles(stale, events));
  t.format->Attach(t.db.get(), /*start_learner=*/false);
  EXPECT_EQ(t.Live(), FilesOf(t.Listing()));
  DestroyDB(dir, Options());
}

}  // namespace leveldb

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// A flipped byte in a learned table's data blocks, read through Bourbon's
// model path with checksums verified, is a Corruption naming the table
// (FileLayout::VerifyBlock), never a wrong value or NotFound (issue 54).
// Built and run by engines/leveldb-hooks/upstream_tests.py beside
// LevelDB's own tests.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "layers/bourbon/bourbon.h"
#include "layers/bourbon/path_trace.h"
#include "layers/hooks/lookup_trace.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/options.h"

namespace leveldb {

namespace {

std::string Key(int i) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016d", i * 7);
  return buf;
}

constexpr int kKeys = 4000;

// The database in `dir`, every table learned when it opens.
struct LearnedDb {
  explicit LearnedDb(const std::string& dir) {
    options.create_if_missing = true;
    options.paranoid_checks = true;
    options.block_restart_interval = 1;  // Bourbon's layout
    options.compression = kNoCompression;  // a compressed table stays unlearned
    options.write_buffer_size = 64 << 10;
    options.max_file_size = 64 << 10;
    bourbon::Config config;
    config.learning = bourbon::Learning::kOnOpen;
    format = std::make_unique<bourbon::Bourbon>(config, options, dir);
    options.table_format = format.get();
    options.hooks = format.get();
    DB* raw = nullptr;
    EXPECT_TRUE(DB::Open(options, dir, &raw).ok());
    db.reset(raw);
  }
  ~LearnedDb() { db.reset(); }
  Options options;
  std::unique_ptr<bourbon::Bourbon> format;
  std::unique_ptr<DB> db;
};

}  // namespace

TEST(BourbonCorruptionTest, FlippedDataByteIsACorruptionWhenVerified) {
  const std::string dir = testing::TempDir() + "bourbon_corruption_test";
  DestroyDB(dir, Options());
  {
    LearnedDb t(dir);
    for (int i = 0; i < kKeys; i++) {
      ASSERT_TRUE(t.db->Put(WriteOptions(), Key(i), "v" + std::to_string(i)).ok());
    }
    t.db->CompactRange(nullptr, nullptr);
  }
  Env* env = Env::Default();
  std::vector<std::string> files;
  ASSERT_TRUE(env->GetChildren(dir, &files).ok());
  std::string table;
  for (const std::string& f : files) {
    if (table.empty() && f.size() > 4 && f.substr(f.size() - 4) == ".ldb") table = dir + "/" + f;
  }
  ASSERT_FALSE(table.empty());
  std::string pristine;
  ASSERT_TRUE(ReadFileToString(env, table, &pristine).ok());
  // Every table learned at open, from its pristine bytes; then the first
  // half of one (its data blocks) flipped in place, under the open reader,
  // so the gets take the file model's path.
  LearnedDb t(dir);
  ReadOptions ro;
  ro.verify_checksums = true;
  std::string v;
  trace::SetTracing(true);
  for (int i = 0; i < kKeys; i++) ASSERT_TRUE(t.db->Get(ro, Key(i), &v).ok()) << i;
  const bourbon::PathTrace& paths = bourbon::ThisThreadPaths();
  ASSERT_EQ(paths.positive[bourbon::kFileModelPath], uint64_t{kKeys})
      << paths.positive[bourbon::kBaselinePath] << " baseline, " << paths.negative[bourbon::kFileModelPath]
      << " negative";
  for (size_t at = 0; at < pristine.size() / 2; at += pristine.size() / 40) {
    SCOPED_TRACE("flip at " + std::to_string(at));
    std::string data = pristine;
    data[at] ^= 0x5a;
    ASSERT_TRUE(WriteStringToFile(env, data, table).ok());
    int corrupt = 0;
    for (int i = 0; i < kKeys; i++) {
      Status s = t.db->Get(ro, Key(i), &v);
      if (s.IsCorruption()) {
        ASSERT_NE(s.ToString().find(".ldb"), std::string::npos) << s.ToString();
        corrupt++;
      } else {
        ASSERT_TRUE(s.ok() && v == "v" + std::to_string(i)) << i << ": " << s.ToString();
      }
    }
    ASSERT_GT(corrupt, 0);
  }
  ASSERT_TRUE(WriteStringToFile(env, pristine, table).ok());
  DestroyDB(dir, Options());
}

}  // namespace leveldb

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

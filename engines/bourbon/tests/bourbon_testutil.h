// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// What the bourbon layer's database tests share, as LevelDB's tests share
// util/testutil.h: a database with Bourbon as its table format and hooks,
// and its keys. engines/leveldb-hooks/upstream_tests.py copies this header
// beside the tests, into layer_tests/.
#ifndef STORAGE_LEVELDB_LAYER_TESTS_BOURBON_TESTUTIL_H_
#define STORAGE_LEVELDB_LAYER_TESTS_BOURBON_TESTUTIL_H_

#include <cstdio>
#include <memory>
#include <string>

#include "layers/bourbon/bourbon.h"
#include "leveldb/db.h"
#include "leveldb/options.h"
#include "leveldb/status.h"

namespace leveldb {
namespace test {

// n as 16 zero-padded decimal digits: keys of one length in n's order.
inline std::string DecimalKey(int n) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016d", n);
  return buf;
}

// Options Bourbon can learn under: one entry per restart point (its
// layout), no compression (a compressed table stays unlearned), and
// memtables and tables of `table_bytes`, so that a few thousand keys make
// several tables (LevelDB raises both to its least, 64 KiB and 1 MiB).
inline Options BourbonOptions(size_t table_bytes) {
  Options options;
  options.create_if_missing = true;
  options.block_restart_interval = 1;
  options.compression = kNoCompression;
  options.write_buffer_size = table_bytes;
  options.max_file_size = table_bytes;
  return options;
}

// The database in `dir`, opened with `options` and Bourbon (`config`) as
// its table format and hooks; `open` is what DB::Open returned.
struct BourbonDb {
  BourbonDb(const std::string& dir, const Options& base,
            const bourbon::Config& config)
      : options(base) {
    format = std::make_unique<bourbon::Bourbon>(config, options, dir);
    options.table_format = format.get();
    options.hooks = format.get();
    DB* raw = nullptr;
    open = DB::Open(options, dir, &raw);
    db.reset(raw);
  }
  // The learner (if Attach started one) stops before the database closes.
  ~BourbonDb() {
    format->Detach();
    db.reset();
  }

  // Puts (key(i), value(i)) for i in [0, n); the first failure.
  template <typename KeyOf, typename ValueOf>
  Status Load(int n, KeyOf key, ValueOf value) {
    for (int i = 0; i < n; i++) {
      Status s = db->Put(WriteOptions(), key(i), value(i));
      if (!s.ok()) return s;
    }
    return Status::OK();
  }

  Options options;
  std::unique_ptr<bourbon::Bourbon> format;
  std::unique_ptr<DB> db;
  Status open;
};

}  // namespace test
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYER_TESTS_BOURBON_TESTUTIL_H_

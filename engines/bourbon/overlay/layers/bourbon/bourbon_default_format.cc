// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// LEVELDB_TABLE_FORMAT for LevelDB's upstream tests (engines/leveldb-hooks/
// upstream_tests.py --format error_bound=8): every table every test opens
// is learned on open (Learning::kOnOpen), so every point lookup takes
// Bourbon's model path. Linked only into test builds
// (-DLEVELDB_TABLE_FORMAT_PARSER=ParseBourbonTableFormat).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "layers/bourbon/bourbon.h"

namespace leveldb {

const TableFormat* ParseBourbonTableFormat(const char* spec) {
  bourbon::Config config;
  config.learning = bourbon::Learning::kOnOpen;
  std::string s(spec);
  const std::string key = "error_bound=";
  if (s.rfind(key, 0) != 0 || std::atoi(s.c_str() + key.size()) < 1) {
    std::fprintf(stderr, "LEVELDB_TABLE_FORMAT='%s': error_bound=N (N >= 1) expected\n", spec);
    return nullptr;
  }
  config.error_bound = std::atoi(s.c_str() + key.size());
  return new bourbon::Bourbon(config, Options(), "");  // lives as long as the process
}

}  // namespace leveldb

// LEVELDB_TABLE_FORMAT for LevelDB's upstream tests (engines/leveldb-hooks/
// upstream_tests.py): "index=pgm,position_boundary=16" makes the learned
// table every test database's default. Linked only into test builds
// (-DLEVELDB_TABLE_FORMAT_PARSER=ParseLearnedTableFormat).
#include <cstdio>
#include <string>

#include "layers/learned/learned_table_format.h"

namespace leveldb {

const TableFormat* ParseLearnedTableFormat(const char* spec) {
  LearnedTableConfig config;
  std::string err;
  std::unique_ptr<LearnedTableFormat> format;
  if (ParseLearnedTableConfig(spec, &config, &err)) {
    format = LearnedTableFormat::Make(config, &err);
  }
  if (format == nullptr) {
    std::fprintf(stderr, "LEVELDB_TABLE_FORMAT='%s': %s\n", spec, err.c_str());
    return nullptr;
  }
  return format.release();  // lives as long as the process
}

}  // namespace leveldb

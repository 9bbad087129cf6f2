// Index memory of every live table, not only of those open in the table
// cache (seed 000 §4's "index memory"; issue 10: "bytes held by every
// table's model, per table and in total, measured"). A table open now
// reports the reader's own IndexMemoryBytes(); a live table that no lookup
// has opened yet is opened once here, with the database's options, measured
// the same way and closed. Measured, not estimated: the bytes a reader
// holds after opening the file, as the table cache's reader would.
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_INDEX_MEMORY_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_INDEX_MEMORY_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "leveldb/options.h"
#include "leveldb/status.h"

namespace leveldb {

class LearnedTableFormat;

struct LiveIndexMemory {
  std::map<uint64_t, size_t> per_table;  // every live table, by file number
  uint64_t total = 0;
  uint64_t tables_open = 0;      // measured through the table cache's reader
  uint64_t tables_measured = 0;  // opened here to be measured
};

// `live`: file number -> file size of every table of the current version;
// `db_options`: the options the database was opened with (user comparator,
// filter policy, env), as DB::Open got them.
Status MeasureLiveIndexMemory(const LearnedTableFormat& format,
                              const Options& db_options,
                              const std::string& dbname,
                              const std::map<uint64_t, uint64_t>& live,
                              LiveIndexMemory* out);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_INDEX_MEMORY_H_

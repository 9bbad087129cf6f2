// Fence pointers as Liu et al. built them (EDBT §4.2: "we adjust the data
// block size in LevelDB to generate varying numbers of fence pointers"):
// LevelDB's own table whose data blocks hold `position_boundary` entries
// each, so its index block keeps one full separator key (LevelDB's
// shortened internal key + block handle) per boundary entries. A count,
// not bytes: the same blocks a block size of boundary x entry bytes gives
// fixed-size entries, without LevelDB's 1 KiB floor on block_size (which
// would put ~46 16-byte entries in a block). Read by the binary reader of
// slr_table_reader.h (LevelDB's search, its index block counted as index
// memory).
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_FP_TABLE_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_FP_TABLE_H_

#include "layers/hooks/table_format.h"
#include "layers/learned/learned_table_book.h"
#include "layers/learned/learned_table_config.h"

namespace leveldb {

// `config` and `book` outlive the builder. Counts the table and its data
// blocks (segments_built: one fence pointer each) in `book`.
TableFileBuilder* NewFencePointerTableBuilder(const LearnedTableConfig* config,
                                              LearnedTableBook* book, const Options& options,
                                              WritableFile* file);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_FP_TABLE_H_

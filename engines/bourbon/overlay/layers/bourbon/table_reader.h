// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// Bourbon's table format, reading side: a table reader that answers a get
// by the level model's hint, the table's file model or LevelDB's index
// (counting each internal lookup, positive or negative, by path), and
// seeks range queries with the file model once the table is learned.
#ifndef STORAGE_LEVELDB_LAYERS_BOURBON_TABLE_READER_H_
#define STORAGE_LEVELDB_LAYERS_BOURBON_TABLE_READER_H_

#include <memory>

#include "layers/bourbon/file_state.h"
#include "layers/hooks/table_format.h"
#include "leveldb/cache.h"
#include "leveldb/comparator.h"
#include "leveldb/env.h"

namespace leveldb {
namespace bourbon {

// Takes ownership of `native` (LevelDB's own reader of the same file).
TableReader* NewTableReader(TableReader* native, RandomAccessFile* file,
                            std::shared_ptr<FileState> state,
                            const Comparator* ucmp, Cache* block_cache,
                            ScanCounters* scans);

}  // namespace bourbon
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_BOURBON_TABLE_READER_H_

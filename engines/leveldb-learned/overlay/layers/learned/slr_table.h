// SLR tables (seed 003 §4.2): LevelDB's own table, unchanged, followed by a
// model area and a footer that flags it. The model area holds an lidx
// slr-eq/slr-ea model trained on the index block's restart points (LevelDB
// writes its index block with one restart per entry) and, for data blocks
// with at least `slr_min_pairs` entries, one model over that block's
// restart points. A point lookup predicts the restart position, finishes
// with the configured last-mile search (binary where a segment is "bad" or
// the error-aware model was abandoned), and falls back to LevelDB's own
// block search where a block has no model. Iterators are LevelDB's own.
// Prefix compression stays on: restart points hold whole keys.
//
//   [LevelDB table: native_size bytes][model area][kSlrFooterSize footer]
//
// `slr=binary` writes plain LevelDB tables and reads them with the same
// reader, binary searching the restart points: the baseline whose
// comparisons are counted the same way.
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_SLR_TABLE_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_SLR_TABLE_H_

#include <string>

#include "layers/hooks/table_format.h"
#include "layers/learned/learned_table_book.h"
#include "layers/learned/learned_table_config.h"

namespace leveldb {

// `config` and `book` outlive the builders and readers.
TableFileBuilder* NewSlrTableBuilder(const LearnedTableConfig* config, LearnedTableBook* book,
                                     const Options& options, WritableFile* file,
                                     const TableFileInfo& info);

// *ours false when the file's tail is not an SLR footer.
Status OpenSlrTable(const LearnedTableConfig* config, LearnedTableBook* book,
                    const Options& options,
                    RandomAccessFile* file, uint64_t file_size,
                    const TableFileInfo& info, bool* ours, TableReader** reader);

// Corruption when the LevelDB footer of the table in [0, size) points
// outside it (LevelDB's Env would report the read past the end as an I/O
// error); checked before LevelDB's own reader opens the table.
Status CheckNativeFooter(RandomAccessFile* file, uint64_t size);

// Reads a plain LevelDB table with the SLR reader (slr=binary).
Status OpenBinaryTable(LearnedTableBook* book, const Options& options,
                       RandomAccessFile* file, uint64_t file_size,
                       const TableFileInfo& info, TableReader** reader);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_SLR_TABLE_H_

// The SLR table's reader (layout: slr_table_footer.h), which also reads
// LevelDB's plain tables for slr=binary and fp (fp_table.h). A point lookup
// searches the index block's restart points (LevelDB writes one an entry)
// for the data block, then that block's restart points, each with its
// model (slr_model.h): the model's bound, then the configured last mile
// (binary where a segment is "bad" or the error-aware model was
// abandoned); a binary search of the restart points where a block has no
// model, and for slr=binary everywhere: the baseline whose comparisons are
// counted the same way. Then one restart interval is scanned, prefix
// compression undone, as LevelDB does. Data blocks go through the block
// cache as LevelDB's Table reads them, the filter is LevelDB's; iterators,
// ApproximateOffsetOf and everything else are LevelDB's Table's own.
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_SLR_TABLE_READER_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_SLR_TABLE_READER_H_

#include <cstdint>

#include "layers/hooks/table_format.h"
#include "layers/learned/learned_table_book.h"

namespace leveldb {

// `book` outlives the readers. *ours false when the file's tail is not an
// SLR footer (nothing opened); a footer or model area that fails its
// checksum or does not decode is Corruption.
Status OpenSlrTable(LearnedTableBook* book, const Options& options, RandomAccessFile* file,
                    uint64_t file_size, const TableFileInfo& info, bool* ours,
                    TableReader** reader);

// Reads a plain LevelDB table with the SLR reader (slr=binary, fp).
Status OpenBinaryTable(LearnedTableBook* book, const Options& options,
                       RandomAccessFile* file, uint64_t file_size,
                       const TableFileInfo& info, TableReader** reader);

// Corruption when the LevelDB footer of the table in [0, size) points
// outside it (LevelDB's Env would report the read past the end as an I/O
// error); checked before LevelDB's own reader opens the table.
Status CheckNativeFooter(RandomAccessFile* file, uint64_t size);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_SLR_TABLE_READER_H_

// The SLR table's builder (layout: slr_table_footer.h): writes LevelDB's own
// table through LevelDB's TableBuilder, keeping a copy; on Finish reads its
// index block and data blocks back, trains their models (slr_model.h) and
// appends the model area and the footer.
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_SLR_TABLE_BUILDER_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_SLR_TABLE_BUILDER_H_

#include "layers/hooks/table_format.h"
#include "layers/learned/learned_table_book.h"
#include "layers/learned/learned_table_config.h"

namespace leveldb {

// `config` and `book` outlive the builder. A model that cannot be built
// fails Finish with NotSupported naming the table.
TableFileBuilder* NewSlrTableBuilder(const LearnedTableConfig* config, LearnedTableBook* book,
                                     const Options& options, WritableFile* file,
                                     const TableFileInfo& info);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_SLR_TABLE_BUILDER_H_

// The learned table's builder (layout: learned_table_format.h): buffers the
// entries, then on Finish trains the table's model over their user keys and
// writes entries, prefix, model, [offsets, mapped keys], [filter], footer.
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_BUILDER_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_BUILDER_H_

#include "layers/hooks/table_format.h"
#include "layers/learned/learned_table_book.h"
#include "layers/learned/learned_table_config.h"

namespace leveldb {

// `config` and `book` outlive the builder. An index that cannot be built on
// the table fails Finish with NotSupported naming the index and the table.
TableFileBuilder* NewLearnedTableBuilder(const LearnedTableConfig* config, LearnedTableBook* book,
                                         const Options& options, WritableFile* file,
                                         const TableFileInfo& info);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_BUILDER_H_

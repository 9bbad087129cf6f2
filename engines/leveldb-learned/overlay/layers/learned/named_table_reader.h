// A table reader whose Corruption statuses name its table.
//
// LevelDB's own table code names no file in its errors ("block checksum
// mismatch", a bad block handle), and a DB passes them up as they are:
// SLR, fp and LevelDB tables opened by the learned format answer through
// this wrapper, so every Get and iterator error names the table, as the
// learned table's own do.
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_NAMED_TABLE_READER_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_NAMED_TABLE_READER_H_

#include <string>

#include "layers/hooks/table_format.h"

namespace leveldb {

// Takes ownership of `base`; `name` is the table's file name ("000123.ldb").
TableReader* NewNamedTableReader(TableReader* base, const std::string& name);

// A Corruption not naming `name` becomes one that does; others unchanged.
Status NamedStatus(const Status& s, const std::string& name);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_NAMED_TABLE_READER_H_

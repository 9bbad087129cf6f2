// A table format: how a LevelDB table file is written and read.
//
// LevelDB 1.23 hard-codes TableBuilder (db/builder.cc, db/db_impl.cc,
// db/repair.cc) and Table (db/table_cache.cc). With the leveldb-hooks layer
// those call sites go through Options::table_format instead; null (the
// default) keeps LevelDB's own classes on exactly the pristine code path.
//
// Contract of an implementation:
//   * TableFileBuilder has TableBuilder's contract (Add in comparator order,
//     Finish or Abandon exactly once, FileSize after Finish). It does not
//     close the file.
//   * TableFormat::Open must open every table the format's builders write
//     and also LevelDB's own tables (a database may hold both, e.g. after a
//     reopen with another format): dispatch on the footer's magic number.
//   * TableReader::InternalGet calls handle_result with the first entry
//     whose internal key is >= k, if the table has one (it may skip the call
//     when it can prove no entry has k's user key, as a filter does).
//   * A reader never answers from a model it cannot trust: a model that
//     fails its checksum makes Open return Status::Corruption.
//
// Usage (an engine adapter):
//   options.table_format = my_format;   // outlives the DB
#ifndef STORAGE_LEVELDB_LAYERS_HOOKS_TABLE_FORMAT_H_
#define STORAGE_LEVELDB_LAYERS_HOOKS_TABLE_FORMAT_H_

#include <cstddef>
#include <cstdint>

#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"

namespace leveldb {

class RandomAccessFile;
class Table;
class TableBuilder;
class WritableFile;

// Which table a builder or reader is for.
struct TableFileInfo {
  uint64_t number = 0;  // the file number (NNNNNN.ldb)
  int level = -1;       // target level when known (compaction), else -1
};

class TableFileBuilder {
 public:
  virtual ~TableFileBuilder() = default;
  virtual void Add(const Slice& key, const Slice& value) = 0;
  virtual Status status() const = 0;
  virtual Status Finish() = 0;
  virtual void Abandon() = 0;
  virtual uint64_t NumEntries() const = 0;
  virtual uint64_t FileSize() const = 0;
};

class TableReader {
 public:
  virtual ~TableReader() = default;
  virtual Iterator* NewIterator(const ReadOptions& options) const = 0;
  virtual Status InternalGet(const ReadOptions& options, const Slice& k,
                             void* arg,
                             void (*handle_result)(void*, const Slice&,
                                                   const Slice&)) = 0;
  virtual uint64_t ApproximateOffsetOf(const Slice& key) const = 0;
  // Bytes this open table holds in memory to find keys (model, kept keys
  // and offsets, index block); 0 when the format does not say.
  virtual size_t IndexMemoryBytes() const { return 0; }
};

class TableFormat {
 public:
  virtual ~TableFormat() = default;
  virtual const char* Name() const = 0;
  virtual TableFileBuilder* NewBuilder(const Options& options,
                                       WritableFile* file,
                                       const TableFileInfo& info) const = 0;
  virtual Status Open(const Options& options, RandomAccessFile* file,
                      uint64_t file_size, const TableFileInfo& info,
                      TableReader** reader) const = 0;
};

// LevelDB's own TableBuilder and Table behind the interfaces, for formats
// that write or read native tables too.
TableFileBuilder* NewNativeTableFileBuilder(const Options& options,
                                            WritableFile* file);
Status OpenNativeTableReader(const Options& options, RandomAccessFile* file,
                             uint64_t file_size, TableReader** reader);

// The call sites' entry point: options.table_format's builder, or
// LevelDB's own when it is null.
TableFileBuilder* NewTableFileBuilder(const Options& options,
                                      WritableFile* file,
                                      const TableFileInfo& info);

// Test builds only (CMake -DLEVELDB_TABLE_FORMAT_PARSER=<function>): the
// format a DB uses when Options::table_format is null, so LevelDB's upstream
// tests run against a variant. The layer's function parses the environment
// variable LEVELDB_TABLE_FORMAT ("index=pgm,position_boundary=16", ...). In
// normal builds this returns null and nothing reads the environment.
const TableFormat* DefaultTableFormat();

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_HOOKS_TABLE_FORMAT_H_

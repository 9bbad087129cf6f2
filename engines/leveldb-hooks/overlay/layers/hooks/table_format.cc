#include "layers/hooks/table_format.h"

#include <cstdlib>

#include "leveldb/table.h"
#include "leveldb/table_builder.h"

namespace leveldb {

namespace {

class NativeBuilder : public TableFileBuilder {
 public:
  NativeBuilder(const Options& options, WritableFile* file)
      : builder_(options, file) {}
  void Add(const Slice& key, const Slice& value) override {
    builder_.Add(key, value);
  }
  Status status() const override { return builder_.status(); }
  Status Finish() override { return builder_.Finish(); }
  void Abandon() override { builder_.Abandon(); }
  uint64_t NumEntries() const override { return builder_.NumEntries(); }
  uint64_t FileSize() const override { return builder_.FileSize(); }

 private:
  TableBuilder builder_;
};

}  // namespace

// A friend of Table (the layer's patch), for InternalGet.
class NativeTableReader : public TableReader {
 public:
  explicit NativeTableReader(Table* table) : table_(table) {}
  ~NativeTableReader() override { delete table_; }
  Iterator* NewIterator(const ReadOptions& options) const override {
    return table_->NewIterator(options);
  }
  Status InternalGet(const ReadOptions& options, const Slice& k, void* arg,
                     void (*handle_result)(void*, const Slice&,
                                           const Slice&)) override {
    return table_->InternalGet(options, k, arg, handle_result);
  }
  uint64_t ApproximateOffsetOf(const Slice& key) const override {
    return table_->ApproximateOffsetOf(key);
  }

 private:
  Table* const table_;
};

TableFileBuilder* NewNativeTableFileBuilder(const Options& options,
                                            WritableFile* file) {
  return new NativeBuilder(options, file);
}

Status OpenNativeTableReader(const Options& options, RandomAccessFile* file,
                             uint64_t file_size, TableReader** reader) {
  *reader = nullptr;
  Table* table = nullptr;
  Status s = Table::Open(options, file, file_size, &table);
  if (s.ok()) *reader = new NativeTableReader(table);
  return s;
}

TableFileBuilder* NewTableFileBuilder(const Options& options,
                                      WritableFile* file,
                                      const TableFileInfo& info) {
  const TableFormat* format = options.table_format;
  if (format == nullptr) format = DefaultTableFormat();
  if (format != nullptr) return format->NewBuilder(options, file, info);
  return new NativeBuilder(options, file);
}

#ifdef LEVELDB_TABLE_FORMAT_PARSER
// Defined by a layer (e.g. leveldb-learned); a strong reference, so the
// static library's member that defines it is linked in.
const TableFormat* LEVELDB_TABLE_FORMAT_PARSER(const char* spec);
#endif

const TableFormat* DefaultTableFormat() {
#ifdef LEVELDB_TABLE_FORMAT_PARSER
  static const TableFormat* format = [] {
    const char* spec = std::getenv("LEVELDB_TABLE_FORMAT");
    if (spec == nullptr || *spec == '\0') return (const TableFormat*)nullptr;
    const TableFormat* f = LEVELDB_TABLE_FORMAT_PARSER(spec);
    if (f == nullptr) std::abort();  // the parser printed why
    return f;
  }();
  return format;
#else
  return nullptr;
#endif
}

}  // namespace leveldb

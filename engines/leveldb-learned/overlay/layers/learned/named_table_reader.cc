#include "layers/learned/named_table_reader.h"

#include <memory>

namespace leveldb {

Status NamedStatus(const Status& s, const std::string& name) {
  if (!s.IsCorruption() || s.ToString().find(name) != std::string::npos) return s;
  return Status::Corruption(name, s.ToString());
}

namespace {

class NamedIterator : public Iterator {
 public:
  NamedIterator(Iterator* base, std::string name) : base_(base), name_(std::move(name)) {}
  bool Valid() const override { return base_->Valid(); }
  void SeekToFirst() override { base_->SeekToFirst(); }
  void SeekToLast() override { base_->SeekToLast(); }
  void Seek(const Slice& target) override { base_->Seek(target); }
  void Next() override { base_->Next(); }
  void Prev() override { base_->Prev(); }
  Slice key() const override { return base_->key(); }
  Slice value() const override { return base_->value(); }
  Status status() const override { return NamedStatus(base_->status(), name_); }

 private:
  const std::unique_ptr<Iterator> base_;
  const std::string name_;
};

class NamedReader : public TableReader {
 public:
  NamedReader(TableReader* base, std::string name) : base_(base), name_(std::move(name)) {}
  Iterator* NewIterator(const ReadOptions& options) const override {
    return new NamedIterator(base_->NewIterator(options), name_);
  }
  Status InternalGet(const ReadOptions& options, const Slice& k, void* arg,
                     void (*handle_result)(void*, const Slice&, const Slice&)) override {
    return NamedStatus(base_->InternalGet(options, k, arg, handle_result), name_);
  }
  uint64_t ApproximateOffsetOf(const Slice& key) const override {
    return base_->ApproximateOffsetOf(key);
  }
  size_t IndexMemoryBytes() const override { return base_->IndexMemoryBytes(); }

 private:
  const std::unique_ptr<TableReader> base_;
  const std::string name_;
};

}  // namespace

TableReader* NewNamedTableReader(TableReader* base, const std::string& name) {
  return new NamedReader(base, name);
}

}  // namespace leveldb

#include "layers/learned/fp_table.h"

#include <limits>

#include "leveldb/table_builder.h"

namespace leveldb {

namespace {

class FencePointerBuilder : public TableFileBuilder {
 public:
  FencePointerBuilder(const LearnedTableConfig& c, LearnedTableBook* book,
                      const Options& options, WritableFile* file)
      : entries_per_block_(c.position_boundary), book_(book), builder_(CutByCount(options), file) {}

  void Add(const Slice& key, const Slice& value) override {
    builder_.Add(key, value);
    if (++in_block_ == entries_per_block_) {
      builder_.Flush();
      in_block_ = 0;
      blocks_++;
    }
  }
  Status status() const override { return builder_.status(); }
  void Abandon() override { builder_.Abandon(); }
  uint64_t NumEntries() const override { return builder_.NumEntries(); }
  uint64_t FileSize() const override { return builder_.FileSize(); }

  Status Finish() override {
    const uint64_t blocks = blocks_ + (in_block_ > 0 ? 1 : 0);
    Status s = builder_.Finish();
    LearnedTableStats built;
    if (s.ok()) {
      built.tables_built = 1;
      built.segments_built = blocks;
    } else {
      built.build_failures = 1;
    }
    book_->AddBuilt(built);
    return s;
  }

 private:
  // LevelDB cuts a block once its bytes reach block_size: never, here.
  static Options CutByCount(Options o) {
    o.block_size = std::numeric_limits<size_t>::max();
    return o;
  }

  const uint64_t entries_per_block_;
  LearnedTableBook* const book_;
  TableBuilder builder_;
  uint64_t in_block_ = 0;
  uint64_t blocks_ = 0;
};

}  // namespace

TableFileBuilder* NewFencePointerTableBuilder(const LearnedTableConfig* config,
                                              LearnedTableBook* book, const Options& options,
                                              WritableFile* file) {
  return new FencePointerBuilder(*config, book, options, file);
}

}  // namespace leveldb

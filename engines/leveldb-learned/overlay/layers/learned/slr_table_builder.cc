#include "layers/learned/slr_table_builder.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "layers/hooks/lookup_trace.h"
#include "layers/learned/learned_model.h"
#include "layers/learned/learned_table_footer.h"
#include "layers/learned/slr_model.h"
#include "layers/learned/slr_model_area.h"
#include "layers/learned/slr_restarts.h"
#include "layers/learned/slr_table_footer.h"
#include "leveldb/env.h"
#include "leveldb/table_builder.h"
#include "table/format.h"
#include "util/crc32c.h"

namespace leveldb {

namespace {

// Forwards to the table file and keeps a copy: the builder reads its own
// index block and data blocks back to train the models.
class CaptureFile : public WritableFile {
 public:
  explicit CaptureFile(WritableFile* base) : base_(base) {}
  Status Append(const Slice& data) override {
    bytes_.append(data.data(), data.size());
    return base_->Append(data);
  }
  Status Close() override { return Status::OK(); }  // the caller closes base
  Status Flush() override { return base_->Flush(); }
  Status Sync() override { return base_->Sync(); }
  const std::string& bytes() const { return bytes_; }

 private:
  WritableFile* const base_;
  std::string bytes_;
};

// The captured table as a file, so ReadBlock decompresses blocks for us.
class StringSource : public RandomAccessFile {
 public:
  explicit StringSource(const std::string& bytes) : bytes_(bytes) {}
  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    if (offset > bytes_.size()) return Status::InvalidArgument("slr: read past the table");
    n = std::min<size_t>(n, bytes_.size() - offset);
    std::memcpy(scratch, bytes_.data() + offset, n);
    *result = Slice(scratch, n);
    return Status::OK();
  }

 private:
  const std::string& bytes_;
};

// One block's contents (decompressed), owned.
struct OwnedBlock {
  BlockContents c{Slice(), false, false};
  ~OwnedBlock() {
    if (c.heap_allocated) delete[] c.data.data();
  }
};

class SlrBuilder : public TableFileBuilder {
 public:
  SlrBuilder(const LearnedTableConfig* config, LearnedTableBook* book, const Options& options,
             WritableFile* file, const TableFileInfo& info)
      : config_(*config),
        book_(book),
        file_(file),
        capture_(file),
        builder_(options, &capture_),
        info_(info) {}

  void Add(const Slice& key, const Slice& value) override {
    Slice u = UserKeyOf(key);
    if (builder_.NumEntries() == 0) first_.assign(u.data(), u.size());
    last_.assign(u.data(), u.size());
    builder_.Add(key, value);
  }
  Status status() const override { return builder_.status(); }
  void Abandon() override { builder_.Abandon(); }
  uint64_t NumEntries() const override { return builder_.NumEntries(); }
  uint64_t FileSize() const override { return builder_.FileSize() + extra_; }

  Status Finish() override {
    Status s = builder_.Finish();
    if (!s.ok()) return s;
    const std::string& file = capture_.bytes();
    StringSource src(file);
    OwnedBlock index_block;  // holds what `index` points into
    Restarts index;
    s = ReadIndex(file, &src, &index_block, &index);
    if (!s.ok()) return s;
    LearnedTableStats built;
    built.tables_built = 1;  // the denominator of slr_abandoned (kept share, lsmrepro/tidy/regime.py)
    const uint64_t t0 = LearnedNanos();
    SlrModelArea models;
    s = TrainModels(index, &src, file.size(), &models, &built);
    if (!s.ok()) return s;
    std::string area;
    models.EncodeTo(&area);
    const uint64_t t1 = LearnedNanos();
    const std::string tail = Tail(area, file.size());
    s = file_->Append(tail);
    const uint64_t t2 = LearnedNanos();
    extra_ = tail.size();
    built.train_nanos = t1 - t0;
    built.model_write_nanos = t2 - t1;
    built.model_bytes_written = area.size();
    trace::ThisThreadBuild().train_nanos += t1 - t0;
    trace::ThisThreadBuild().model_write_nanos += t2 - t1;
    book_->AddBuilt(built);
    return s;
  }

 private:
  // The index block of the native table just written (its footer's handle).
  static Status ReadIndex(const std::string& file, StringSource* src, OwnedBlock* block,
                          Restarts* index) {
    Footer footer;
    Slice fin(file.data() + file.size() - Footer::kEncodedLength, Footer::kEncodedLength);
    Status s = footer.DecodeFrom(&fin);
    if (!s.ok()) return s;
    s = ReadBlock(src, ReadOptions(), footer.index_handle(), &block->c);
    if (!s.ok()) return s;
    if (!index->Parse(block->c.data)) {
      return Status::Corruption("slr: cannot parse the index block just written");
    }
    return Status::OK();
  }

  // The models of the area: the index block's, then one a data block with
  // at least slr_min_pairs entries whose model is used (null for the others).
  Status TrainModels(const Restarts& index, StringSource* src, uint64_t native_size,
                     SlrModelArea* area, LearnedTableStats* built) {
    const LearnedTableConfig& c = config_;
    area->prefix = CommonPrefix(first_, last_);
    std::string err;
    area->index_model.reset(new SlrModel);
    SlrModel* model = area->index_model.get();
    if (!SlrModel::Train(c, index, area->prefix, model, &err)) return Fail(err);
    built->trainings++;
    if (!model->UsesModel()) built->slr_abandoned++;
    built->segments_built += model->Segments();
    area->block_models.resize(index.count);
    for (uint32_t i = 0; i < index.count; i++) {
      Slice hv;
      index.Key(i, &hv);
      BlockHandle bh;
      if (!bh.DecodeFrom(&hv).ok() || bh.offset() + bh.size() > native_size) {
        return Status::Corruption("slr: bad block handle in the index block just written");
      }
      OwnedBlock data_block;
      Status s = ReadBlock(src, ReadOptions(), bh, &data_block.c);
      if (!s.ok()) return s;
      Restarts block;
      if (!block.Parse(data_block.c.data)) {
        return Status::Corruption("slr: cannot parse a data block just written");
      }
      uint64_t entries = 0;
      std::string key;
      Slice value;
      for (const char* p = block.data;
           p < block.array && NextBlockEntry(&p, block.array, &key, &value);) {
        entries++;
      }
      if (entries >= c.slr_min_pairs && block.count >= 2) {
        std::unique_ptr<SlrModel> bm(new SlrModel);
        if (!SlrModel::Train(c, block, area->prefix, bm.get(), &err)) return Fail(err);
        built->trainings++;
        if (bm->UsesModel()) {
          built->slr_block_models++;
          built->segments_built += bm->Segments();
          area->block_models[i] = std::move(bm);
        }
      }
    }
    return Status::OK();
  }

  // What follows the native table: the model area and its footer.
  std::string Tail(const std::string& area, uint64_t native_size) const {
    SlrFooter f;
    f.native_size = native_size;
    f.area_len = area.size();
    f.area_crc = crc32c::Mask(crc32c::Value(area.data(), area.size()));
    f.kind = config_.slr == "eq" ? 1 : 2;
    std::string tail = area;
    f.EncodeTo(&tail);
    return tail;
  }

  Status Fail(const std::string& why) {
    LearnedTableStats f;
    f.build_failures = 1;
    book_->AddBuilt(f);
    return Status::NotSupported("slr-" + config_.slr + " cannot be built on table " +
                                    LearnedTableName(info_.number),
                                why);
  }

  const LearnedTableConfig& config_;
  LearnedTableBook* const book_;
  WritableFile* const file_;
  CaptureFile capture_;
  TableBuilder builder_;
  const TableFileInfo info_;
  std::string first_, last_;
  uint64_t extra_ = 0;
};

}  // namespace

TableFileBuilder* NewSlrTableBuilder(const LearnedTableConfig* config, LearnedTableBook* book,
                                     const Options& options, WritableFile* file,
                                     const TableFileInfo& info) {
  return new SlrBuilder(config, book, options, file, info);
}

}  // namespace leveldb

#include "layers/learned/learned_table_builder.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "layers/hooks/lookup_trace.h"
#include "layers/learned/learned_model.h"
#include "layers/learned/learned_table_checksums.h"
#include "layers/learned/learned_table_footer.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace leveldb {

namespace {

class LearnedBuilder : public TableFileBuilder {
 public:
  LearnedBuilder(const LearnedTableConfig* config, LearnedTableBook* book, const Options& options,
                 WritableFile* file, const TableFileInfo& info)
      : c_(*config), book_(book), options_(options), file_(file), info_(info) {}

  void Add(const Slice& key, const Slice& value) override {
    if (!status_.ok()) return;
    offsets_.push_back(entries_.size());
    PutVarint32(&entries_, static_cast<uint32_t>(key.size()));
    PutVarint32(&entries_, static_cast<uint32_t>(value.size()));
    entries_.append(key.data(), key.size());
    entries_.append(value.data(), value.size());
    width_ = std::max<uint64_t>(width_, entries_.size() - offsets_.back());
  }
  Status status() const override { return status_; }
  void Abandon() override { finished_ = true; }
  uint64_t NumEntries() const override { return offsets_.size(); }
  uint64_t FileSize() const override { return finished_ ? file_size_ : entries_.size(); }

  Status Finish() override {
    finished_ = true;
    if (!status_.ok()) return status_;
    const uint64_t n = offsets_.size();
    offsets_.push_back(entries_.size());
    LearnedTableStats built;
    std::string prefix;
    Model model;
    const uint64_t t0 = LearnedNanos();
    status_ = Train(&prefix, &model, &built.trainings);
    const uint64_t t1 = LearnedNanos();
    if (!status_.ok()) {
      built.build_failures = 1;
      book_->AddBuilt(built);
      return status_;
    }
    book_->NoteBuiltHere(info_.number);
    LearnedFooter f;
    f.n = n;
    WriteEntries(&f);
    const uint64_t t2 = LearnedNanos();
    std::string meta = Meta(prefix, model, &f);
    if (status_.ok()) status_ = file_->Append(meta);
    const uint64_t t3 = LearnedNanos();
    file_size_ = f.entries_bytes + crcs_.size() + meta.size();

    trace::BuildCounters& bc = trace::ThisThreadBuild();
    bc.train_nanos += t1 - t0;
    bc.model_write_nanos += t3 - t2;
    built.tables_built = 1;
    built.train_nanos = t1 - t0;
    built.model_write_nanos = t3 - t2;
    built.segments_built = model.Segments();
    built.model_bytes_written = f.model_len;
    book_->AddBuilt(built);
    return status_;
  }

 private:
  Slice KeyAt(uint64_t i) const {
    Slice in(entries_.data() + offsets_[i], entries_.size() - offsets_[i]);
    uint32_t klen, vlen;
    GetVarint32(&in, &klen);
    GetVarint32(&in, &vlen);
    return Slice(in.data(), klen);
  }

  // The model over the user keys minus their common prefix (*prefix).
  Status Train(std::string* prefix, Model* model, uint64_t* trainings) {
    const uint64_t n = offsets_.size() - 1;
    if (n > 0) *prefix = CommonPrefix(UserKeyOf(KeyAt(0)), UserKeyOf(KeyAt(n - 1)));
    std::vector<std::string_view> keys(n);
    for (uint64_t i = 0; i < n; i++) {
      Slice u = UserKeyOf(KeyAt(i));
      keys[i] = std::string_view(u.data() + prefix->size(), u.size() - prefix->size());
    }
    std::string err;
    lidx::Status s = TrainModel(c_, keys, model, &mapped_, trainings, &err);
    if (s.ok()) return Status::OK();
    return Status::NotSupported(CannotBuild(c_, info_.number, n), s.message());
  }

  // Entries: fixed slots of the widest entry, or packed (keep_keys).
  void WriteEntries(LearnedFooter* f) {
    if (c_.keep_keys) {
      f->flags |= kFlagKeepKeys;
      status_ = file_->Append(entries_);
      f->entries_bytes = entries_.size();
      AppendChecksums(entries_);
      return;
    }
    f->slot_width = static_cast<uint32_t>(width_);
    std::string slots;
    slots.reserve(f->n * width_);
    for (uint64_t i = 0; i < f->n; i++) {
      slots.append(entries_.data() + offsets_[i], offsets_[i + 1] - offsets_[i]);
      slots.resize((i + 1) * width_, '\0');
    }
    status_ = file_->Append(slots);
    f->entries_bytes = slots.size();
    AppendChecksums(slots);
  }

  // The entries' checksums, right after them.
  void AppendChecksums(const std::string& entries) {
    AppendDataChecksums(entries.data(), entries.size(), &crcs_);
    if (status_.ok()) status_ = file_->Append(crcs_);
  }

  // Everything after the entries and their checksums: prefix, model,
  // [offsets, keys], [filter], footer (its region lengths and its meta crc,
  // which covers the data checksums too, filled in *f).
  std::string Meta(const std::string& prefix, const Model& model, LearnedFooter* f) const {
    if (model.strings) f->flags |= kFlagStringIndex;
    if (model.ints && model.key_map == lidx::KeyMap::kDecimal) f->flags |= kFlagDecimalKeys;
    std::string meta = prefix;
    f->prefix_len = static_cast<uint32_t>(prefix.size());
    if (model.ints) {
      model.ints->Serialize(&meta);
    } else {
      model.strings->Serialize(&meta);
    }
    f->model_len = meta.size() - prefix.size();
    if (c_.keep_keys) {
      for (uint64_t off : offsets_) PutFixed64(&meta, off);
      f->offsets_len = 8 * offsets_.size();
      if (model.ints) {
        for (uint64_t k : mapped_) PutFixed64(&meta, k);
        f->keys_len = 8 * mapped_.size();
      }
    }
    if (options_.filter_policy != nullptr) {
      // One filter over the table's keys (LevelDB keeps one per 2 KiB of
      // data blocks; a learned table has no blocks).
      std::vector<Slice> keys(f->n);
      for (uint64_t i = 0; i < f->n; i++) keys[i] = KeyAt(i);
      const size_t before = meta.size();
      options_.filter_policy->CreateFilter(keys.data(), static_cast<int>(f->n), &meta);
      f->filter_len = meta.size() - before;
    }
    f->meta_crc = crc32c::Mask(crc32c::Extend(crc32c::Value(crcs_.data(), crcs_.size()),
                                              meta.data(), meta.size()));
    f->EncodeTo(&meta);
    return meta;
  }

  const LearnedTableConfig& c_;
  LearnedTableBook* const book_;
  const Options options_;
  WritableFile* const file_;
  const TableFileInfo info_;
  Status status_;
  bool finished_ = false;
  std::string entries_;            // packed entries
  std::vector<uint64_t> offsets_;  // entry starts (+ end after Finish)
  std::vector<uint64_t> mapped_;
  std::string crcs_;  // the entries' checksums, as written
  uint64_t width_ = 0;
  uint64_t file_size_ = 0;
};

}  // namespace

TableFileBuilder* NewLearnedTableBuilder(const LearnedTableConfig* config, LearnedTableBook* book,
                                         const Options& options, WritableFile* file,
                                         const TableFileInfo& info) {
  return new LearnedBuilder(config, book, options, file, info);
}

}  // namespace leveldb

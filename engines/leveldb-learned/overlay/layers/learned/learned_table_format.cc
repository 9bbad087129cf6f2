#include "layers/learned/learned_table_format.h"

#include <cstring>
#include <string_view>

#include "db/dbformat.h"
#include "layers/learned/fp_table.h"
#include "layers/learned/learned_model.h"
#include "layers/learned/learned_table_builder.h"
#include "layers/learned/learned_table_footer.h"
#include "layers/learned/learned_table_reader.h"
#include "layers/learned/named_table_reader.h"
#include "layers/learned/slr_table_builder.h"
#include "layers/learned/slr_table_reader.h"
#include "leveldb/comparator.h"
#include "leveldb/env.h"

namespace leveldb {

std::unique_ptr<LearnedTableFormat> LearnedTableFormat::Make(const LearnedTableConfig& c,
                                                             std::string* err) {
  if (!CheckLearnedTableConfig(c, err)) return nullptr;
  return std::unique_ptr<LearnedTableFormat>(new LearnedTableFormat(c));
}

TableFileBuilder* LearnedTableFormat::NewBuilder(const Options& options, WritableFile* file,
                                                 const TableFileInfo& info) const {
  // Inside a DB, options.comparator is the internal key comparator.
  const bool bytewise =
      std::strcmp(options.comparator->Name(), "leveldb.InternalKeyComparator") == 0 &&
      static_cast<const InternalKeyComparator*>(options.comparator)->user_comparator() ==
          BytewiseComparator();
  if (config_.index == "native" && (config_.slr == "off" || config_.slr == "binary")) {
    return NewNativeTableFileBuilder(options, file);  // LevelDB's own table
  }
  if (config_.index == kFencePointers) {
    return NewFencePointerTableBuilder(&config_, &book_, options, file);  // any comparator
  }
  if (!bytewise) {
    // The key mapping needs bytewise order (LevelDB's upstream tests use
    // other comparators): such tables are LevelDB's own, and counted.
    LearnedTableStats s;
    s.native_tables_built = 1;
    book_.AddBuilt(s);
    return NewNativeTableFileBuilder(options, file);
  }
  if (config_.index == "native") return NewSlrTableBuilder(&config_, &book_, options, file, info);
  return NewLearnedTableBuilder(&config_, &book_, options, file, info);
}

Status LearnedTableFormat::Open(const Options& options, RandomAccessFile* file,
                                uint64_t file_size, const TableFileInfo& info,
                                TableReader** reader) const {
  *reader = nullptr;
  const std::string name = LearnedTableName(info.number);
  bool slr;
  Status ss = OpenSlrTable(&book_, options, file, file_size, info, &slr, reader);
  if (slr && ss.ok()) *reader = NewNamedTableReader(*reader, name);
  if (slr || !ss.ok()) return NamedStatus(ss, name);
  bool ours;
  LearnedFooter f;
  Status s = LearnedFooter::Read(file, file_size, &f, &ours);
  if (s.ok() && !ours) {
    // fp: LevelDB's search, its index block counted (fp_table.h)
    if (config_.slr == "binary" || config_.index == kFencePointers) {
      s = OpenBinaryTable(&book_, options, file, file_size, info, reader);
    } else {
      s = CheckNativeFooter(file, file_size);
      if (s.ok()) s = OpenNativeTableReader(options, file, file_size, reader);
    }
    // LevelDB's own messages do not name the table, at open or later.
    if (s.ok()) *reader = NewNamedTableReader(*reader, name);
    return NamedStatus(s, name);
  }
  if (!s.ok()) return NamedStatus(s, name);
  const std::string mismatch = f.MismatchWith(file_size);
  if (!mismatch.empty()) return Status::Corruption(name, mismatch);
  // retrain: a table this process did not build is searched with a model
  // of this configuration trained over its keys (Retrain() did it before
  // the lookups; a table it missed is trained here, and counted).
  std::shared_ptr<const TableModel> trained;
  if (config_.retrain && !book_.BuiltHere(info.number)) {
    if (f.keep_keys() != config_.keep_keys) {
      return Status::InvalidArgument(LayoutMismatch(name, f.keep_keys()));
    }
    trained = Retrained(info.number);
    if (trained == nullptr) {
      s = TrainTable(file, file_size, info.number, /*on_first_open=*/true, &trained);
      if (!s.ok()) return s;
    }
  }
  return OpenLearnedTable(&book_, options, file, file_size, info.number, f, std::move(trained),
                          reader);
}

// ---------------------------------------------------------------- retrain

std::string LearnedTableFormat::LayoutMismatch(const std::string& table, bool keep_keys) const {
  return table + " was written with keep_keys=" + (keep_keys ? "true" : "false") +
         " and retrain asks keep_keys=" + (config_.keep_keys ? "true" : "false") +
         ": keep_keys fixes the table layout (packed or fixed-size entries), so a retrained "
         "index must use the load's keep_keys";
}

Status LearnedTableFormat::TrainTable(RandomAccessFile* file, uint64_t file_size,
                                      uint64_t number, bool on_first_open,
                                      std::shared_ptr<const TableModel>* out) const {
  const uint64_t t0 = LearnedNanos();
  std::vector<std::string> user_keys;
  bool keep_keys = false;
  Status s = ReadLearnedTableUserKeys(file, file_size, &user_keys, &keep_keys);
  if (s.IsNotSupportedError()) return Status::OK();  // not a learned table: *out stays null
  if (!s.ok()) return Status::Corruption(LearnedTableName(number), s.ToString());
  if (config_.index == kFencePointers) {
    return Status::InvalidArgument(
        LearnedTableName(number) + " is a learned table",
        "index=fp searches LevelDB's own tables whose blocks hold position_boundary entries; "
        "load the database with index=fp and this boundary");
  }
  if (keep_keys != config_.keep_keys) {
    return Status::InvalidArgument(LayoutMismatch(LearnedTableName(number), keep_keys));
  }
  const uint64_t t1 = LearnedNanos();
  const uint64_t n = user_keys.size();
  auto tm = std::make_shared<TableModel>();
  if (n > 0) tm->prefix = CommonPrefix(user_keys.front(), user_keys.back());
  std::vector<std::string_view> keys(n);
  for (uint64_t i = 0; i < n; i++) keys[i] = std::string_view(user_keys[i]).substr(tm->prefix.size());
  std::vector<uint64_t> mapped;
  std::string err;
  uint64_t trainings = 0;
  lidx::Status ls = TrainModel(config_, keys, &tm->model, &mapped, &trainings, &err);
  const uint64_t t2 = LearnedNanos();
  std::lock_guard<std::mutex> l(mu_);
  if (!ls.ok()) {
    retrain_stats_.failures++;
    return Status::NotSupported(CannotBuild(config_, number, n), ls.message());
  }
  if (config_.keep_keys && tm->model.ints) tm->keys = std::move(mapped);
  retrain_stats_.tables++;
  // Before Retrain() is done, a table opened first (by a compaction that
  // DB::Open scheduled) is part of the pass: only later ones are counted.
  retrain_stats_.on_first_open += on_first_open && retrain_done_ ? 1 : 0;
  retrain_stats_.keys += n;
  retrain_stats_.trainings += trainings;
  retrain_stats_.read_nanos += t1 - t0;
  retrain_stats_.train_nanos += t2 - t1;
  retrain_stats_.segments += tm->model.Segments();
  retrained_[number] = tm;
  *out = std::move(tm);
  return Status::OK();
}

Status LearnedTableFormat::Retrain(Env* env, const std::string& dbname,
                                   const std::vector<uint64_t>& numbers) const {
  if (!config_.retrain) return Status::InvalidArgument("retrain is off");
  for (uint64_t number : numbers) {
    if (Retrained(number) != nullptr || book_.BuiltHere(number)) continue;  // already this config's
    const std::string path = dbname + "/" + LearnedTableName(number);
    uint64_t size = 0;
    RandomAccessFile* file = nullptr;
    Status s = env->GetFileSize(path, &size);
    if (s.ok()) s = env->NewRandomAccessFile(path, &file);
    std::shared_ptr<const TableModel> tm;
    if (s.ok()) s = TrainTable(file, size, number, /*on_first_open=*/false, &tm);
    delete file;
    if (!s.ok()) return s;
    if (tm == nullptr) {
      std::lock_guard<std::mutex> l(mu_);
      retrain_stats_.native_tables++;  // LevelDB's own table: nothing to train
    }
  }
  std::lock_guard<std::mutex> l(mu_);
  retrain_done_ = true;
  return Status::OK();
}

std::shared_ptr<const TableModel> LearnedTableFormat::Retrained(uint64_t number) const {
  std::lock_guard<std::mutex> l(mu_);
  auto it = retrained_.find(number);
  return it == retrained_.end() ? nullptr : it->second;
}

LearnedTableFormat::RetrainStats LearnedTableFormat::GetRetrainStats() const {
  std::lock_guard<std::mutex> l(mu_);
  RetrainStats r = retrain_stats_;
  for (const auto& [number, tm] : retrained_) {
    r.model_bytes += tm->model.MemoryBytes() + tm->keys.capacity() * 8;
  }
  return r;
}

}  // namespace leveldb

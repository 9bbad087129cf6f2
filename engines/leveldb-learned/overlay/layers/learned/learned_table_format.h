// The learned table format (engines/leveldb-learned, seed 000 §4.1).
//
// A table file holds its entries in key order, then the model of one index
// of the lidx library trained on the table's keys, and a footer:
//
//   entries   keep_keys=false: n slots of `slot_width` bytes (the widest
//             entry), so entry i is at i * slot_width; keep_keys=true:
//             packed, offsets kept in memory
//   checksums a masked crc32c per 4 KiB of entries (learned_table_checksums.h)
//   prefix    the user keys' common prefix (the model sees what follows)
//   model     lidx Serialize() output
//   offsets   keep_keys only: n+1 fixed64 entry offsets
//   keys      keep_keys only: n fixed64 mapped keys
//   filter    Options::filter_policy's filter of all keys, when set
//   footer    kFooterSize bytes: region sizes, n, slot width, flags, the
//             crc32c of checksums..filter, the footer's own crc32c, the magic
//
// An entry is varint32 key length, varint32 value length, internal key,
// value. A lookup maps the user key (minus the prefix) with lidx's key
// mapping (8-byte big-endian), asks the model for the position bound of the
// first entry >= it, reads only the entries in that bound, and binary
// searches them with the internal key comparator. LITS takes the raw key
// strings. A model or footer that fails its checksum, or does not
// deserialize, makes Open fail with Status::Corruption: never a guess; the
// entries are checked as LevelDB checks its blocks, when ReadOptions ask
// (verify_checksums; compactions under paranoid_checks).
// LevelDB's own tables (another magic) open as LevelDB tables, so a
// database may mix both.
//
// Usage:
//   LearnedTableConfig c;  c.index = "pgm";  c.position_boundary = 16;
//   std::string err;
//   std::unique_ptr<LearnedTableFormat> f = LearnedTableFormat::Make(c, &err);
//   options.table_format = f.get();
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_FORMAT_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_FORMAT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "layers/hooks/table_format.h"
#include "layers/learned/learned_table_book.h"
#include "layers/learned/learned_table_config.h"

namespace leveldb {

struct TableModel;  // a table's model, prefix and kept keys (learned_model.h)
class Env;

// The format object: dispatches a table to its builder and reader
// (learned_table_builder.h, learned_table_reader.h, slr_table_builder.h,
// slr_table_reader.h, or LevelDB's own), and trains loaded tables' models
// (retrain). Files:
// learned_table_config (options), learned_table_footer, learned_model +
// rmi_leaves (training), learned_table_book (counters).
class LearnedTableFormat : public TableFormat {
 public:
  // Null and *err when the configuration is inconsistent
  // (CheckLearnedTableConfig).
  static std::unique_ptr<LearnedTableFormat> Make(const LearnedTableConfig& c,
                                                  std::string* err);
  const char* Name() const override { return "learned"; }
  const LearnedTableConfig& config() const { return config_; }

  TableFileBuilder* NewBuilder(const Options& options, WritableFile* file,
                               const TableFileInfo& info) const override;
  Status Open(const Options& options, RandomAccessFile* file,
              uint64_t file_size, const TableFileInfo& info,
              TableReader** reader) const override;

  LearnedTableStats Stats() const { return book_.Stats(); }
  // Index bytes of every table open now (learned and native), by number.
  std::map<uint64_t, size_t> OpenTableIndexBytes() const { return book_.OpenTableIndexBytes(); }

  // retrain: trains this configuration's index over the keys of every
  // listed table of the database `dbname` (LevelDB's own tables are
  // skipped), so that opening them later does not train. Fails on the first
  // table whose layout (keep_keys) differs or whose index cannot be built.
  Status Retrain(Env* env, const std::string& dbname,
                 const std::vector<uint64_t>& numbers) const;
  struct RetrainStats {
    uint64_t tables = 0;         // tables trained
    uint64_t on_first_open = 0;  // of which when first opened after Retrain()
    uint64_t native_tables = 0;  // LevelDB's own tables: nothing to train
    uint64_t failures = 0;
    uint64_t keys = 0;
    uint64_t segments = 0;
    uint64_t trainings = 0;      // models trained (RMI's sizing: up to 2 a table)
    uint64_t read_nanos = 0;     // reading the tables' keys
    uint64_t train_nanos = 0;
    uint64_t model_bytes = 0;    // the retrained models held now
  };
  RetrainStats GetRetrainStats() const;

 private:
  explicit LearnedTableFormat(LearnedTableConfig c) : config_(std::move(c)) {}
  Status TrainTable(RandomAccessFile* file, uint64_t file_size, uint64_t number,
                    bool on_first_open, std::shared_ptr<const TableModel>* out) const;
  std::shared_ptr<const TableModel> Retrained(uint64_t number) const;
  std::string LayoutMismatch(const std::string& table, bool keep_keys) const;

  const LearnedTableConfig config_;
  // Builders and readers report here (none outlives the format).
  mutable LearnedTableBook book_;
  mutable std::mutex mu_;  // guards the retrain state below
  // retrain: the models trained for loaded tables (the tables this process
  // built are in book_: their stored model is already this configuration's).
  mutable std::map<uint64_t, std::shared_ptr<const TableModel>> retrained_;
  mutable RetrainStats retrain_stats_;
  mutable bool retrain_done_ = false;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_FORMAT_H_

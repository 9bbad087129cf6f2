// The learned table format (engines/leveldb-learned, seed 000 §4.1).
//
// A table file holds its entries in key order, then the model of one index
// of the lidx library trained on the table's keys, and a footer:
//
//   entries   keep_keys=false: n slots of `slot_width` bytes (the widest
//             entry), so entry i is at i * slot_width; keep_keys=true:
//             packed, offsets kept in memory
//   prefix    the user keys' common prefix (the model sees what follows)
//   model     lidx Serialize() output
//   offsets   keep_keys only: n+1 fixed64 entry offsets
//   keys      keep_keys only: n fixed64 mapped keys
//   footer    kFooterSize bytes: region sizes, n, slot width, flags, the
//             crc32c of prefix..keys, the footer's own crc32c, the magic
//
// An entry is varint32 key length, varint32 value length, internal key,
// value. A lookup maps the user key (minus the prefix) with lidx's key
// mapping (8-byte big-endian), asks the model for the position bound of the
// first entry >= it, reads only the entries in that bound, and binary
// searches them with the internal key comparator. LITS takes the raw key
// strings. A model or footer that fails its checksum, or does not
// deserialize, makes Open fail with Status::Corruption: never a guess.
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

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "layers/hooks/table_format.h"

namespace lidx {
class Status;
template <typename K>
class Index;
}  // namespace lidx

namespace leveldb {

struct LearnedTableConfig {
  std::string index = "pgm";  // a lidx id: fp plr ft pgm rs plex rmi alex lipp dili lits
  uint64_t position_boundary = 16;  // width of the predicted position range
  bool keep_keys = false;     // packed entries + mapped keys/offsets in memory
  std::map<std::string, std::string> knobs;  // extra lidx knobs (override)
  // Tables this format did not build (a loaded database) are searched with
  // a model of this configuration trained over their keys, not with the
  // model stored in the file: the entries' layout does not depend on the
  // index, only on keep_keys (checked against each table's footer), so one
  // load serves every index and boundary. Train them before the lookups
  // with LearnedTableFormat::Retrain.
  bool retrain = false;
  // index = "native": LevelDB's own table layout, searched as `slr` says:
  // off (LevelDB's code), binary (our reader, counting comparisons), eq or
  // ea (SLR models, slr_table.h).
  std::string slr = "off";
  uint64_t slr_segments = 20;         // slr-eq segments
  uint64_t slr_error_threshold = 100; // worst error before a split / bad segment
  uint64_t slr_max_segments = 20;     // slr-ea segment budget
  uint64_t slr_min_pairs = 32;        // data blocks with fewer entries: no model
  std::string slr_last_mile;          // linear|binary|exponential; "" = paper's
};

// Parses "index=pgm,position_boundary=16,keep_keys=true,retrain=false,knob.epsilon_recursive=4".
bool ParseLearnedTableConfig(const std::string& spec, LearnedTableConfig* c,
                             std::string* err);

struct LearnedTableStats {
  uint64_t tables_built = 0;
  uint64_t native_tables_built = 0;  // non-bytewise comparator: no mapping
  uint64_t build_failures = 0;
  uint64_t segments_built = 0;       // sum of BuildStats::segments
  uint64_t model_bytes_written = 0;
  uint64_t train_nanos = 0;
  uint64_t model_write_nanos = 0;
  uint64_t slr_block_models = 0;     // data blocks given an SLR model
  uint64_t slr_abandoned = 0;        // slr-ea models over budget: binary search
};

struct TableModel;  // a table's model, prefix and kept keys (the .cc)
class Env;

class LearnedTableFormat : public TableFormat {
 public:
  // Null and *err when the index id or a knob is unknown.
  static std::unique_ptr<LearnedTableFormat> Make(const LearnedTableConfig& c,
                                                  std::string* err);
  const char* Name() const override { return "learned"; }
  const LearnedTableConfig& config() const { return config_; }

  TableFileBuilder* NewBuilder(const Options& options, WritableFile* file,
                               const TableFileInfo& info) const override;
  Status Open(const Options& options, RandomAccessFile* file,
              uint64_t file_size, const TableFileInfo& info,
              TableReader** reader) const override;

  LearnedTableStats Stats() const;
  // Index bytes of every table open now (learned and native), by number.
  std::map<uint64_t, size_t> OpenTableIndexBytes() const;

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
    uint64_t read_nanos = 0;     // reading the tables' keys
    uint64_t train_nanos = 0;
    uint64_t model_bytes = 0;    // the retrained models held now
  };
  RetrainStats GetRetrainStats() const;

  // For builders and readers.
  void AddBuilt(const LearnedTableStats& s) const;
  void NoteBuiltHere(uint64_t number) const;
  void Register(uint64_t number, size_t bytes) const;
  void Unregister(uint64_t number) const;

 private:
  explicit LearnedTableFormat(LearnedTableConfig c) : config_(std::move(c)) {}
  Status TrainTable(RandomAccessFile* file, uint64_t file_size, uint64_t number,
                    bool on_first_open, std::shared_ptr<const TableModel>* out) const;
  std::shared_ptr<const TableModel> Retrained(uint64_t number) const;
  bool BuiltHere(uint64_t number) const;
  std::string LayoutMismatch(const std::string& table, bool keep_keys) const;

  const LearnedTableConfig config_;
  mutable std::mutex mu_;
  mutable LearnedTableStats stats_;
  // A table may have two readers at once (the table cache's, and one
  // opened to measure it: index_memory.h), hence the count.
  struct OpenTable {
    size_t bytes = 0;
    int readers = 0;
  };
  mutable std::map<uint64_t, OpenTable> open_;
  // retrain: the models trained for loaded tables, and the tables this
  // process built (their stored model is already this configuration's).
  mutable std::map<uint64_t, std::shared_ptr<const TableModel>> retrained_;
  mutable std::set<uint64_t> built_here_;
  mutable RetrainStats retrain_stats_;
  mutable bool retrain_done_ = false;
};

class RandomAccessFile;

// For level models (level_models.h) and retraining: the user keys of a
// learned table, in order (NotSupported for other tables), with whether its
// entries are packed (keep_keys); and `c`'s integer index trained over
// `mapped` (sorted) as a table's model is, RMI's leaves tuned to the
// position boundary included (*out null and *err set when it cannot be).
Status ReadLearnedTableUserKeys(RandomAccessFile* file, uint64_t file_size,
                                std::vector<std::string>* user_keys,
                                bool* keep_keys = nullptr);
lidx::Status TrainLearnedIndex(const LearnedTableConfig& c, const std::vector<uint64_t>& mapped,
                               std::unique_ptr<lidx::Index<uint64_t>>* out, std::string* err);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_FORMAT_H_

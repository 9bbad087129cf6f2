// lsmbench adapter for leveldb-learned: LevelDB 1.23 whose tables carry a
// learned index of the lidx library (engines/leveldb-learned). Everything
// LevelDB-generic is leveldb_engine.h; this adds the learned table's
// options, its index memory, the hooks' events and the lookup breakdown.
#include "layers/learned/learned_table_format.h"
#include "leveldb_engine.h"
#include "leveldb_hooks_adapter.h"

namespace lsmbench {

namespace {

class LearnedEngine : public LevelDBEngine {
 public:
  // The database goes first: its table cache's readers unregister from
  // format_ as they close.
  ~LearnedEngine() override { Close(); }

  bool Get(std::string_view key, std::string* value, bool* found, std::string* err) override {
    return timers_.TimeGet([&] { return LevelDBEngine::Get(key, value, found, err); });
  }

  std::vector<nlohmann::json> Breakdowns() override { return timers_.Records(); }

 protected:
  std::vector<OptionSpec> ExtraOptionSpecs() const override {
    using OT = OptionSpec::Type;
    return {
        {"index", OT::kString, "pgm", "learned index of every table (lidx id)",
         {"fp", "plr", "ft", "pgm", "rs", "plex", "rmi", "alex", "lipp", "dili", "lits"}},
        {"position_boundary", OT::kInt, "16",
         "predicted range width: error = boundary/2 (plr ft pgm rs plex), block entries (fp), "
         "n/boundary leaves (rmi)", {}},
        {"keep_keys", OT::kBool, "false",
         "packed entries with mapped keys and offsets kept in memory (variable-size entries)", {}},
        {"sstable_size", OT::kInt, "0", "table target bytes (0: max_file_size)", {}},
        {"granularity", OT::kString, "file", "one model per table (file)", {"file"}},
        LookupTimers::Spec(),
    };
  }

  bool Configure(const OptionSet& o, leveldb::Options* options, std::string* err) override {
    leveldb::LearnedTableConfig c;
    c.index = o.Str("index");
    if (o.Int("position_boundary") < 2) {
      *err = "position_boundary: an integer >= 2 expected";
      return false;
    }
    c.position_boundary = static_cast<uint64_t>(o.Int("position_boundary"));
    c.keep_keys = o.Bool("keep_keys");
    format_ = leveldb::LearnedTableFormat::Make(c, err);
    if (format_ == nullptr) return false;
    options->table_format = format_.get();
    options->hooks = &hooks_;
    if (o.Int("sstable_size") > 0) options->max_file_size = o.Int("sstable_size");
    timers_.Configure(o.Str("timers"));
    return true;
  }

  void OnSettled() override { timers_.Reset(); }

  void AddStats(nlohmann::json* stats) override {
    std::map<uint64_t, size_t> open = format_->OpenTableIndexBytes();
    nlohmann::json per_table = nlohmann::json::object();
    uint64_t total = 0;
    for (const auto& [number, bytes] : open) {
      per_table[std::to_string(number)] = bytes;
      total += bytes;
    }
    leveldb::LearnedTableStats s = format_->Stats();
    const auto& c = format_->config();
    (*stats)["index_bytes"] = total;
    (*stats)["index_bytes_source"] =
        "MemoryBytes() of every open table's model, kept keys and offsets (learned tables)";
    (*stats)["learned"] = {
        {"index", c.index},
        {"position_boundary", c.position_boundary},
        {"keep_keys", c.keep_keys},
        {"granularity", "file"},
        {"tables_open", open.size()},
        {"index_bytes_per_table", per_table},
        {"tables_built", s.tables_built},
        {"native_tables_built", s.native_tables_built},
        {"build_failures", s.build_failures},
        {"segments_built", s.segments_built},
        {"model_bytes_written", s.model_bytes_written},
        {"training_seconds", s.train_nanos / 1e9},
        {"model_write_seconds", s.model_write_nanos / 1e9}};
    (*stats)["learning_seconds"] = s.train_nanos / 1e9;
    (*stats)["hooks"] = hooks_.ToJson();
  }

 private:
  std::unique_ptr<leveldb::LearnedTableFormat> format_;
  HooksRecorder hooks_;
  LookupTimers timers_;
};

}  // namespace

std::unique_ptr<Engine> NewEngine() { return std::make_unique<LearnedEngine>(); }

}  // namespace lsmbench

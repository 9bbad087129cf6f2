// lsmbench adapter for leveldb-learned: LevelDB 1.23 whose tables carry a
// learned index of the lidx library (engines/leveldb-learned). Everything
// LevelDB-generic is leveldb_engine.h; this adds the learned table's
// options, its index memory, the hooks' events and the lookup breakdown.
#include <stdexcept>

#include "layers/learned/index_memory.h"
#include "layers/learned/learned_table_format.h"
#include "layers/learned/level_models.h"
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
        {"index", OT::kString, "pgm",
         "learned index of every table (lidx id), or native: LevelDB's own table (for slr)",
         {"fp", "plr", "ft", "pgm", "rs", "plex", "rmi", "alex", "lipp", "dili", "lits",
          "native"}},
        {"slr", OT::kString, "off",
         "index=native only: off (LevelDB's search), binary (our reader, counted), eq or ea "
         "(SLR models), eq-bad (eq with bad segments: index_knobs bad_segments:1)",
         {"off", "binary", "eq", "ea", "eq-bad"}},
        {"slr_segments", OT::kInt, "20", "slr=eq: segments per model", {}},
        {"slr_error_threshold", OT::kInt, "100",
         "worst error before an ea split / an eq bad segment", {}},
        {"slr_max_segments", OT::kInt, "20", "slr=ea: segments before falling back to binary", {}},
        {"slr_min_pairs", OT::kInt, "32", "data blocks with fewer entries get no model", {}},
        {"slr_last_mile", OT::kString, "paper",
         "paper (exponential for eq, linear for ea), linear, binary or exponential",
         {"paper", "linear", "binary", "exponential"}},
        {"position_boundary", OT::kInt, "16",
         "predicted range width: error = boundary/2 (plr ft pgm rs plex), block entries (fp), "
         "n/boundary leaves (rmi)", {}},
        {"keep_keys", OT::kBool, "false",
         "packed entries with mapped keys and offsets kept in memory (variable-size entries)", {}},
        {"index_knobs", OT::kString, "",
         "extra lidx knobs, name:value;name:value (override the boundary's)", {}},
        {"sstable_size", OT::kInt, "0", "table target bytes (0: max_file_size)", {}},
        {"granularity", OT::kString, "file",
         "file: a model per table; level: a model per level over its tables (valid while the "
         "level is unchanged; LevelDB's file search and the table's own model otherwise)",
         {"file", "level"}},
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
    c.slr = o.Str("slr");
    // seed 003 Fig. 8's fourth mechanism as one value of `slr`, so a
    // figure's grid can list it beside the others.
    if (c.slr == "eq-bad") {
      c.slr = "eq";
      c.knobs["bad_segments"] = "1";
    }
    c.slr_segments = static_cast<uint64_t>(o.Int("slr_segments"));
    c.slr_error_threshold = static_cast<uint64_t>(o.Int("slr_error_threshold"));
    c.slr_max_segments = static_cast<uint64_t>(o.Int("slr_max_segments"));
    c.slr_min_pairs = static_cast<uint64_t>(o.Int("slr_min_pairs"));
    c.slr_last_mile = o.Str("slr_last_mile") == "paper" ? "" : o.Str("slr_last_mile");
    const std::string& knobs = o.Str("index_knobs");
    for (size_t pos = 0; pos < knobs.size();) {
      size_t end = knobs.find(';', pos);
      if (end == std::string::npos) end = knobs.size();
      std::string item = knobs.substr(pos, end - pos);
      size_t colon = item.find(':');
      if (colon == std::string::npos || colon == 0) {
        *err = "index_knobs '" + knobs + "': expected name:value;name:value";
        return false;
      }
      c.knobs[item.substr(0, colon)] = item.substr(colon + 1);
      pos = end + 1;
    }
    format_ = leveldb::LearnedTableFormat::Make(c, err);
    if (format_ == nullptr) return false;
    options->table_format = format_.get();
    options->hooks = &hooks_;
    if (o.Str("granularity") == "level") {
      if (c.index == "lits" || c.index == "native") {
        *err = "granularity=level needs an integer-key learned index, not '" + c.index + "'";
        return false;
      }
      levels_ = std::make_unique<leveldb::LevelModels>(c, dir());
      hooks_.Chain(levels_.get());
    }
    if (o.Int("sstable_size") > 0) options->max_file_size = o.Int("sstable_size");
    timers_.Configure(o.Str("timers"));
    return true;
  }

  void OnSettled() override { timers_.Reset(); }

  void AddStats(nlohmann::json* stats) override {
    leveldb::LiveIndexMemory mem;
    leveldb::Status ms;
    // A compaction finishing meanwhile may delete a table just listed: list
    // the live tables again and retry.
    for (int attempt = 0; attempt < 5; attempt++) {
      ms = leveldb::MeasureLiveIndexMemory(*format_, options(), dir(), LiveTables(), &mem);
      if (ms.ok()) break;
    }
    // A partial total must not pass for the index memory.
    if (!ms.ok()) {
      throw std::runtime_error("leveldb-learned: cannot measure the index memory of live tables: " +
                               ms.ToString());
    }
    nlohmann::json per_table = nlohmann::json::object();
    for (const auto& [number, bytes] : mem.per_table) per_table[std::to_string(number)] = bytes;
    leveldb::LearnedTableStats s = format_->Stats();
    const auto& c = format_->config();
    if (c.index != "native" || c.slr != "off") {  // else LevelDB's index blocks, as leveldb
      (*stats)["index_bytes"] = mem.total;
      (*stats)["index_bytes_source"] =
          "IndexMemoryBytes() of every live table's reader (tables not open in the table cache "
          "opened once to be measured): model, kept keys and offsets (learned), index block + "
          "models (slr)";
    }
    (*stats)["learned"] = {
        {"index", c.index},
        {"position_boundary", c.position_boundary},
        {"keep_keys", c.keep_keys},
        {"granularity", levels_ ? "level" : "file"},
        {"tables_open", mem.tables_open},
        {"tables_measured_closed", mem.tables_measured},
        {"index_bytes_per_table", per_table},
        {"tables_built", s.tables_built},
        {"native_tables_built", s.native_tables_built},
        {"build_failures", s.build_failures},
        {"segments_built", s.segments_built},
        {"model_bytes_written", s.model_bytes_written},
        {"training_seconds", s.train_nanos / 1e9},
        {"model_write_seconds", s.model_write_nanos / 1e9},
        {"slr", c.slr},
        {"slr_block_models", s.slr_block_models},
        {"slr_abandoned", s.slr_abandoned}};
    (*stats)["learning_seconds"] = s.train_nanos / 1e9;
    (*stats)["hooks"] = hooks_.ToJson();
    if (levels_) {
      leveldb::LevelModels::Stats ls = levels_->GetStats();
      (*stats)["learned"]["level_models"] = {{"models_built", ls.models_built},
                                             {"models_discarded", ls.models_discarded},
                                             {"training_failures", ls.training_failures},
                                             {"training_seconds", ls.train_nanos / 1e9},
                                             {"lookups_by_model", ls.lookups_by_model},
                                             {"fallbacks", ls.fallbacks},
                                             {"memory_bytes", ls.memory_bytes},
                                             {"last_error", ls.last_error}};
      (*stats)["index_bytes_level_models"] = ls.memory_bytes;
    }
  }

 private:
  std::unique_ptr<leveldb::LearnedTableFormat> format_;
  std::unique_ptr<leveldb::LevelModels> levels_;  // granularity=level
  HooksRecorder hooks_;
  LookupTimers timers_;
};

}  // namespace

std::unique_ptr<Engine> NewEngine() { return std::make_unique<LearnedEngine>(); }

}  // namespace lsmbench

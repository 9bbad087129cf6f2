// lsmbench adapter for leveldb-learned: LevelDB 1.23 whose tables carry a
// learned index of the lidx library (engines/leveldb-learned). Everything
// LevelDB-generic is leveldb_engine.h; this adds the learned table's
// options, its index memory, the hooks' events and the lookup breakdown.
#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "layers/learned/index_memory.h"
#include "layers/learned/learned_table_format.h"
#include "layers/learned/level_models.h"
#include "leveldb_engine.h"
#include "leveldb_hooks_adapter.h"

namespace lsmbench {

namespace {

// lsmbench's choices for `index`: the registry's table indexes, and native.
std::vector<std::string> IndexChoices() {
  std::vector<std::string> ids = leveldb::TableIndexIds();
  ids.push_back("native");
  return ids;
}

class LearnedEngine : public LevelDBEngine {
 public:
  // The database goes first: its table cache's readers unregister from
  // format_ as they close.
  ~LearnedEngine() override { Close(); }

  bool Get(std::string_view key, std::string* value, bool* found, std::string* err) override {
    return timers_.TimeGet([&] { return LevelDBEngine::Get(key, value, found, err); });
  }

  // A learned table's iterator reads no more ahead than the scan still
  // takes (learned_table_iterator.cc).
  bool Scan(std::string_view key, size_t n, std::vector<KV>* out, std::string* err) override {
    leveldb::trace::ScopedScanLength length(n);
    return LevelDBEngine::Scan(key, n, out, err);
  }

  std::vector<nlohmann::json> Breakdowns() override { return timers_.Records(); }

 protected:
  void ScanReturned() override { leveldb::trace::ScanReturned(); }

 public:

  // The lookup timers count into this thread's trace, which every database
  // of the process shares: each keeps its own while paused.
  void Pause() override {
    LevelDBEngine::Pause();
    trace_ = leveldb::trace::ThisThread();
    leveldb::trace::ResetThisThread();
  }
  void Resume() override {
    LevelDBEngine::Resume();
    leveldb::trace::ThisThread() = trace_;
    timers_.Resume();
  }

  bool Open(const std::string& dir, const OptionSet& o, std::string* err) override {
    if (!LevelDBEngine::Open(dir, o, err)) return false;
    if (!CheckLayout(o, err)) return false;
    const std::vector<std::vector<uint64_t>> levels = LiveTablesByLevel();
    bool trained = false;
    if (o.Bool("retrain")) {
      // Every live table is trained now, before any lookup: training is not
      // a lookup cost (it is logged as learned.retrain).
      std::vector<uint64_t> numbers;
      for (const auto& level : levels) numbers.insert(numbers.end(), level.begin(), level.end());
      const IoCounters io0 = IoCounters::Now();
      const auto t0 = std::chrono::steady_clock::now();
      leveldb::Status s = format_->Retrain(leveldb::Env::Default(), dir, numbers);
      retrain_seconds_ =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      retrain_read_bytes_ = IoCounters::Now().read_bytes - io0.read_bytes;
      if (!s.ok()) {
        *err = "retrain: " + s.ToString();
        return false;
      }
      trained = true;
    }
    if (levels_) {
      // A loaded database's level models, trained now rather than in the
      // background during the first lookups (granularity=level).
      for (size_t level = 1; level < levels.size(); level++) {
        levels_->TrainNow(static_cast<int>(level), levels[level]);
        trained |= !levels[level].empty();
      }
    }
    if (trained) MarkSettled();  // the run's I/O and timers start after training
    return true;
  }

 protected:
  std::vector<OptionSpec> ExtraOptionSpecs() const override {
    using OT = OptionSpec::Type;
    std::vector<OptionSpec> specs = {
        {"index", OT::kString, "pgm",
         "learned index of every table (a table index of lidx's registry), or native: "
         "LevelDB's own table (for slr); fp: LevelDB's own table with a data block every "
         "position_boundary entries, its index block the fence pointers (Liu et al. 4.2)",
         IndexChoices()},
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
         "predicted range width, made the index's knob by lidx's registry: error = boundary/2, "
         "block entries, or leaves whose mean width is within it (" +
             leveldb::BoundaryKnobNames() + ")",
         {}},
        {"keep_keys", OT::kBool, "false",
         "packed entries with mapped keys and offsets kept in memory (variable-size entries)", {}},
        {"rmi_leaves", OT::kInt, "0",
         "index=rmi: second-level models a table, fixed (the paper's artifact's --rmisize, "
         "default 1024); 0: n / position_boundary. Other indexes have none: ignored", {}},
        {"index_knobs", OT::kString, "",
         "extra lidx knobs, name:value;name:value (override the boundary's)", {}},
        {"sstable_size", OT::kInt, "0", "table target bytes (0: max_file_size)", {}},
        {"retrain", OT::kBool, "false",
         "on open, train index/position_boundary/index_knobs over the keys of every table of "
         "the loaded database instead of using the model stored in it (the layout options "
         "must be the load's: checked against " + std::string(kLayoutFile) + ")", {}},
        {"granularity", OT::kString, "file",
         "file: a model per table; level: a model per level over its tables (valid while the "
         "level is unchanged; LevelDB's file search and the table's own model otherwise)",
         {"file", "level"}},
        LookupTimers::Spec(),
    };
    for (OptionSpec& s : HooksRecorder::Specs()) specs.push_back(std::move(s));
    return specs;
  }

  bool Configure(const OptionSet& o, leveldb::Options* options, std::string* err) override {
    // One parser of the learned table's options (learned_table_config.h):
    // each of its keys, with the value lsmbench parsed and typed.
    leveldb::LearnedTableConfig c;
    const nlohmann::json all = o.ToJson();
    for (const std::string& key : leveldb::LearnedTableOptionKeys()) {
      const nlohmann::json& v = all.at(key);
      const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
      if (!leveldb::SetLearnedTableOption(key, text, &c, err)) return false;
    }
    format_ = leveldb::LearnedTableFormat::Make(c, err);
    if (format_ == nullptr) return false;
    options->table_format = format_.get();
    hooks_.Configure(o, options);
    if (o.Str("granularity") == "level") {
      if (leveldb::IsStringIndex(c.index) || c.index == "native" ||
          c.index == leveldb::kFencePointers) {
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
          "models (slr), index block (fp)";
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
        {"trainings", s.trainings},
        {"trainings_per_table",
         s.tables_built ? static_cast<double>(s.trainings) / s.tables_built : 0.0},
        {"model_bytes_written", s.model_bytes_written},
        {"training_seconds", s.train_nanos / 1e9},
        {"model_write_seconds", s.model_write_nanos / 1e9},
        {"slr", c.slr},
        {"slr_block_models", s.slr_block_models},
        {"slr_abandoned", s.slr_abandoned}};
    if (c.retrain) {
      leveldb::LearnedTableFormat::RetrainStats r = format_->GetRetrainStats();
      (*stats)["learned"]["retrain"] = {{"tables", r.tables},
                                        {"on_first_open", r.on_first_open},
                                        {"native_tables", r.native_tables},
                                        {"failures", r.failures},
                                        {"keys", r.keys},
                                        {"segments", r.segments},
                                        {"trainings", r.trainings},
                                        {"read_seconds", r.read_nanos / 1e9},
                                        {"training_seconds", r.train_nanos / 1e9},
                                        {"seconds", retrain_seconds_},
                                        {"read_bytes", retrain_read_bytes_},
                                        {"model_bytes", r.model_bytes}};
    }
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
  // The options that fix the tables' layout, written when a database is
  // created and checked when a run retrains over it: a retrained index is
  // only the load's tables searched another way if these are the load's.
  static constexpr const char* kLayoutFile = "LEARNED-LAYOUT";

  static std::string Layout(const OptionSet& o) {
    const int64_t table_bytes =
        o.Int("sstable_size") > 0 ? o.Int("sstable_size") : o.Int("max_file_size");
    return "keep_keys=" + std::string(o.Bool("keep_keys") ? "true" : "false") +
           "\ntable_bytes=" + std::to_string(table_bytes) +
           "\nwrite_buffer_size=" + std::to_string(o.Int("write_buffer_size")) +
           "\nbloom_bits=" + std::to_string(o.Int("bloom_bits")) + "\n" +
           // fp's tables are LevelDB's, their blocks cut by the boundary
           (o.Str("index") == leveldb::kFencePointers
                ? "fp_block_entries=" + std::to_string(o.Int("position_boundary")) + "\n"
                : "");
  }

  // Live tables per level, in LevelDB's order (key order from level 1),
  // from its "leveldb.sstables" property ("--- level N ---", then
  // " number:size[smallest .. largest]" per file).
  std::vector<std::vector<uint64_t>> LiveTablesByLevel() {
    std::string sstables;
    db()->GetProperty("leveldb.sstables", &sstables);
    std::istringstream in(sstables);
    std::string line;
    std::vector<std::vector<uint64_t>> levels;
    while (std::getline(in, line)) {
      int level;
      unsigned long long number, size;
      if (std::sscanf(line.c_str(), "--- level %d ---", &level) == 1) {
        levels.resize(std::max<size_t>(levels.size(), level + 1));
      } else if (!levels.empty() &&
                 std::sscanf(line.c_str(), " %llu:%llu[", &number, &size) == 2) {
        levels.back().push_back(number);
      }
    }
    return levels;
  }

  bool CheckLayout(const OptionSet& o, std::string* err) {
    const std::string path = dir() + "/" + kLayoutFile;
    std::ifstream in(path);
    if (!in) {
      bool empty = true;
      for (const auto& level : LiveTablesByLevel()) empty &= level.empty();
      if (!empty) {
        if (!o.Bool("retrain")) return true;  // not ours to describe
        *err = "retrain: " + path + " is missing: the database was not created by "
               "leveldb-learned, so its table layout cannot be checked";
        return false;
      }
      // A new database: record its layout (written whole, then renamed).
      const std::string tmp = path + ".tmp";
      std::ofstream out(tmp);
      out << Layout(o);
      out.close();
      if (!out || std::rename(tmp.c_str(), path.c_str()) != 0) {
        *err = path + ": cannot write the table layout";
        return false;
      }
      return true;
    }
    if (!o.Bool("retrain")) return true;
    std::string loaded((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string wanted = Layout(o);
    if (loaded == wanted) return true;
    // Name the first option that differs.
    std::istringstream a(loaded), b(wanted);
    std::string la, lb;
    while (true) {
      const bool more_a = static_cast<bool>(std::getline(a, la));
      const bool more_b = static_cast<bool>(std::getline(b, lb));
      if (!more_a) la = "(no " + lb.substr(0, lb.find('=')) + ")";
      if (!more_b) lb = "(no " + la.substr(0, la.find('=')) + ")";
      if (!more_a || !more_b || la != lb) break;
    }
    *err = "retrain: the database in " + dir() + " was loaded with " + la + " and this run asks " +
           lb + " (" + path + "): these options fix the tables' layout, so a run that retrains "
           "must use the load's";
    return false;
  }

  double retrain_seconds_ = 0;
  uint64_t retrain_read_bytes_ = 0;
  std::unique_ptr<leveldb::LearnedTableFormat> format_;
  std::unique_ptr<leveldb::LevelModels> levels_;  // granularity=level
  HooksRecorder hooks_;
  LookupTimers timers_;
  leveldb::trace::LookupTrace trace_{};  // this database's, while another runs
};

}  // namespace

std::unique_ptr<Engine> NewEngine() { return std::make_unique<LearnedEngine>(); }

}  // namespace lsmbench

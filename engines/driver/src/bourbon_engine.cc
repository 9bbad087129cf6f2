// lsmbench adapter for bourbon: LevelDB 1.23 + WiscKey's value log + the
// leveldb-hooks layer + Bourbon's learned lookups (engines/bourbon). The
// LevelDB-generic part is leveldb_engine.h; this adds Bourbon's options,
// its learning report and the lookup breakdown by path.
#include <memory>

#include "layers/bourbon/bourbon.h"
#include "layers/bourbon/path_trace.h"
#include "layers/bourbon/thread_state.h"
#include "leveldb_engine.h"
#include "leveldb_hooks_adapter.h"

namespace lsmbench {

namespace {

class BourbonEngine : public LevelDBEngine {
 public:
  ~BourbonEngine() override { Close(); }

  // Several databases of one process take turns (lsmbench --interleave)
  // only where no learner thread works for this one while another has its
  // turn: learning=never and offline learn nothing after the open. With
  // always and cba the learner trains tables and level models beside the
  // foreground, so a member's learning would overlap the others' turns and
  // slow their gets, which the comparison must not see.
  bool Interleaves() const override { return learning_ == "never" || learning_ == "offline"; }

  // The hooks' step timers, Bourbon's per-path trace and the level model's
  // hint for the next table probe are the thread's: while another database
  // runs, each keeps its own (the files' counts and models are this
  // database's already, in bourbon_).
  void Pause() override {
    LevelDBEngine::Pause();
    trace_ = leveldb::trace::ThisThread();
    leveldb::trace::ResetThisThread();
    thread_.Save();
  }
  void Resume() override {
    LevelDBEngine::Resume();
    leveldb::trace::ThisThread() = trace_;
    thread_.Restore();
    timers_.Resume();
  }

  bool Open(const std::string& dir, const OptionSet& o, std::string* err) override {
    dir_ = dir;
    if (!LevelDBEngine::Open(dir, o, err)) return false;
    // A run on a copy of a settled database (lsmbench --phase run) does not
    // settle again: learn the tables it holds now, before the run phase, as
    // OnSettled does after a load (an empty database has nothing to learn).
    // learn_at_open does the same for always and cba, whose learner starts
    // after it (so no table is left to it) and takes the tables written later.
    bourbon_->Attach(db(), !learn_at_open_);
    if (learning_ == "offline" || learn_at_open_) {
      // Bourbon takes the tables' options from the first table opened: an
      // iterator opens one table per level.
      std::unique_ptr<leveldb::Iterator> it(db()->NewIterator(leveldb::ReadOptions()));
      it->SeekToFirst();
      bourbon_->LearnAll();
    }
    if (learn_at_open_) bourbon_->StartLearner();
    return true;
  }

  void Close() override {
    if (bourbon_) bourbon_->Detach();
    LevelDBEngine::Close();  // table readers go with the DB
    bourbon_.reset();
  }

  bool Get(std::string_view key, std::string* value, bool* found, std::string* err) override {
    return timers_.TimeGet([&] { return LevelDBEngine::Get(key, value, found, err); });
  }

  std::vector<nlohmann::json> Breakdowns() override {
    std::vector<nlohmann::json> out = timers_.Records();
    if (!out.empty()) out.push_back(PathBreakdown());
    return out;
  }

 protected:
  std::vector<OptionSpec> ExtraOptionSpecs() const override {
    using OT = OptionSpec::Type;
    std::vector<OptionSpec> specs = {
        {"error_bound", OT::kInt, "8", "greedy-PLR error bound (positions)", {}},
        {"learning", OT::kString, "cba",
         "offline: learn every table before the run phase; always: every table after "
         "T_wait; cba: after T_wait when the cost-benefit analyzer says so; never: "
         "WiscKey's path only",
         {"offline", "always", "cba", "never"}},
        {"granularity", OT::kString, "file", "one model per table, or per level (L1+)",
         {"file", "level"}},
        {"t_wait_us", OT::kInt, "-1", "wait before learning a table; -1: measured here", {}},
        {"learn_at_open", OT::kBool, "false",
         "learn every table the opened database holds before the run phase (the paper's "
         "\"models available\"), then learn as `learning` says; not with learning=never",
         {}},
        {"cba_min_finished", OT::kInt, "10",
         "finished tables a level needs before the analyzer decides (always-learn until)", {}},
        LookupTimers::Spec(),
    };
    for (OptionSpec& s : HooksRecorder::Specs()) specs.push_back(std::move(s));
    return specs;
  }

  bool Configure(const OptionSet& o, leveldb::Options* options, std::string* err) override {
    leveldb::bourbon::Config c;
    if (o.Int("error_bound") < 1) {
      *err = "error_bound: an integer >= 1 expected";
      return false;
    }
    c.error_bound = static_cast<uint32_t>(o.Int("error_bound"));
    const std::string learning = o.Str("learning");
    never_ = learning == "never";
    learn_at_open_ = o.Bool("learn_at_open");
    if (never_ && learn_at_open_) {
      *err = "learn_at_open=true: learning=never learns nothing; expected learning=offline, "
             "always or cba";
      return false;
    }
    c.learning = learning == "offline" || never_ ? leveldb::bourbon::Learning::kOffline
                 : learning == "always"          ? leveldb::bourbon::Learning::kAlways
                                                 : leveldb::bourbon::Learning::kCba;
    c.granularity = o.Str("granularity") == "level" ? leveldb::bourbon::Granularity::kLevel
                                                     : leveldb::bourbon::Granularity::kFile;
    c.t_wait_seconds = o.Int("t_wait_us") < 0 ? -1 : o.Int("t_wait_us") / 1e6;
    c.cba_min_finished = static_cast<int>(o.Int("cba_min_finished"));
    c.max_file_size = options->max_file_size;
    // A position becomes a byte offset only without prefix compression:
    // one entry per restart point (block_restart_interval is overridden).
    options->block_restart_interval = 1;
    learning_ = learning;
    bourbon_ = std::make_unique<leveldb::bourbon::Bourbon>(c, *options, dir_);
    // The shared recorder (per-level lookups, lifetimes, compactions)
    // forwards every event to Bourbon.
    hooks_.Chain(bourbon_.get());
    options->table_format = bourbon_.get();
    hooks_.Configure(o, options);
    timers_.Configure(o.Str("timers"));
    return true;
  }

  void OnSettled() override {
    if (learning_ == "offline") bourbon_->LearnAll();
    timers_.Reset();
    leveldb::bourbon::ResetThisThreadPaths();
  }

  void AddStats(nlohmann::json* stats) override;

 private:
  nlohmann::json PathBreakdown() const;

  std::string dir_;
  std::string learning_;
  bool never_ = false;
  bool learn_at_open_ = false;
  std::unique_ptr<leveldb::bourbon::Bourbon> bourbon_;
  HooksRecorder hooks_;
  LookupTimers timers_;
  // This database's thread state while another runs (Pause, Resume).
  leveldb::trace::LookupTrace trace_{};
  leveldb::bourbon::ThreadState thread_;
};

namespace {

using leveldb::bourbon::kNumPaths;

// Sums over the files of a snapshot that the level records and the
// engine record need.
struct FileTotals {
  uint64_t segments = 0, model_bytes = 0, file_model_bytes = 0, filter_bytes = 0;
  uint64_t by_path[kNumPaths] = {};
  uint64_t level_pos[7][kNumPaths] = {}, level_neg[7][kNumPaths] = {};
  double level_pos_ns[7][kNumPaths] = {}, level_neg_ns[7][kNumPaths] = {};
};

template <typename T>
nlohmann::json ByPath(const T* values) {
  nlohmann::json out = nlohmann::json::object();
  for (int p = 0; p < kNumPaths; p++) out[leveldb::bourbon::PathName(p)] = values[p];
  return out;
}

// One record a file (live or deleted), adding its counts to *t.
nlohmann::json FilesJson(const leveldb::bourbon::Snapshot& s, FileTotals* t) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& f : s.files) {
    for (int p = 0; p < kNumPaths; p++) {
      t->by_path[p] += f.positive[p] + f.negative[p];
      if (f.level < 7) {
        t->level_pos[f.level][p] += f.positive[p];
        t->level_neg[f.level][p] += f.negative[p];
        t->level_pos_ns[f.level][p] += f.positive_ns[p];
        t->level_neg_ns[f.level][p] += f.negative_ns[p];
      }
    }
    if (f.deleted_s < 0) {
      t->segments += f.segments;
      t->model_bytes += f.model_bytes;
      t->file_model_bytes += f.model_bytes;
      t->filter_bytes += f.filter_bytes;
    }
    files.push_back({{"number", f.number},
                     {"level", f.level},
                     {"size", f.size},
                     {"created_s", f.created_s},
                     {"deleted_s", f.deleted_s < 0 ? nlohmann::json() : nlohmann::json(f.deleted_s)},
                     {"state", f.state},
                     {"entries", f.entries},
                     {"segments", f.segments},
                     {"model_bytes", f.model_bytes},
                     {"fixed_entry_size", f.fixed_entry_size},
                     {"learn_ms", f.learn_ms},
                     {"queue_wait_ms", f.queue_wait_ms},
                     {"benefit_ns", f.benefit_ns},
                     {"cost_ns", f.cost_ns},
                     {"internal_lookups_positive", ByPath(f.positive)},
                     {"internal_lookups_negative", ByPath(f.negative)},
                     {"mean_internal_lookup_ns", {{"baseline", f.baseline_ns}, {"model", f.model_ns}}}});
  }
  return files;
}

// One record a level, from its model and its files' counts; a valid level
// model's segments and bytes are added to *t.
nlohmann::json LevelsJson(const leveldb::bourbon::Snapshot& s, FileTotals* t) {
  nlohmann::json levels = nlohmann::json::array();
  for (const auto& l : s.levels) {
    levels.push_back({{"level", l.level},
                      {"changes", l.changes},
                      {"level_learnings", l.learnings},
                      {"failed_level_learnings", l.failed_learnings},
                      {"level_model_valid", l.model_valid},
                      {"level_model_segments", l.segments},
                      {"level_model_bytes", l.model_bytes},
                      {"level_learn_ms", l.learn_ms},
                      {"internal_lookups_positive", ByPath(t->level_pos[l.level])},
                      {"internal_lookups_negative", ByPath(t->level_neg[l.level])},
                      {"internal_lookup_ns_positive", ByPath(t->level_pos_ns[l.level])},
                      {"internal_lookup_ns_negative", ByPath(t->level_neg_ns[l.level])}});
    if (l.model_valid) {
      t->segments += l.segments;
      t->model_bytes += l.model_bytes;
    }
  }
  return levels;
}

}  // namespace

void BourbonEngine::AddStats(nlohmann::json* stats) {
  leveldb::bourbon::Snapshot s = bourbon_->Collect();
  FileTotals t;
  nlohmann::json files = FilesJson(s, &t);
  nlohmann::json levels = LevelsJson(s, &t);
  uint64_t total = 0;
  for (uint64_t n : t.by_path) total += n;
  nlohmann::json share = nlohmann::json::object();
  for (int p = 0; p < kNumPaths; p++) {
    share[leveldb::bourbon::PathName(p)] = total ? double(t.by_path[p]) / total : 0.0;
  }
  (*stats)["learning_seconds"] = s.learn_ms_total / 1e3;
  (*stats)["bourbon"] = {
      {"learning", learning_},
      {"block_restart_interval", 1},
      {"t_wait_ms", s.t_wait_ms},
      {"t_wait_source", "calibration (read+checksum+PLR of the largest table), raised to the "
                        "longest learning seen; or -o t_wait_us"},
      {"calibration_ms", s.calibration_ms},
      {"calibration_ns_per_key", s.calibration_ns_per_key},
      {"train_ns_per_key", s.train_ns_per_key},
      {"files_learned", s.learned},
      {"files_skipped_by_cba", s.skipped},
      {"files_unlearnable", s.unlearnable},
      {"files_wasted", s.wasted},
      {"queue_length", s.queue_length},
      {"learn_ms_total", s.learn_ms_total},
      {"queue_wait_ms_total", s.queue_wait_ms_total},
      {"live_segments", t.segments},
      {"live_model_bytes", t.model_bytes},
      // file models without the filter blocks' copies (LevelDB holds them
      // too): what learning adds, PLR segments and block layout (§5.8)
      {"live_file_model_bytes_without_filters", t.file_model_bytes - t.filter_bytes},
      {"internal_lookups_by_path", {{"baseline", t.by_path[0]}, {"file_model", t.by_path[1]},
                                    {"level_model", t.by_path[2]}}},
      {"model_path_share", share},
      // range queries: a learned table's iterator seeks with its model
      {"table_iterators_by_path", {{"baseline", s.unlearned_table_iterators},
                                   {"file_model", s.learned_table_iterators}}},
      {"model_seeks", s.model_seeks},
      {"levels", levels},
      {"files", files}};
  (*stats)["hooks"] = hooks_.ToJson();
}

nlohmann::json BourbonEngine::PathBreakdown() const {
  using namespace leveldb::bourbon;
  const PathTrace& t = ThisThreadPaths();
  nlohmann::json paths = nlohmann::json::object(), flat = nlohmann::json::object(),
                 per_op = nlohmann::json::object();
  const uint64_t gets = timers_.TracedGets();
  for (int p = 0; p < kNumPaths; p++) {
    const uint64_t lookups = t.positive[p] + t.negative[p];
    nlohmann::json steps = nlohmann::json::object();
    for (int s = 0; s < kNumPathSteps; s++) {
      if (t.calls[p][s] == 0) continue;
      const double ns = leveldb::trace::TicksToNanos(t.ticks[p][s]);
      const std::string name = std::string(PathName(p)) + "." + PathStepName(s);
      flat[name] = ns;
      per_op[name] = gets ? ns / gets : 0.0;
      steps[PathStepName(s)] = {{"ns", ns},
                                {"calls", t.calls[p][s]},
                                {"ns_per_internal_lookup", lookups ? ns / lookups : 0.0}};
    }
    paths[PathName(p)] = {{"internal_lookups_positive", t.positive[p]},
                          {"internal_lookups_negative", t.negative[p]},
                          {"steps", steps}};
  }
  return {{"scope", "lookup_paths"}, {"ops", gets},     {"unit", "ns"},
          {"steps", flat},           {"per_op", per_op}, {"paths", paths}};
}

}  // namespace

std::unique_ptr<Engine> NewEngine() { return std::make_unique<BourbonEngine>(); }

}  // namespace lsmbench

// What an lsmbench adapter over engines/leveldb-hooks records: the lookup
// step timers (the `breakdown` record of scope "lookup"), their overhead
// (timers=alternate), and the LSM hooks' events (file lifetimes, internal
// lookups per level, per-compaction model costs) for the `engine` record.
// Shared by the LevelDB forks' adapters (leveldb-learned, wisckey, bourbon).
#ifndef LSMBENCH_LEVELDB_HOOKS_ADAPTER_H_
#define LSMBENCH_LEVELDB_HOOKS_ADAPTER_H_

#include <array>
#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "layers/hooks/lookup_trace.h"
#include "layers/hooks/lsm_hooks.h"
#include "leveldb/env.h"
#include "leveldb/options.h"
#include "options.h"

namespace lsmbench {

// Records the hooks' events (called from LevelDB's threads: one mutex) and
// forwards each to the fork's own hooks, if any (Chain).
class HooksRecorder : public leveldb::LsmHooks {
 public:
  static constexpr int kLevels = 7;

  // The hooks layer's own options, for every fork's ExtraOptionSpecs.
  static std::vector<OptionSpec> Specs() {
    return {{"seek_compaction", OptionSpec::Type::kBool, "true",
             "LevelDB's seek-triggered compaction: a table that gets probe first without "
             "finding their key is compacted after max(100, size/16 KiB) such gets; false: "
             "gets start no compaction (engines/leveldb-hooks)", {}},
            {"max_bytes_for_level_base", OptionSpec::Type::kInt, "10485760",
             "level-1 size limit in bytes (upstream's fixed 10 MiB; engines/leveldb-hooks)", {}, 1.0},
            {"max_bytes_for_level_multiplier", OptionSpec::Type::kInt, "10",
             "each level's limit over the one above it (upstream's fixed 10; engines/leveldb-hooks)", {}, 2.0}};
  }
  // Installs the recorder and applies Specs(); call from Configure, just
  // before DB::Open (compaction start times count from here).
  void Configure(const OptionSet& o, leveldb::Options* options) {
    options->hooks = this;
    options->seek_compaction = o.Bool("seek_compaction");
    options->max_bytes_for_level_base = static_cast<double>(o.Int("max_bytes_for_level_base"));
    options->max_bytes_for_level_multiplier = static_cast<double>(o.Int("max_bytes_for_level_multiplier"));
    open_micros_ = leveldb::Env::Default()->NowMicros();
  }

  void Chain(leveldb::LsmHooks* next) { next_ = next; }
  bool FindFileInLevel(int level, const std::vector<leveldb::FileMetaData*>& files,
                       const leveldb::Slice& internal_key, uint32_t* index) override {
    return next_ != nullptr && next_->FindFileInLevel(level, files, internal_key, index);
  }

  void OnFileCreated(const leveldb::FileEvent& e) override {
    if (next_ != nullptr) next_->OnFileCreated(e);
    std::lock_guard<std::mutex> l(mu_);
    born_[e.number] = e.micros;
    created_[Level(e.level)]++;
  }
  void OnFileDeleted(const leveldb::FileEvent& e) override {
    if (next_ != nullptr) next_->OnFileDeleted(e);
    std::lock_guard<std::mutex> l(mu_);
    auto it = born_.find(e.number);
    if (it == born_.end()) return;  // created before this process opened the DB
    int lv = Level(e.level);
    lifetime_us_[lv] += e.micros - it->second;
    deleted_[lv]++;
    born_.erase(it);
  }
  void OnFileLookup(int level, uint64_t number, bool found) override {
    if (next_ != nullptr) next_->OnFileLookup(level, number, found);
    // Version::Get runs on the caller's thread; counters per level.
    std::lock_guard<std::mutex> l(mu_);
    (found ? positive_ : negative_)[Level(level)]++;
  }
  void OnCompaction(const leveldb::CompactionEvent& e) override {
    if (next_ != nullptr) next_->OnCompaction(e);
    std::lock_guard<std::mutex> l(mu_);
    const double total = e.micros * 1e3, train = e.train_nanos, write = e.model_write_nanos;
    compactions_.push_back({{"flush", e.flush},
                            {"trigger", leveldb::CompactionTriggerName(e.trigger)},
                            {"start_seconds",
                             e.start_micros >= open_micros_ ? (e.start_micros - open_micros_) / 1e6
                                                            : 0.0},
                            {"output_level", e.output_level},
                            {"input_files", e.input_files},
                            {"output_files", e.output_files},
                            {"bytes_read", e.bytes_read},
                            {"bytes_written", e.bytes_written},
                            {"seconds", total / 1e9},
                            {"training_seconds", train / 1e9},
                            {"model_write_seconds", write / 1e9},
                            {"kv_io_seconds", std::max(0.0, total - train - write) / 1e9}});
  }

  nlohmann::json ToJson() {
    std::lock_guard<std::mutex> l(mu_);
    nlohmann::json levels = nlohmann::json::array();
    double train = 0, write = 0, kv = 0, total = 0;
    // <trigger>_count and <trigger>_seconds for every trigger (a zero is a
    // measured zero), flat so that the tidy table carries them.
    std::map<std::string, std::pair<uint64_t, double>> by_trigger;
    for (auto t : {leveldb::CompactionTrigger::kFlush, leveldb::CompactionTrigger::kSize,
                   leveldb::CompactionTrigger::kSeek, leveldb::CompactionTrigger::kManual}) {
      by_trigger[leveldb::CompactionTriggerName(t)] = {0, 0.0};
    }
    for (const auto& c : compactions_) {
      train += c["training_seconds"].get<double>();
      write += c["model_write_seconds"].get<double>();
      kv += c["kv_io_seconds"].get<double>();
      total += c["seconds"].get<double>();
      auto& t = by_trigger[c["trigger"].get<std::string>()];
      t.first++;
      t.second += c["seconds"].get<double>();
    }
    for (int i = 0; i < kLevels; i++) {
      levels.push_back({{"level", i},
                        {"files_created", created_[i]},
                        {"files_deleted", deleted_[i]},
                        {"mean_lifetime_seconds",
                         deleted_[i] ? lifetime_us_[i] / 1e6 / deleted_[i] : 0.0},
                        {"internal_lookups_positive", positive_[i]},
                        {"internal_lookups_negative", negative_[i]}});
    }
    nlohmann::json totals = {{"count", compactions_.size()},
                             {"seconds", total},
                             {"training_seconds", train},
                             {"model_write_seconds", write},
                             {"kv_io_seconds", kv}};
    for (const auto& [name, t] : by_trigger) {
      totals[name + "_count"] = t.first;
      totals[name + "_seconds"] = t.second;
    }
    return {{"levels", levels}, {"compactions", compactions_}, {"compaction_totals", totals}};
  }

 private:
  static int Level(int l) { return l < 0 ? 0 : l >= kLevels ? kLevels - 1 : l; }
  leveldb::LsmHooks* next_ = nullptr;
  uint64_t open_micros_ = 0;
  std::mutex mu_;
  std::map<uint64_t, uint64_t> born_;
  uint64_t created_[kLevels] = {}, deleted_[kLevels] = {}, lifetime_us_[kLevels] = {};
  uint64_t positive_[kLevels] = {}, negative_[kLevels] = {};
  std::vector<nlohmann::json> compactions_;
};

// The `timers` option: off (default), on, or alternate: tracing toggled on
// every other get, each get timed here, so one run shows what the timers
// cost (`timer_overhead` in the lookup breakdown).
class LookupTimers {
 public:
  static OptionSpec Spec() {
    return {"timers", OptionSpec::Type::kString, "off",
            "lookup step timers: off, on, or alternate (on every other get: "
            "measures their overhead)", {"off", "on", "alternate"}};
  }
  void Configure(const std::string& mode) {
    mode_ = mode;
    leveldb::trace::SetTracing(mode == "on");
  }
  // Tracing is the process's switch: this database's mode again, after
  // another database of the process ran with its own.
  void Resume() const { leveldb::trace::SetTracing(mode_ == "on"); }
  // Call at the run's start (after settling).
  void Reset() {
    leveldb::trace::ResetThisThread();
    for (auto& s : sum_) s = 0;
    for (auto& c : count_) c = 0;
    comparisons_.Clear();
    index_comparisons_.Clear();
    for (auto& v : samples_) v.clear();
    gets_ = 0;
  }
  template <typename F>
  auto TimeGet(F&& get) {
    gets_++;
    const leveldb::trace::LookupTrace& t = leveldb::trace::ThisThread();
    const uint64_t before = t.comparisons, index_before = t.index_comparisons;
    auto r = mode_ == "alternate" ? TimeAlternate(get) : get();
    // Key comparisons of this very get (seed 003 Fig. 9 plots their
    // distribution): traced gets only, after the timed window.
    if (mode_ == "on" || (mode_ == "alternate" && gets_ % 2 == 1)) {
      comparisons_.Add(t.comparisons - before);
      index_comparisons_.Add(t.index_comparisons - index_before);
    }
    return r;
  }

  template <typename F>
  auto TimeAlternate(F&& get) {
    const bool on = gets_ % 2 == 1;
    leveldb::trace::SetTracing(on);
    auto t0 = std::chrono::steady_clock::now();
    auto r = get();
    auto t1 = std::chrono::steady_clock::now();
    const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
    sum_[on] += ns;
    count_[on]++;
    if (samples_[on].size() < kMaxSamples) samples_[on].push_back(static_cast<float>(ns));
    leveldb::trace::SetTracing(false);
    return r;
  }

  // Gets whose lookups the timers traced (bourbon's per-path breakdown).
  uint64_t TracedGets() const {
    return mode_ == "on" ? gets_ : mode_ == "alternate" ? count_[1] : 0;
  }

  // The `breakdown` record of scope "lookup" (none when timers are off).
  std::vector<nlohmann::json> Records() const {
    if (mode_ == "off") return {};
    const leveldb::trace::LookupTrace& t = leveldb::trace::ThisThread();
    // Lookups traced: every get with timers on, half of them alternating.
    const uint64_t n = mode_ == "on" ? gets_ : count_[1];
    nlohmann::json steps = nlohmann::json::object(), per_op = nlohmann::json::object(),
                   calls = nlohmann::json::object();
    for (int s = 0; s < leveldb::trace::kNumSteps; s++) {
      double ns = leveldb::trace::TicksToNanos(t.ticks[s]);
      steps[leveldb::trace::StepName(s)] = ns;
      per_op[leveldb::trace::StepName(s)] = n ? ns / n : 0.0;
      calls[leveldb::trace::StepName(s)] = t.calls[s];
    }
    nlohmann::json rec = {
        {"scope", "lookup"},
        {"ops", n},
        {"unit", "ns"},
        {"steps", steps},
        {"per_op", per_op},
        {"step_calls", calls},
        {"counters", {{"comparisons", t.comparisons},
                      {"index_comparisons", t.index_comparisons},
                      {"comparisons_per_lookup", n ? double(t.comparisons) / n : 0.0},
                      {"comparisons_histogram", comparisons_.ToJson()},
                      {"comparisons_p50", comparisons_.Percentile(0.5)},
                      {"comparisons_p99", comparisons_.Percentile(0.99)},
                      {"comparisons_max", comparisons_.Percentile(1.0)},
                      {"index_comparisons_histogram", index_comparisons_.ToJson()},
                      {"index_comparisons_p50", index_comparisons_.Percentile(0.5)},
                      {"index_comparisons_p99", index_comparisons_.Percentile(0.99)},
                      {"index_comparisons_max", index_comparisons_.Percentile(1.0)},
                      {"bytes_loaded", t.bytes_loaded},
                      {"bytes_loaded_per_lookup", n ? double(t.bytes_loaded) / n : 0.0},
                      {"tables_probed", t.tables_probed},
                      {"segments_touched", t.segments_touched},
                      {"level_model_hits", t.level_model_hits},
                      {"level_fallbacks", t.level_fallbacks}}},
        {"timers", mode_}};
    if (mode_ == "alternate") {
      double on = count_[1] ? sum_[1] / count_[1] : 0, off = count_[0] ? sum_[0] / count_[0] : 0;
      // Medians too: on a shared machine a few preempted gets move the means.
      double p50_on = Median(samples_[1]), p50_off = Median(samples_[0]);
      rec["timer_overhead"] = {{"gets_timed_on", count_[1]},
                               {"gets_timed_off", count_[0]},
                               {"mean_ns_on", on},
                               {"mean_ns_off", off},
                               {"overhead_fraction", off > 0 ? on / off - 1 : 0.0},
                               {"p50_ns_on", p50_on},
                               {"p50_ns_off", p50_off},
                               {"p50_overhead_fraction", p50_off > 0 ? p50_on / p50_off - 1 : 0.0}};
    }
    return {rec};
  }

 private:
  // Key comparisons of one traced get -> gets; the last bucket holds
  // kMax and more. Exact counts, so a plain array (no log-linear buckets).
  class CountHistogram {
   public:
    static constexpr uint64_t kMax = 1024;
    void Clear() { gets_.fill(0); }
    void Add(uint64_t c) { gets_[c < kMax ? c : kMax]++; }
    nlohmann::json ToJson() const {
      nlohmann::json h = nlohmann::json::object();
      for (uint64_t c = 0; c <= kMax; c++) {
        if (gets_[c]) h[std::to_string(c)] = gets_[c];
      }
      return h;
    }
    // The smallest count c with at least q of the gets at or below it.
    uint64_t Percentile(double q) const {
      uint64_t total = 0, seen = 0;
      for (uint64_t g : gets_) total += g;
      for (uint64_t c = 0; c <= kMax; c++) {
        seen += gets_[c];
        if (total && seen >= q * total) return c;
      }
      return 0;
    }

   private:
    std::array<uint64_t, kMax + 1> gets_{};
  };

  CountHistogram comparisons_, index_comparisons_;
  static constexpr size_t kMaxSamples = 1 << 22;
  static double Median(std::vector<float> v) {
    if (v.empty()) return 0;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  }

  std::string mode_ = "off";
  std::vector<float> samples_[2];
  double sum_[2] = {0, 0};
  uint64_t count_[2] = {0, 0};
  uint64_t gets_ = 0;
};

}  // namespace lsmbench

#endif  // LSMBENCH_LEVELDB_HOOKS_ADAPTER_H_

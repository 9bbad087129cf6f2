// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// Bourbon (seed 004 §4) on LevelDB 1.23 + WiscKey's value log, through the
// leveldb-hooks layer: one object is both the table format (LevelDB's own
// tables, read through a reader that takes the model path once the file is
// learned) and the LSM hooks (file lifetimes, internal lookups, level
// models in FindFileInLevel).
//
//   * File models: greedy PLR (lidx's `plr`, error bound `error_bound`)
//     over each table's user keys, learned by a background thread; a lookup
//     in a learned file goes model → filter → chunk → key (Figure 6b,
//     FileLayout); an unlearned one takes LevelDB's path.
//   * Level models (granularity = level, never L0): one PLR over a whole
//     level, valid until the level changes; a learning the level outran is
//     counted as failed.
//   * Learning: offline (LearnAll() before the run phase), always (every
//     file after T_wait), or cba (§4.4: after T_wait, learn when
//     B_model > C_model, max-priority queue by B − C; always-learn while a
//     level has fewer than `cba_min_finished` finished files). T_wait is the
//     time to learn the largest table on this machine: a calibration at
//     start, raised to the longest learning seen.
#ifndef STORAGE_LEVELDB_LAYERS_BOURBON_BOURBON_H_
#define STORAGE_LEVELDB_LAYERS_BOURBON_BOURBON_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "db/dbformat.h"
#include "layers/hooks/lsm_hooks.h"
#include "layers/hooks/table_format.h"
#include "leveldb/options.h"

namespace leveldb {

class DB;
class Env;

namespace bourbon {

struct FileState;
struct LevelModel;
struct ScanCounters;

// kOnOpen: each table is learned as it is opened, on the opening thread,
// with no registry across tables: LevelDB's upstream tests run every
// lookup through the model path that way (bourbon_default_format.cc).
enum class Learning { kOffline, kAlways, kCba, kOnOpen };
enum class Granularity { kFile, kLevel };

struct Config {
  uint32_t error_bound = 8;
  Learning learning = Learning::kCba;
  Granularity granularity = Granularity::kFile;
  double t_wait_seconds = -1;     // < 0: measured on this machine
  uint64_t max_file_size = 2 << 20;  // the largest table, for calibration
  int cba_min_finished = 10;      // finished files per level before CBA decides
};

// What Bourbon did, for the run log (the adapter turns it into JSON).
struct FileRecord {
  uint64_t number, level, size, entries, segments, model_bytes;
  uint64_t filter_bytes;  // of model_bytes: the filter block's copy
  double created_s, deleted_s;  // since Bourbon started; deleted_s < 0: live
  const char* state;            // waiting queued learning learned skipped ...
  uint64_t positive[3], negative[3];  // internal lookups by path
  double positive_ns[3], negative_ns[3];  // their summed time by path
  double baseline_ns, model_ns;       // mean internal lookup time by path
  double learn_ms, queue_wait_ms, benefit_ns, cost_ns;
  bool fixed_entry_size;
};
struct LevelRecord {
  int level;
  uint64_t changes, learnings, failed_learnings, segments, model_bytes;
  bool model_valid;
  double learn_ms;
};
struct Snapshot {
  double t_wait_ms, calibration_ms, calibration_ns_per_key, train_ns_per_key;
  uint64_t learned, skipped, unlearnable, wasted, queue_length;
  double learn_ms_total, queue_wait_ms_total;
  // Range queries: table iterators made on unlearned and learned tables
  // (those seek with the model), and the seeks the models answered.
  uint64_t unlearned_table_iterators, learned_table_iterators, model_seeks;
  std::vector<FileRecord> files;  // every table, live and deleted
  std::vector<LevelRecord> levels;
};

class Bourbon : public TableFormat, public LsmHooks {
 public:
  // `options` are the options the DB `dbname` is opened with (comparator,
  // env; the tables' own options come with the first table opened).
  Bourbon(const Config& config, const Options& options,
          const std::string& dbname);
  ~Bourbon() override;

  // Takes the files a reopened database already holds and starts the
  // background learner (after DB::Open); without `start_learner` the caller
  // starts it, after LearnAll() has learned those files undisturbed.
  void Attach(DB* db, bool start_learner = true);
  // Attach's two steps: the file events seen so far, and the files of a
  // "leveldb.sstables" listing read after them; false, and nothing taken,
  // when a file event came after the listing was read.
  uint64_t FileEventsSeen() const;
  bool AttachFiles(const std::string& sstables, uint64_t events_before);
  void StartLearner();
  // Stops the learner (before the DB is closed).
  void Detach();

  // Learns every live file (and level) now, on this thread: `offline`.
  // Beside a running learner each file keeps the first model installed
  // (readers hold it by a plain pointer); neither replaces the other's.
  void LearnAll();

  Snapshot Collect();

  double t_wait_seconds() const { return t_wait_ns_.load() / 1e9; }

  // TableFormat
  const char* Name() const override { return "bourbon"; }
  TableFileBuilder* NewBuilder(const Options& options, WritableFile* file,
                               const TableFileInfo& info) const override;
  Status Open(const Options& options, RandomAccessFile* file,
              uint64_t file_size, const TableFileInfo& info,
              TableReader** reader) const override;

  // LsmHooks
  void OnFileCreated(const FileEvent& e) override;
  void OnFileDeleted(const FileEvent& e) override;
  bool FindFileInLevel(int level, const std::vector<FileMetaData*>& files,
                       const Slice& internal_key, uint32_t* index) override;

 private:
  struct Queued {
    double priority;
    uint64_t number;
    bool operator<(const Queued& o) const { return priority < o.priority; }
  };

  std::shared_ptr<FileState> StateOf(uint64_t number) const;
  void LearnerLoop();
  // Decides about files whose T_wait has passed; mu_ held.
  void Triage(uint64_t now_us);
  bool LearnFile(const std::shared_ptr<FileState>& f);
  bool LearnLevel(int level);
  void FinishDeleted(uint64_t now_us);
  void LevelChanged(int level, uint64_t now_us);
  double EstimateBenefitMinusCost(const FileState& f, double* benefit,
                                  double* cost) const;
  void Calibrate();

  const Config config_;
  const Options options_;
  const std::string dbname_;
  const InternalKeyComparator icmp_;
  Env* const env_;
  const std::unique_ptr<ScanCounters> scans_;  // readers count into it
  // The DB's own table options (internal comparator and filter policy),
  // from the first TableFormat::Open.
  mutable std::atomic<const Options*> table_options_{nullptr};
  std::atomic<uint64_t> t_wait_ns_{0};
  std::atomic<double> train_ns_per_key_{0};
  double calibration_ns_per_key_ = 0;
  uint64_t calibration_ns_ = 0;
  uint64_t start_us_ = 0;

  mutable std::mutex mu_;  // a FileState's unsynchronized fields too
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread learner_;
  mutable std::map<uint64_t, std::shared_ptr<FileState>> live_;
  uint64_t file_events_ = 0;  // OnFileCreated and OnFileDeleted calls
  std::vector<std::shared_ptr<FileState>> graveyard_;  // deleted this edit
  std::vector<std::shared_ptr<FileState>> finished_;
  std::vector<Queued> queue_;  // a max-heap by B - C
  uint64_t learned_ = 0, skipped_ = 0, unlearnable_ = 0, wasted_ = 0;
  uint64_t learn_ns_total_ = 0, queue_wait_ns_total_ = 0;
  uint64_t learned_entries_ = 0, learned_bytes_ = 0;
  uint64_t level_segments_[7] = {}, level_model_bytes_[7] = {};
  uint64_t level_attempted_generation_[7] = {};
  // Statistics of the files each level has finished (FinishDeleted), so the
  // analyzer never rescans every file that ever lived.
  struct FinishedLevel {
    uint64_t count = 0, size = 0, negative = 0, positive = 0;  // lifetime >= T_wait
    uint64_t ticks[2][3] = {}, lookups[2][3] = {};  // [negative, positive][path]
  };
  FinishedLevel finished_levels_[7];
  uint64_t level_changes_[7] = {}, level_learnings_[7] = {};
  uint64_t level_failed_[7] = {}, level_learn_ns_[7] = {};

  // Level models, by level; read lock-free by lookups.
  std::shared_ptr<LevelModel> levels_[7];
  std::atomic<uint64_t> level_generation_[7];
  uint64_t level_changed_us_[7] = {};
};

}  // namespace bourbon
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_BOURBON_BOURBON_H_

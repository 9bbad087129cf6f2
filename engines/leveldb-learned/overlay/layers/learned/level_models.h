// Level models (granularity=level; seed 000 §5.5, Bourbon's level models):
// one lidx index over every key of a level's learned tables, predicting a
// key's position in the level, hence its table and a position bound inside
// it (passed to the table through trace::Context()'s hint).
//
// A model is valid only while its level is unchanged: the file events of
// engines/leveldb-hooks invalidate it, and a lookup also checks that the
// version it searches has exactly the model's files. Otherwise, and where
// the bound spans two tables, LevelDB's own file search answers and the
// lookup counts as a fallback. A stale level is retrained in one background
// thread from the tables' keys, so lookups never wait for training.
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_LEVEL_MODELS_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_LEVEL_MODELS_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "layers/hooks/lsm_hooks.h"
#include "layers/learned/learned_table_config.h"

namespace leveldb {

class LevelModels : public LsmHooks {
 public:
  static constexpr int kLevels = 7;

  // `dir`: the database folder, where the tables are read for training.
  LevelModels(const LearnedTableConfig& config, std::string dir);
  LevelModels(const LevelModels&) = delete;
  LevelModels& operator=(const LevelModels&) = delete;
  ~LevelModels() override;

  void OnFileCreated(const FileEvent& e) override { Invalidate(e.level); }
  void OnFileDeleted(const FileEvent& e) override { Invalidate(e.level); }
  bool FindFileInLevel(int level, const std::vector<FileMetaData*>& files,
                       const Slice& internal_key, uint32_t* index) override;

  // Trains level `level`'s model now, in this thread, over its files
  // `numbers` in key order (on open, so that lookups find it ready).
  void TrainNow(int level, std::vector<uint64_t> numbers);

  struct Stats {
    uint64_t models_built = 0;
    uint64_t models_discarded = 0;  // level changed while training
    uint64_t training_failures = 0; // tables not learned, or Build failed
    uint64_t train_nanos = 0;
    uint64_t lookups_by_model = 0;
    uint64_t fallbacks = 0;
    uint64_t memory_bytes = 0;      // models valid now
    std::string last_error;
  };
  Stats GetStats();

 private:
  struct Model;
  void Invalidate(int level);
  void Train(int level, uint64_t generation, std::vector<uint64_t> numbers);
  bool Fallback();

  const LearnedTableConfig config_;
  const std::string dir_;
  std::mutex mu_;
  std::shared_ptr<const Model> models_[kLevels];
  uint64_t generation_[kLevels] = {};
  uint64_t failed_generation_[kLevels];  // not retrained until the level changes
  std::thread trainer_;
  std::atomic<bool> training_{false};
  std::atomic<uint64_t> lookups_by_model_{0}, fallbacks_{0};
  Stats stats_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_LEVEL_MODELS_H_

// The tuning agent (seed 002 §III-F, Algorithm 4): tabular Q-learning over
// 20 states (PLA with E in {32, 64, 128, 256} or PRA, x B_max in {4, 8, 16,
// 32} KiB) and 5 actions (error up/down, block up/down, keep). Every
// `period` new tables it takes the mean read latency and index size since
// its last step, rewards the state it chose with
//   R = -nu * sigmoid_norm(latency) - (1 - nu) * sigmoid_norm(index size),
// updates Q (alpha 0.2, gamma 0.8) and picks the next state epsilon-greedily
// (epsilon 0.99 decaying to 0.02, reset on a shift of the key distribution).
// Its Q table starts from a cost-model estimate of every state on a 1%
// sample of the first table's keys (warm start). Seeded: the same rewards
// replay the same choices. Every step is kept for the run log.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

struct DoblixKnobs {
  bool pra = false;
  uint32_t error = 64;
  uint32_t max_block = 4096;
};

// What a finished table tells the agent.
struct DoblixTableReport {
  uint64_t entries = 0;
  uint64_t index_bytes = 0;
  double log2_key_gap = 0;  // log2 of the interquartile key-integer gap
  bool flush = false;       // a memtable flush (compaction outputs are not
                            // samples of the incoming keys)
  // Its keys' integers and entry bytes, sampled (1%), for the warm start.
  std::vector<uint64_t> sample_chunks;
  std::vector<uint32_t> sample_bytes;
};

class DoblixAgent {
 public:
  static constexpr int kStates = 20;
  static constexpr int kActions = 5;
  static constexpr double kAlpha = 0.2, kGamma = 0.8;
  static constexpr double kEpsilonStart = 0.99, kEpsilonMin = 0.02, kEpsilonDecay = 0.9;

  DoblixAgent(double nu, uint64_t seed, uint32_t period);

  DoblixKnobs Knobs() const;
  bool WantsSample() const { return !warm_.load(std::memory_order_relaxed); }
  void OnTableBuilt(const DoblixTableReport& report);
  // One user read of one table (a point lookup, or a range query's part in
  // it): its time and the data-block bytes it loaded.
  void RecordRead(uint64_t nanos, uint64_t block_bytes) {
    read_nanos_.fetch_add(nanos, std::memory_order_relaxed);
    read_block_bytes_.fetch_add(block_bytes, std::memory_order_relaxed);
    reads_.fetch_add(1, std::memory_order_relaxed);
  }
  // Every episode so far as a JSON array (the run log's doblix_agent field).
  std::string EpisodesJson() const;

  static DoblixKnobs KnobsOf(int state);

 private:
  static int Apply(int state, int action);  // -1 when not available
  double Normalize(double v, double* mean, double* m2, double n) const;
  void WarmStart(const DoblixTableReport& report);
  void Step();

  const double nu_;
  const uint32_t period_;
  mutable std::mutex mu_;
  std::mt19937_64 rng_;
  double q_[kStates][kActions] = {};
  int state_ = 4;  // PLA E=64, B_max 4 KiB (RocksDB's block size)
  int last_state_ = 4, last_action_ = 4;
  double epsilon_ = kEpsilonStart;
  std::atomic<bool> warm_{false};
  uint32_t tables_ = 0;
  uint64_t episode_entries_ = 0, episode_index_bytes_ = 0, total_entries_ = 0;
  double episode_gap_sum_ = 0, last_gap_ = 0;
  uint32_t episode_flushes_ = 0;
  bool have_gap_ = false;
  // Running statistics for the sigmoid normalization.
  double lat_n_ = 0, lat_mean_ = 0, lat_m2_ = 0, idx_mean_ = 0, idx_m2_ = 0;
  std::atomic<uint64_t> read_nanos_{0}, read_block_bytes_{0}, reads_{0};
  uint64_t episode_start_ns_ = 0;
  std::vector<std::string> episodes_;
};

}  // namespace ROCKSDB_NAMESPACE

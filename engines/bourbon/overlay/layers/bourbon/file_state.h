// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// What Bourbon knows of one table (its level, lifetime, model and internal
// lookups by path) and where range queries started: the counters the table
// readers write and the learner and the run log read.
#ifndef STORAGE_LEVELDB_LAYERS_BOURBON_FILE_STATE_H_
#define STORAGE_LEVELDB_LAYERS_BOURBON_FILE_STATE_H_

#include <atomic>
#include <cstdint>
#include <memory>

#include "layers/bourbon/models.h"
#include "layers/bourbon/path_trace.h"

namespace leveldb {
namespace bourbon {

struct FileState {
  uint64_t number = 0;
  std::atomic<int> level{-1};
  uint64_t size = 0;
  uint64_t created_us = 0;
  uint64_t deleted_us = 0;
  std::atomic<const FileModel*> model{nullptr};
  std::unique_ptr<FileModel> owner;
  std::atomic<uint64_t> positive[kNumPaths] = {}, negative[kNumPaths] = {};
  std::atomic<uint64_t> positive_ticks[kNumPaths] = {},
                        negative_ticks[kNumPaths] = {};
  // Guarded by Bourbon::mu_.
  const char* state = "waiting";
  bool triaged = false;
  bool deleted = false;
  uint64_t queued_us = 0, learn_start_us = 0, learn_ns = 0;
  uint64_t entries = 0, segments = 0, model_bytes = 0, filter_bytes = 0;
  double benefit_ns = 0, cost_ns = 0;
  bool fixed_entry_size = false;

  uint64_t Lookups() const {
    uint64_t n = 0;
    for (int p = 0; p < kNumPaths; p++) n += positive[p] + negative[p];
    return n;
  }
};

// Where range queries start, for the run log.
struct ScanCounters {
  std::atomic<uint64_t> table_iterators[2] = {};  // [unlearned, learned]
  std::atomic<uint64_t> model_seeks{0};
};

}  // namespace bourbon
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_BOURBON_FILE_STATE_H_

// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// Bourbon's per-thread step timers, kept apart by lookup path (Figures 2
// and 8). The model path's own steps (Figure 6b) are timed here; the
// baseline path's are the leveldb-hooks steps taken inside LevelDB's
// Table::InternalGet, which the reader attributes to the baseline path as
// the difference of the hooks' trace across the call. Both cost nothing
// unless trace::Tracing().
#ifndef STORAGE_LEVELDB_LAYERS_BOURBON_PATH_TRACE_H_
#define STORAGE_LEVELDB_LAYERS_BOURBON_PATH_TRACE_H_

#include <cstdint>

#include "layers/hooks/lookup_trace.h"

namespace leveldb {
namespace bourbon {

enum Path { kBaselinePath, kFileModelPath, kLevelModelPath, kNumPaths };
const char* PathName(int path);

// Model path steps (Figure 6b, 3-6), then the baseline's table steps
// (Figure 1a, 2-6) as the hooks name them.
enum PathStep {
  kModelLookup,   // ③ PLR segment search + line (file or level model)
  kSearchFilter,  // ④ filter of the predicted block
  kLoadChunk,     // ⑤ the predicted byte range
  kLocateKey,     // ⑥ binary search in the chunk
  kLoadIndex,     // baseline: load index block (hooks' load_index)
  kSearchIndex,   // baseline: search index block (index_search)
  kLoadData,      // baseline: load data block (load_data)
  kSearchData,    // baseline: search data block (search_data)
  kTable,         // the whole internal lookup in the table, either path
  kNumPathSteps
};
const char* PathStepName(int step);

struct PathTrace {
  uint64_t ticks[kNumPaths][kNumPathSteps];
  uint64_t calls[kNumPaths][kNumPathSteps];
  // Internal lookups by path, positive (the table held the user key) or not.
  uint64_t positive[kNumPaths];
  uint64_t negative[kNumPaths];
};

PathTrace& ThisThreadPaths();
void ResetThisThreadPaths();

class ScopedPathStep {
 public:
  ScopedPathStep(int path, PathStep s)
      : path_(path), step_(s), t0_(trace::Tracing() ? trace::Ticks() : 0) {}
  ~ScopedPathStep() {
    if (t0_ != 0) {
      PathTrace& t = ThisThreadPaths();
      t.ticks[path_][step_] += trace::Ticks() - t0_;
      t.calls[path_][step_]++;
    }
  }
  ScopedPathStep(const ScopedPathStep&) = delete;
  ScopedPathStep& operator=(const ScopedPathStep&) = delete;

 private:
  const int path_;
  const PathStep step_;
  const uint64_t t0_;
};

}  // namespace bourbon
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_BOURBON_PATH_TRACE_H_

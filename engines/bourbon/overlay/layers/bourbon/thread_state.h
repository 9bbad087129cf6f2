// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// What one database's lookups keep in their thread's storage: the per-path
// trace (path_trace.h) and the level model's hint for the next table probe
// (level_hint.h). Several databases of one process that take turns on one
// thread (lsmbench --interleave) each keep theirs here while another runs,
// so none counts into another's trace or takes another's hint.
#ifndef STORAGE_LEVELDB_LAYERS_BOURBON_THREAD_STATE_H_
#define STORAGE_LEVELDB_LAYERS_BOURBON_THREAD_STATE_H_

#include <memory>

#include "layers/bourbon/path_trace.h"

namespace leveldb {
namespace bourbon {

struct Hint;

class ThreadState {
 public:
  ThreadState();
  ~ThreadState();

  ThreadState(const ThreadState&) = delete;
  ThreadState& operator=(const ThreadState&) = delete;

  // Takes this thread's state, leaving the thread an empty one.
  void Save();
  // Gives the state Save() took back to this thread.
  void Restore();

 private:
  PathTrace paths_;
  std::unique_ptr<Hint> hint_;  // level_hint.h stays out of this header
};

}  // namespace bourbon
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_BOURBON_THREAD_STATE_H_

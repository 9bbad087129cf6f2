// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
#include "layers/bourbon/thread_state.h"

#include <cstring>
#include <utility>

#include "layers/bourbon/level_hint.h"

namespace leveldb {
namespace bourbon {

ThreadState::ThreadState() : hint_(new Hint) {
  std::memset(&paths_, 0, sizeof(paths_));
}

ThreadState::~ThreadState() = default;

void ThreadState::Save() {
  paths_ = ThisThreadPaths();
  ResetThisThreadPaths();
  *hint_ = std::move(tls_hint);
  tls_hint = Hint();
}

void ThreadState::Restore() {
  ThisThreadPaths() = paths_;
  tls_hint = std::move(*hint_);
  *hint_ = Hint();
}

}  // namespace bourbon
}  // namespace leveldb

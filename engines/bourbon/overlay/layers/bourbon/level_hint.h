// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// The level model's answer for the next table probe of this thread: the
// LSM side (Bourbon::FindFileInLevel) sets it, the table reader of that
// file consumes it.
#ifndef STORAGE_LEVELDB_LAYERS_BOURBON_LEVEL_HINT_H_
#define STORAGE_LEVELDB_LAYERS_BOURBON_LEVEL_HINT_H_

#include <cstdint>
#include <memory>

#include "layers/bourbon/file_layout.h"
#include "layers/bourbon/models.h"

namespace leveldb {
namespace bourbon {

// A level model's answer for the next table probe on this thread.
struct Hint {
  bool valid = false;
  uint64_t file = 0;
  uint64_t lo = 0, hi = 0;
  const FileLayout* layout = nullptr;
  std::shared_ptr<LevelModel> model;  // keeps `layout` alive
};
extern thread_local Hint tls_hint;

}  // namespace bourbon
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_BOURBON_LEVEL_HINT_H_

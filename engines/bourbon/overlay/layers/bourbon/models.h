// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// Bourbon's models (seed 004 §4): a file model over one table's keys and a
// level model over a whole level's, both greedy PLR at the same error
// bound, and how either predicts the positions that may hold a key.
#ifndef STORAGE_LEVELDB_LAYERS_BOURBON_MODELS_H_
#define STORAGE_LEVELDB_LAYERS_BOURBON_MODELS_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "layers/bourbon/file_layout.h"
#include "leveldb/slice.h"
#include "lidx/key_map.h"
#include "lidx/plr.h"

namespace leveldb {
namespace bourbon {

struct FileModel {
  std::unique_ptr<FileLayout> layout;
  lidx::PlrIndex<lidx::u128> plr;
};

struct LevelModel {
  uint64_t generation = 0;
  lidx::PlrIndex<lidx::u128> plr;
  uint64_t n = 0;
  int key_length = -1;
  std::vector<uint64_t> numbers;
  std::vector<uint64_t> starts;  // numbers.size() + 1
  std::vector<std::unique_ptr<FileLayout>> layouts;
};

void Train(lidx::PlrIndex<lidx::u128>* plr, const std::vector<lidx::u128>& keys,
           int error_bound);

// The positions of a table (or level) of `n` entries that may hold `user_key`.
lidx::Bound Predict(const lidx::PlrIndex<lidx::u128>& plr, uint64_t n,
                    int key_length, const Slice& user_key);

}  // namespace bourbon
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_BOURBON_MODELS_H_

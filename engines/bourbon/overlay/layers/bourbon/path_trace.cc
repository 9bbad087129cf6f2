// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
#include "layers/bourbon/path_trace.h"

#include <cstring>

namespace leveldb {
namespace bourbon {

const char* PathName(int path) {
  static const char* const kNames[] = {"baseline", "file_model", "level_model"};
  return kNames[path];
}

const char* PathStepName(int step) {
  static const char* const kNames[] = {
      "model_lookup", "search_filter", "load_chunk", "locate_key", "load_index",
      "search_index", "load_data",    "search_data", "table"};
  return kNames[step];
}

namespace {
thread_local PathTrace tls_paths;
}  // namespace

PathTrace& ThisThreadPaths() { return tls_paths; }
void ResetThisThreadPaths() { std::memset(&tls_paths, 0, sizeof(tls_paths)); }

}  // namespace bourbon
}  // namespace leveldb

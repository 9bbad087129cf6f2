// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
#include "layers/bourbon/level_hint.h"

namespace leveldb {
namespace bourbon {

thread_local Hint tls_hint;

}  // namespace bourbon
}  // namespace leveldb

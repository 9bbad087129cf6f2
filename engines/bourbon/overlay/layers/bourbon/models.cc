// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
#include "layers/bourbon/models.h"

#include <string>
#include <string_view>

namespace leveldb {
namespace bourbon {

using lidx::u128;

// Every model of Bourbon, file or level, is greedy PLR at the same bound.
void Train(lidx::PlrIndex<u128>* plr, const std::vector<u128>& keys,
           int error_bound) {
  plr->Configure({{"delta", std::to_string(error_bound)}});
  plr->Build(keys.data(), keys.size(), nullptr);
}

lidx::Bound Predict(const lidx::PlrIndex<u128>& plr, uint64_t n,
                    int key_length, const Slice& user_key) {
  std::string_view k(user_key.data(), user_key.size());
  if (key_length >= 0 && key_length <= 16 &&
      static_cast<int>(user_key.size()) == key_length) {
    return plr.Search(lidx::MapKey<u128>(k));  // injective on these keys
  }
  return lidx::StringBound(plr, n, k);
}

}  // namespace bourbon
}  // namespace leveldb

// Lookup key sets, SOSD style: positives drawn uniformly over the distinct
// keys (so a key repeated in the file is not favoured), negatives drawn
// uniformly between the smallest and largest key and guaranteed absent;
// both are shuffled together. If the keys leave no gap (a dense range),
// negatives come from just above the largest key instead.
// And SOSD's downsampling: keep every k-th key, starting with the first.
#ifndef WORKLOADS_GEN_LOOKUPS_H_
#define WORKLOADS_GEN_LOOKUPS_H_

#include <cstdint>
#include <string>

#include "gen/keyset.h"

namespace gen {

// `keys` must be sorted. negative_share in [0, 1].
bool MakeLookups(const Keys& keys, uint64_t count, double negative_share, uint64_t seed,
                 Keys* out, std::string* err);

// Every `step`-th key of `keys` (keys[0], keys[step], ...), as SOSD's
// downsample.py does with d[::k].
Keys EveryKth(const Keys& keys, uint64_t step);

// The step that brings `have` keys down to about `want` (at least `want`):
// floor(have / want), at least 1.
uint64_t DownsampleStep(uint64_t have, uint64_t want);

}  // namespace gen

#endif  // WORKLOADS_GEN_LOOKUPS_H_

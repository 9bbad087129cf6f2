// Key sets the studies define themselves (not SOSD's):
//   YCSB-Gen (lsm-eval): distinct integer keys drawn uniform or zipfian
//     (theta 0.9 / 0.99, YCSB's Gray zipfian, item 0 most popular, so the
//     keys pile up at the low end as the paper's Figure 6 shows) over a key
//     space of `space_factor` x n; written as 24-byte zero-padded decimals.
//   Bourbon: linear (consecutive), seg-1% / seg-10% (runs of 100 / 10
//     consecutive keys separated by a gap), normal (n distinct values of
//     N(0,1) scaled to integers).
//   DobLIX: LOGN = floor(1e9 * e^(2 z)), UNI uniform on [0, 1e16], distinct.
//   Sizes: per-key byte counts drawn from a rounded normal (DobLIX Table I),
//     and YCSB-Gen's variable key lengths (uniform 8..24).
#ifndef WORKLOADS_GEN_STUDY_SETS_H_
#define WORKLOADS_GEN_STUDY_SETS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gen/keyset.h"

namespace gen {

bool YcsbGenUniform(uint64_t n, uint64_t seed, uint64_t space, Keys* out, std::string* err);
bool YcsbGenZipfian(uint64_t n, uint64_t seed, uint64_t space, double theta, Keys* out,
                    std::string* err);

Keys BourbonLinear(uint64_t n, uint64_t start);
Keys BourbonSegmented(uint64_t n, uint64_t run, uint64_t gap, uint64_t start);
Keys BourbonNormal(uint64_t n, uint64_t seed, double scale);

Keys DoblixLognormal(uint64_t n, uint64_t seed, double mu, double sigma, double mult);
Keys DoblixUniform(uint64_t n, uint64_t seed, uint64_t max_key);

// n sizes: round(N(mean, sd)) clamped to [lo, hi].
std::vector<uint64_t> NormalSizes(uint64_t n, uint64_t seed, double mean, double sd,
                                  uint64_t lo, uint64_t hi);
// n sizes uniform on [lo, hi].
std::vector<uint64_t> UniformSizes(uint64_t n, uint64_t seed, uint64_t lo, uint64_t hi);

}  // namespace gen

#endif  // WORKLOADS_GEN_STUDY_SETS_H_

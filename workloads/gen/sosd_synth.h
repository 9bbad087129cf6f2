// SOSD's synthetic key sets, equal to what its gen_uniform.py and gen_norm.py
// write for the same count:
//   uden  uniform_dense:  42, 43, ..., n + 41
//   uspr  uniform_sparse: numpy RandomState(42).randint(0, 2^w - 1, n), sorted
//                         (duplicates kept, as SOSD keeps them)
//   norm  normal:         ndtri of linspace(0, 1, n + 2)[1:-1], min-max
//                         scaled to [0, 2^63 - 1] (or 2^32 - 1) and truncated
//   logn  lognormal:      same with exp(sigma * ndtri), sigma 2 for uint64
//                         and 1 for uint32 (SOSD's own deviation)
// `width` is 32 or 64, the key width of the output file.
#ifndef WORKLOADS_GEN_SOSD_SYNTH_H_
#define WORKLOADS_GEN_SOSD_SYNTH_H_

#include <cstdint>

#include "gen/keyset.h"

namespace gen {

Keys SosdUniformDense(uint64_t n, int width);
Keys SosdUniformSparse(uint64_t n, int width, uint32_t seed);
Keys SosdNormal(uint64_t n, int width);
Keys SosdLognormal(uint64_t n, int width, double sigma);

// numpy's legacy RandomState (MT19937 seeded with init_genrand) bounded
// draws, the exact sequence np.random.seed(s); np.random.randint(...) gives.
class NumpyLegacyRandom {
 public:
  explicit NumpyLegacyRandom(uint32_t seed);
  uint32_t Next32();
  uint64_t Next64();  // high word drawn first
  // randint(low, high) with exclusive high, numpy's masked rejection.
  uint64_t RandintU64(uint64_t low, uint64_t high);
  uint32_t RandintU32(uint32_t low, uint32_t high);

 private:
  void Twist();
  uint32_t mt_[624];
  int pos_;
};

}  // namespace gen

#endif  // WORKLOADS_GEN_SOSD_SYNTH_H_

// YCSB's Utils.fnvhash64: FNV-1a 64 over the eight little-endian bytes of a
// long, then Java's Math.abs. YCSB-C and YCSB-cpp drop the abs, which changes
// every hashed key name and every scrambled-zipfian draw whose hash has the
// top bit set; we keep it.
#ifndef WORKLOADS_YCSB_FNV_H_
#define WORKLOADS_YCSB_FNV_H_

#include <cstddef>
#include <cstdint>

#include "ycsb/random.h"

namespace ycsb {

constexpr uint64_t kFnvOffsetBasis64 = 0xCBF29CE484222325ULL;
constexpr uint64_t kFnvPrime64 = 1099511628211ULL;

// Plain FNV-1a 64 of a byte string (checked against the published vectors).
inline uint64_t Fnv1a64(const unsigned char* data, size_t n) {
  uint64_t h = kFnvOffsetBasis64;
  for (size_t i = 0; i < n; i++) {
    h ^= data[i];
    h *= kFnvPrime64;
  }
  return h;
}

inline int64_t FnvHash64(int64_t val) {
  uint64_t h = kFnvOffsetBasis64;
  uint64_t v = static_cast<uint64_t>(val);
  // Java shifts with sign extension (>>), but only the low byte of each step
  // is used, so the octets are just the little-endian bytes of `val`.
  for (int i = 0; i < 8; i++) {
    h ^= v & 0xff;
    h *= kFnvPrime64;
    v >>= 8;
  }
  return JavaAbs(static_cast<int64_t>(h));
}

}  // namespace ycsb

#endif  // WORKLOADS_YCSB_FNV_H_

#ifndef LSMBENCH_CLOCK_H_
#define LSMBENCH_CLOCK_H_

#include <cstdint>
#include <ctime>

namespace lsmbench {

// Monotonic nanoseconds; through the vDSO, a few tens of ns per call.
inline uint64_t NowNanos() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + ts.tv_nsec;
}

}  // namespace lsmbench

#endif  // LSMBENCH_CLOCK_H_

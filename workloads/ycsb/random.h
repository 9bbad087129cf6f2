// A seeded, platform-independent random source for every generator.
//
// YCSB's Java code draws from ThreadLocalRandom (unseeded), so its op streams
// cannot be replayed; the C++ ports that use std::random_device inherit that.
// We need the same spec and seed to give the same stream on every engine,
// compiler and run, so the bits come from xoshiro256** seeded through
// splitmix64 (both fully specified), and doubles are built from the top 53
// bits by hand: std::uniform_real_distribution is implementation-defined.
#ifndef WORKLOADS_YCSB_RANDOM_H_
#define WORKLOADS_YCSB_RANDOM_H_

#include <cstdint>

namespace ycsb {

// One step of splitmix64; also used to derive independent stream seeds.
inline uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Seed of sub-stream `stream` of `seed`, so each generator of a workload has
// its own sequence and adding draws to one never shifts another.
inline uint64_t StreamSeed(uint64_t seed, uint64_t stream) {
  uint64_t s = seed ^ (stream * 0xD1B54A32D192ED03ULL);
  SplitMix64(&s);
  return SplitMix64(&s);
}

class Random64 {
 public:
  explicit Random64(uint64_t seed) {
    uint64_t s = seed;
    for (auto& w : s_) w = SplitMix64(&s);
  }

  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, 1) with 53 random bits, like java.util.Random#nextDouble.
  double NextDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  // A signed 64-bit draw, the counterpart of Java's nextLong().
  int64_t NextLong() { return static_cast<int64_t>(Next()); }

  // Unbiased integer in [0, n) for n > 0 (Lemire's multiply-and-reject);
  // used by the dataset generators, not by the YCSB classes, which keep
  // Java's abs-and-modulo arithmetic.
  uint64_t Uniform(uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>(Next()) * n;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < n) {
      const uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<unsigned __int128>(Next()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// Java's Math.abs on a long: Long.MIN_VALUE stays negative (two's complement
// wrap), which the Java arithmetic below depends on.
inline int64_t JavaAbs(int64_t v) {
  return v < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(v)) : v;
}

// Java's (int) cast of a double: NaN -> 0, saturating at the int range.
inline int64_t JavaDoubleToInt(double d) {
  if (d != d) return 0;
  if (d >= 2147483647.0) return 2147483647;
  if (d <= -2147483648.0) return -2147483648LL;
  return static_cast<int64_t>(d);
}

}  // namespace ycsb

#endif  // WORKLOADS_YCSB_RANDOM_H_

#include "gen/sosd_synth.h"

#include <algorithm>
#include <cmath>

#include "gen/normal.h"

namespace gen {

NumpyLegacyRandom::NumpyLegacyRandom(uint32_t seed) {
  // init_genrand, as numpy's mt19937_seed and std::mt19937 both do.
  mt_[0] = seed;
  for (int i = 1; i < 624; i++) {
    mt_[i] = 1812433253U * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + static_cast<uint32_t>(i);
  }
  pos_ = 624;
}

void NumpyLegacyRandom::Twist() {
  constexpr uint32_t kUpper = 0x80000000U, kLower = 0x7fffffffU, kMatrix = 0x9908b0dfU;
  for (int i = 0; i < 624; i++) {
    uint32_t y = (mt_[i] & kUpper) | (mt_[(i + 1) % 624] & kLower);
    mt_[i] = mt_[(i + 397) % 624] ^ (y >> 1) ^ ((y & 1U) ? kMatrix : 0U);
  }
  pos_ = 0;
}

uint32_t NumpyLegacyRandom::Next32() {
  if (pos_ == 624) Twist();
  uint32_t y = mt_[pos_++];
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= (y >> 18);
  return y;
}

uint64_t NumpyLegacyRandom::Next64() {
  uint64_t hi = Next32();
  uint64_t lo = Next32();
  return (hi << 32) | lo;
}

namespace {

template <typename T>
T MaskFor(T rng) {
  T mask = rng;
  for (int s = 1; s < static_cast<int>(8 * sizeof(T)); s <<= 1) mask |= mask >> s;
  return mask;
}

}  // namespace

uint64_t NumpyLegacyRandom::RandintU64(uint64_t low, uint64_t high) {
  uint64_t rng = high - 1 - low;
  if (rng == 0) return low;
  if (rng <= 0xFFFFFFFFULL) {
    uint32_t mask = MaskFor<uint32_t>(static_cast<uint32_t>(rng));
    uint32_t v;
    while ((v = (Next32() & mask)) > rng) {
    }
    return low + v;
  }
  if (rng == ~0ULL) return low + Next64();
  uint64_t mask = MaskFor<uint64_t>(rng);
  uint64_t v;
  while ((v = (Next64() & mask)) > rng) {
  }
  return low + v;
}

uint32_t NumpyLegacyRandom::RandintU32(uint32_t low, uint32_t high) {
  uint32_t rng = high - 1 - low;
  if (rng == 0) return low;
  if (rng == 0xFFFFFFFFU) return low + Next32();
  uint32_t mask = MaskFor<uint32_t>(rng);
  uint32_t v;
  while ((v = (Next32() & mask)) > rng) {
  }
  return low + v;
}

Keys SosdUniformDense(uint64_t n, int width) {
  (void)width;
  Keys keys(n);
  for (uint64_t i = 0; i < n; i++) keys[i] = 42 + i;  // "dense keys not start at 0"
  return keys;
}

Keys SosdUniformSparse(uint64_t n, int width, uint32_t seed) {
  NumpyLegacyRandom rnd(seed);
  Keys keys(n);
  // randint's exclusive high is 2^w - 1, so the largest key never appears.
  if (width == 32) {
    for (auto& k : keys) k = rnd.RandintU32(0, 0xFFFFFFFFU);
  } else {
    for (auto& k : keys) k = rnd.RandintU64(0, ~0ULL);
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

namespace {

// linspace(0, 1, n + 2)[1:-1] as numpy computes it: i * (1 / (n + 1)).
// Then the transform, min-max scaling in float64 and numpy's truncating
// float->uint cast.
template <typename F>
Keys QuantileKeys(uint64_t n, int width, F quantile) {
  Keys keys(n);
  if (n == 0) return keys;
  const double step = 1.0 / static_cast<double>(n + 1);
  std::vector<double> q(n);
  for (uint64_t i = 0; i < n; i++) q[i] = quantile(static_cast<double>(i + 1) * step);
  double mn = *std::min_element(q.begin(), q.end());
  double mx = *std::max_element(q.begin(), q.end());
  // Python's 2**63 - 1 and 2**32 - 1 become these doubles in the multiply.
  const double scale = width == 32 ? 4294967295.0 : 9223372036854775807.0;
  for (uint64_t i = 0; i < n; i++) {
    double v = (q[i] - mn) / (mx - mn);
    v *= scale;
    keys[i] = width == 32 ? static_cast<uint64_t>(static_cast<uint32_t>(v))
                          : static_cast<uint64_t>(v);
  }
  return keys;
}

}  // namespace

Keys SosdNormal(uint64_t n, int width) {
  return QuantileKeys(n, width, [](double p) { return NormalQuantile(p); });
}

Keys SosdLognormal(uint64_t n, int width, double sigma) {
  return QuantileKeys(n, width, [sigma](double p) { return std::exp(sigma * NormalQuantile(p)); });
}

}  // namespace gen

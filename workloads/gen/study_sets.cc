#include "gen/study_sets.h"

#include <cmath>
#include <vector>

#include "gen/normal.h"
#include "ycsb/random.h"
#include "ycsb/zipfian.h"

namespace gen {
namespace {

using ycsb::Random64;

}  // namespace

bool YcsbGenUniform(uint64_t n, uint64_t seed, uint64_t space, Keys* out, std::string* err) {
  Random64 r(seed);
  if (!FillDistinct(n, [&]() { return r.Uniform(space); }, out)) {
    *err = "space: expected a key space larger than the count";
    return false;
  }
  return true;
}

bool YcsbGenZipfian(uint64_t n, uint64_t seed, uint64_t space, double theta, Keys* out,
                    std::string* err) {
  Random64 r(seed);
  ycsb::ZipfianGenerator z(0, static_cast<int64_t>(space) - 1, theta, &r);
  // Popular items repeat, so collecting n distinct ones takes many draws; a
  // bitmap over the key space makes each draw O(1). The cap is far above
  // what theta <= 0.99 with space >= 10 n needs (about 20 draws a key).
  std::vector<bool> seen(space, false);
  uint64_t distinct = 0;
  const uint64_t max_draws = 1000 * n + 1000;
  for (uint64_t draws = 0; distinct < n; draws++) {
    if (draws == max_draws) {
      *err = "space_factor: key space too small to draw " + std::to_string(n) +
             " distinct zipfian keys";
      return false;
    }
    uint64_t k = static_cast<uint64_t>(z.Next());
    if (!seen[k]) {
      seen[k] = true;
      distinct++;
    }
  }
  out->clear();
  out->reserve(n);
  for (uint64_t k = 0; k < space; k++) {
    if (seen[k]) out->push_back(k);
  }
  return true;
}

Keys BourbonLinear(uint64_t n, uint64_t start) {
  Keys keys(n);
  for (uint64_t i = 0; i < n; i++) keys[i] = start + i;
  return keys;
}

Keys BourbonSegmented(uint64_t n, uint64_t run, uint64_t gap, uint64_t start) {
  Keys keys(n);
  uint64_t k = start;
  for (uint64_t i = 0; i < n; i++) {
    if (i > 0 && i % run == 0) k += gap;
    keys[i] = k++;
  }
  return keys;
}

Keys BourbonNormal(uint64_t n, uint64_t seed, double scale) {
  Random64 r(seed);
  PolarNormal<Random64> g(&r);
  // Shifted by 10 sd so every key is positive; distinct by redrawing.
  Keys keys;
  FillDistinct(n, [&]() {
    return static_cast<uint64_t>(std::llround((g.Next() + 10.0) * scale));
  }, &keys);
  return keys;
}

Keys DoblixLognormal(uint64_t n, uint64_t seed, double mu, double sigma, double mult) {
  Random64 r(seed);
  PolarNormal<Random64> g(&r);
  Keys keys;
  FillDistinct(n, [&]() {
    double v = std::floor(mult * std::exp(mu + sigma * g.Next()));
    return v >= 1.8e19 ? static_cast<uint64_t>(1.8e19) : static_cast<uint64_t>(v);
  }, &keys);
  return keys;
}

Keys DoblixUniform(uint64_t n, uint64_t seed, uint64_t max_key) {
  Random64 r(seed);
  Keys keys;
  FillDistinct(n, [&]() { return r.Uniform(max_key + 1); }, &keys);
  return keys;
}

std::vector<uint64_t> NormalSizes(uint64_t n, uint64_t seed, double mean, double sd,
                                  uint64_t lo, uint64_t hi) {
  Random64 r(seed);
  PolarNormal<Random64> g(&r);
  std::vector<uint64_t> sizes(n);
  for (auto& s : sizes) {
    double v = std::round(mean + sd * g.Next());
    s = v < static_cast<double>(lo) ? lo : v > static_cast<double>(hi) ? hi : static_cast<uint64_t>(v);
  }
  return sizes;
}

std::vector<uint64_t> UniformSizes(uint64_t n, uint64_t seed, uint64_t lo, uint64_t hi) {
  Random64 r(seed);
  std::vector<uint64_t> sizes(n);
  for (auto& s : sizes) s = lo + r.Uniform(hi - lo + 1);
  return sizes;
}

}  // namespace gen

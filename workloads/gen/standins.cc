#include "gen/standins.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gen/normal.h"
#include "ycsb/random.h"

namespace gen {
namespace {

using ycsb::Random64;

// A standard normal draw from an open-interval uniform (never 0 or 1).

uint64_t ClampToU64(double x) {
  if (!(x > 0)) return 0;
  if (x >= 18446744073709549568.0) return 18446744073709549568ULL;
  return static_cast<uint64_t>(x);
}

// Picks index i with probability w[i] / sum(w) by binary search on prefix sums.
class Weighted {
 public:
  explicit Weighted(const std::vector<double>& w) : cum_(w.size()) {
    double s = 0;
    for (size_t i = 0; i < w.size(); i++) cum_[i] = (s += w[i]);
  }
  size_t Pick(Random64* r) const {
    double u = r->NextDouble() * cum_.back();
    size_t i = std::upper_bound(cum_.begin(), cum_.end(), u) - cum_.begin();
    return std::min(i, cum_.size() - 1);
  }

 private:
  std::vector<double> cum_;
};

// Multi-scale clusters: `regions` weighted zipf-like, each with `subs`
// sub-centres spread by region_spread; keys normal around a sub-centre.
Keys Clustered(uint64_t n, uint64_t seed, int regions, int subs, double lo, double hi,
               double region_spread, double sub_spread) {
  Random64 r(seed);
  PolarNormal<Random64> g(&r);
  std::vector<double> centre(regions), w(regions);
  for (int i = 0; i < regions; i++) {
    centre[i] = lo + (hi - lo) * r.NextDouble();
    w[i] = 1.0 / std::pow(i + 1.0, 1.1);  // few dense regions, a long tail
  }
  std::vector<std::vector<double>> sub(regions, std::vector<double>(subs));
  std::vector<std::vector<double>> sub_w(regions, std::vector<double>(subs));
  for (int i = 0; i < regions; i++) {
    for (int j = 0; j < subs; j++) {
      sub[i][j] = centre[i] + region_spread * g.Next();
      sub_w[i][j] = std::exp(1.5 * g.Next());  // city sizes: lognormal
    }
  }
  Weighted pick_region(w);
  std::vector<Weighted> pick_sub;
  for (int i = 0; i < regions; i++) pick_sub.emplace_back(sub_w[i]);
  Keys keys;
  FillDistinct(n, [&]() {
    size_t i = pick_region.Pick(&r);
    size_t j = pick_sub[i].Pick(&r);
    double x = sub[i][j] + sub_spread * g.Next();
    return ClampToU64(std::min(std::max(x, lo), hi));
  }, &keys);
  return keys;
}

}  // namespace

Keys FbLike(uint64_t n, uint64_t seed) {
  Random64 r(seed);
  PolarNormal<Random64> g(&r);
  // Eight stretches of the id space with lognormal relative densities.
  const int kPieces = 8;
  const double kRange = 0x1.0p48;
  std::vector<double> w(kPieces);
  for (double& x : w) x = std::exp(0.5 * g.Next());
  Weighted piece(w);
  uint64_t outliers = std::max<uint64_t>(1, n / 1000000);
  Keys keys;
  uint64_t drawn = 0;
  FillDistinct(n, [&]() -> uint64_t {
    if (drawn++ < outliers) return (1ULL << 60) + r.Uniform(~0ULL - (1ULL << 60));
    size_t p = piece.Pick(&r);
    return static_cast<uint64_t>(kRange / kPieces * (p + r.NextDouble()));
  }, &keys);
  return keys;
}

Keys OsmLike(uint64_t n, uint64_t seed) {
  return Clustered(n, seed, 64, 256, 0x1.0p60, 0x1.0p64 - 0x1.0p52, 0x1.0p55, 0x1.0p44);
}

Keys NewYorkOsmLike(uint64_t n, uint64_t seed) {
  return Clustered(n, seed, 1, 4096, 0x1.0p62, 0x1.0p62 + 0x1.0p50, 0x1.0p46, 0x1.0p36);
}

Keys WikiLike(uint64_t n, uint64_t seed) {
  Random64 r(seed);
  // wiki_ts has 200M edits over ~5.35e8 s (2001-01-15 .. 2018): 2.7 s each.
  const double kStart = 979516800.0;
  const double span = 2.675 * static_cast<double>(n);
  const double growth = 3.0;  // the edit rate grows e^3 = 20x over the span
  Keys keys;
  keys.reserve(n);
  while (keys.size() < n) {
    if (!keys.empty() && r.NextDouble() < 0.15) {
      // A burst: another edit in a second that already has one.
      keys.push_back(keys[r.Uniform(keys.size())]);
      continue;
    }
    // Exponentially growing rate by inversion, then a daily cycle by rejection.
    double u = r.NextDouble();
    double t = span * std::log1p(u * std::expm1(growth)) / growth;
    double day = 2 * M_PI * std::fmod(kStart + t, 86400.0) / 86400.0;
    if (r.NextDouble() * 1.6 > 1 + 0.6 * std::sin(day)) continue;
    keys.push_back(static_cast<uint64_t>(kStart + t));
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

Keys BooksLike(uint64_t n, uint64_t seed, int width) {
  Random64 r(seed);
  PolarNormal<Random64> g(&r);
  // Gaps exp(mu + 0.8 z) with mu a random walk at two speeds: a slow drift
  // bends the CDF, a fast one makes it locally irregular.
  std::vector<double> gaps(n);
  double slow = 0, fast = 0, total = 0;
  for (uint64_t i = 0; i < n; i++) {
    if (i % 4096 == 0) slow += 0.05 * g.Next();
    if (i % 64 == 0) fast = 0.9 * fast + 0.3 * g.Next();
    gaps[i] = std::exp(slow + fast + 0.8 * g.Next());
    total += gaps[i];
  }
  // Scale so the keys end near the top, with every gap at least 1.
  const double top = width == 32 ? 0x1.0p31 : 0x1.0p62;
  double scale = std::max(0.0, top - 2.0 * n - 1000) / total;
  Keys keys(n);
  uint64_t k = 1000;
  for (uint64_t i = 0; i < n; i++) {
    k += 1 + static_cast<uint64_t>(gaps[i] * scale);
    keys[i] = k;
  }
  return keys;
}

Keys TwitterLike(uint64_t n, uint64_t seed) {
  Random64 r(seed);
  // Snowflake ids count milliseconds since 2010-11-04; eight years of them.
  const double kSnowflakeSpanMs = 8.0 * 365 * 86400 * 1000;
  Keys keys;
  FillDistinct(n, [&]() -> uint64_t {
    if (r.NextDouble() < 0.55) {
      // Sequential era: signups grew over time, so density rises with the id.
      return 12 + static_cast<uint64_t>(std::sqrt(r.NextDouble()) * 4.2e9);
    }
    double ms = kSnowflakeSpanMs * std::pow(r.NextDouble(), 0.8);
    uint64_t ts = static_cast<uint64_t>(ms) + 1;  // ms since the snowflake epoch
    return (ts << 22) | (r.Uniform(1024) << 12) | r.Uniform(4096);
  }, &keys);
  return keys;
}

Keys AmazonReviewsLike(uint64_t n, uint64_t seed) {
  Random64 r(seed);
  PolarNormal<Random64> g(&r);
  const int kBlocks = 24;
  std::vector<double> start(kBlocks), width(kBlocks), w(kBlocks);
  double at = 1e9;
  for (int i = 0; i < kBlocks; i++) {
    at += std::exp(20 + 2 * g.Next());  // gap between categories
    start[i] = at;
    w[i] = std::exp(1.2 * g.Next());    // reviews per category
    width[i] = w[i] * std::exp(0.7 * g.Next()) * 1e11;  // ids per category
    at += width[i];
  }
  Weighted block(w);
  Keys keys;
  FillDistinct(n, [&]() -> uint64_t {
    size_t b = block.Pick(&r);
    // Newer ids in a category are denser (review volume grew).
    return static_cast<uint64_t>(start[b] + width[b] * std::sqrt(r.NextDouble()));
  }, &keys);
  return keys;
}

Keys SlrOsmLike(uint64_t n, uint64_t seed) {
  Random64 r(seed);
  // {region start, region end, share of the keys, dense runs in it}; a run
  // holds its share of keys at 0.8 keys per unit, placed evenly in its region
  // (the paper's ranges, widened only when n outgrows them).
  struct Region { double lo, hi, share; int runs; };
  const Region kRegions[] = {{0, 3e7, 0.05, 4}, {3e7, 3.5e7, 0.20, 2}, {3.5e7, 4.2e7, 0.75, 1}};
  const double kDensity = 0.8;
  std::vector<double> start, width, w;
  for (const Region& g : kRegions) {
    double run_width = g.share * n / g.runs / kDensity;
    double stride = std::max((g.hi - g.lo) / g.runs, run_width);
    for (int i = 0; i < g.runs; i++) {
      start.push_back(g.lo + i * stride + (stride - run_width) / 2);
      width.push_back(run_width);
      w.push_back(g.share / g.runs);
    }
  }
  Weighted run(w);
  Keys keys;
  FillDistinct(n, [&]() -> uint64_t {
    size_t i = run.Pick(&r);
    return static_cast<uint64_t>(start[i] + width[i] * r.NextDouble());
  }, &keys);
  return keys;
}

}  // namespace gen

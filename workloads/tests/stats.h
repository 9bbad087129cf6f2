// Test statistics with fixed, conservative thresholds: a correct generator
// fails a test at significance 1e-6, so with fixed seeds the tests are both
// deterministic and meaningful.
#ifndef WORKLOADS_TESTS_STATS_H_
#define WORKLOADS_TESTS_STATS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

namespace teststats {

// z for a one-sided tail of 1e-6.
constexpr double kZ = 4.753;

// Upper 1e-6 critical value of chi-square with `df` degrees of freedom
// (Wilson-Hilferty; within a few percent of the exact quantile for df >= 3).
inline double ChiSquareCritical(int df) {
  double h = 2.0 / (9.0 * df);
  return df * std::pow(1 - h + kZ * std::sqrt(h), 3);
}

struct ChiSquare {
  double stat = 0;
  int df = 0;
  bool Passes() const { return df > 0 && stat < ChiSquareCritical(df); }
};

// Pearson chi-square of observed counts against probabilities, merging
// adjacent bins until each expects at least 10 draws.
inline ChiSquare ChiSquareTest(const std::vector<uint64_t>& observed,
                               const std::vector<double>& prob, uint64_t n) {
  ChiSquare r;
  double obs = 0, exp = 0;
  int bins = 0;
  for (size_t i = 0; i < observed.size(); i++) {
    obs += static_cast<double>(observed[i]);
    exp += prob[i] * static_cast<double>(n);
    if (exp >= 10 || i + 1 == observed.size()) {
      if (exp > 0) {
        r.stat += (obs - exp) * (obs - exp) / exp;
        bins++;
      }
      obs = exp = 0;
    }
  }
  r.df = bins - 1;
  return r;
}

// One-sample Kolmogorov-Smirnov distance of `sample` against `cdf`.
inline double KsDistance(std::vector<double> sample, const std::function<double(double)>& cdf) {
  std::sort(sample.begin(), sample.end());
  double n = static_cast<double>(sample.size()), d = 0;
  for (size_t i = 0; i < sample.size(); i++) {
    double f = cdf(sample[i]);
    d = std::max({d, (i + 1) / n - f, f - i / n});
  }
  return d;
}

// KS critical distance at significance 1e-6 (asymptotic).
inline double KsCritical(size_t n) {
  return std::sqrt(-std::log(1e-6 / 2) / (2.0 * static_cast<double>(n)));
}

}  // namespace teststats

#endif  // WORKLOADS_TESTS_STATS_H_

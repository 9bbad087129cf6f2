// The standard normal quantile function, to full double precision.
//
// SOSD's norm and logn sets are quantiles (scipy's ndtri) of an evenly spaced
// grid, so the keys depend on the last bits of the quantile. Rather than copy
// a library's rational approximation, we solve Phi(x) = p with Halley steps on
// the C library's erfc, which is accurate to an ulp or two; the tail where p
// is close to 1 is solved as -ndtri(1 - p), as ndtri does (1 - p is exact
// there). Each call costs a few erfc/exp evaluations.
#ifndef WORKLOADS_GEN_NORMAL_H_
#define WORKLOADS_GEN_NORMAL_H_

#include <cmath>
#include <limits>

namespace gen {

// Phi(x) for x <= 0, through erfc so the lower tail keeps relative precision.
inline double NormalCdfLower(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// Quantile for 0 < p <= 0.5.
inline double NormalQuantileLower(double p) {
  if (p == 0.5) return 0.0;
  // Start: the classic tail approximation, good to a few percent.
  double t = std::sqrt(-2.0 * std::log(p));
  double x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
                       (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));
  const double kInvSqrt2Pi = 0.3989422804014327;
  for (int i = 0; i < 60; i++) {
    double e = NormalCdfLower(x) - p;
    double d = kInvSqrt2Pi * std::exp(-0.5 * x * x);
    double u = e / d;
    double step = u / (1 + 0.5 * x * u);
    double next = x - step;
    if (next == x || std::abs(step) <= 1e-17 * std::abs(x)) {
      x = next;
      break;
    }
    x = next;
  }
  return x;
}

// Standard normal quantile; -inf/+inf at 0/1, NaN outside [0, 1].
inline double NormalQuantile(double p) {
  if (!(p >= 0 && p <= 1)) return std::numeric_limits<double>::quiet_NaN();
  if (p == 0) return -std::numeric_limits<double>::infinity();
  if (p == 1) return std::numeric_limits<double>::infinity();
  if (p <= 0.5) return NormalQuantileLower(p);
  return -NormalQuantileLower(1 - p);
}

// Standard normal draws for generators that need the law, not SOSD's exact
// quantiles: Marsaglia's polar method, several times cheaper than inverting
// the CDF. Draws come in pairs; the second is kept for the next call.
template <typename Rng>
class PolarNormal {
 public:
  explicit PolarNormal(Rng* r) : r_(r) {}
  double Next() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u, v, s;
    do {
      u = 2 * r_->NextDouble() - 1;
      v = 2 * r_->NextDouble() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s == 0);
    double f = std::sqrt(-2 * std::log(s) / s);
    spare_ = v * f;
    has_spare_ = true;
    return u * f;
  }

 private:
  Rng* r_;
  double spare_ = 0;
  bool has_spare_ = false;
};

}  // namespace gen

#endif  // WORKLOADS_GEN_NORMAL_H_

// YCSB's ZipfianGenerator and ScrambledZipfianGenerator (YCSB 0.17).
//
// The algorithm is Gray et al., "Quickly Generating Billion-Record Synthetic
// Databases" (SIGMOD 1994), as YCSB codes it: items 0 and 1 are exact, the
// rest come from a continuous inversion; the result is offset by `base`
// (YCSB-C ignores the base); zeta grows incrementally when the item count
// grows. Like Java, eta is recomputed with the constructor's item count, not
// the new one; we keep that so the distribution is the one YCSB produces.
//
//   ycsb::Random64 rnd(42);
//   ycsb::ZipfianGenerator z(0, 999, 0.99, &rnd);
//   int64_t item = z.Next();  // 0 most popular, then 1, ...
#ifndef WORKLOADS_YCSB_ZIPFIAN_H_
#define WORKLOADS_YCSB_ZIPFIAN_H_

#include <cmath>
#include <cstdint>

#include "ycsb/fnv.h"
#include "ycsb/random.h"

namespace ycsb {

constexpr double kZipfianConstant = 0.99;

// sum_{i=st}^{n-1} 1/(i+1)^theta added to `initial`, term by term as Java does.
inline double ZetaSum(int64_t st, int64_t n, double theta, double initial) {
  double sum = initial;
  for (int64_t i = st; i < n; i++) sum += 1 / std::pow(static_cast<double>(i + 1), theta);
  return sum;
}

// zeta(n, theta) for item counts too large to sum term by term (YCSB's
// scrambled key space with a constant other than 0.99: Java spends minutes
// there). The first 10^6 terms are summed exactly, the tail by Euler-Maclaurin
// to the third derivative term, whose error is far below double precision.
inline double ZetaFast(int64_t n, double theta) {
  const int64_t kExact = 1000000;
  if (n <= kExact) return ZetaSum(0, n, theta, 0.0);
  double head = ZetaSum(0, kExact, theta, 0.0);
  // Tail: sum_{k=a}^{b} k^-theta with a = kExact + 1, b = n.
  double a = static_cast<double>(kExact + 1), b = static_cast<double>(n);
  auto f = [&](double x) { return std::pow(x, -theta); };
  auto f1 = [&](double x) { return -theta * std::pow(x, -theta - 1); };
  auto f3 = [&](double x) {
    return -theta * (theta + 1) * (theta + 2) * std::pow(x, -theta - 3);
  };
  double integral = (theta == 1.0)
                        ? std::log(b / a)
                        : (std::pow(b, 1 - theta) - std::pow(a, 1 - theta)) / (1 - theta);
  double tail = integral + (f(a) + f(b)) / 2 + (f1(b) - f1(a)) / 12 -
                (f3(b) - f3(a)) / 720;
  return head + tail;
}

class ZipfianGenerator {
 public:
  // Items min..max inclusive, zeta computed term by term.
  ZipfianGenerator(int64_t min, int64_t max, double theta, Random64* rnd)
      : ZipfianGenerator(min, max, theta, ZetaSum(0, max - min + 1, theta, 0.0), rnd) {}

  // Items min..max inclusive with a precomputed zeta(max - min + 1, theta).
  ZipfianGenerator(int64_t min, int64_t max, double theta, double zetan, Random64* rnd)
      : rnd_(rnd),
        items_(max - min + 1),
        base_(min),
        theta_(theta),
        zeta2theta_(ZetaSum(0, 2, theta, 0.0)),
        alpha_(1.0 / (1.0 - theta)),
        zetan_(zetan),
        countforzeta_(items_) {
    eta_ = Eta();
  }

  int64_t Next() { return Next(items_); }

  // A draw over `itemcount` items. A larger count extends zeta incrementally;
  // a smaller one keeps the old zeta, as Java does by default
  // (allowitemcountdecrease = false).
  int64_t Next(int64_t itemcount) {
    if (itemcount > countforzeta_) {
      zetan_ = ZetaSum(countforzeta_, itemcount, theta_, zetan_);
      countforzeta_ = itemcount;
      eta_ = Eta();
    }
    double u = rnd_->NextDouble();
    double uz = u * zetan_;
    if (uz < 1.0) return base_;
    if (uz < 1.0 + std::pow(0.5, theta_)) return base_ + 1;
    return base_ + static_cast<int64_t>(static_cast<double>(itemcount) *
                                        std::pow(eta_ * u - eta_ + 1, alpha_));
  }

  int64_t items() const { return items_; }
  double zetan() const { return zetan_; }
  double eta() const { return eta_; }
  double theta() const { return theta_; }
  double alpha() const { return alpha_; }

 private:
  double Eta() const {
    return (1 - std::pow(2.0 / static_cast<double>(items_), 1 - theta_)) /
           (1 - zeta2theta_ / zetan_);
  }

  Random64* rnd_;
  int64_t items_;
  int64_t base_;
  double theta_;
  double zeta2theta_;
  double alpha_;
  double zetan_;
  double eta_;
  int64_t countforzeta_;
};

// Popular items scattered over min..max: a zipfian over a fixed 10^10-item
// space, hashed with fnvhash64 and folded into the range, so the set of hot
// keys does not move when the range grows.
class ScrambledZipfianGenerator {
 public:
  static constexpr double kZetan = 26.46902820178302;  // zeta(10^10, 0.99)
  static constexpr int64_t kItemCount = 10000000000LL;  // 10^10, as in YCSB 0.17

  ScrambledZipfianGenerator(int64_t min, int64_t max, double theta, Random64* rnd)
      : min_(min),
        itemcount_(max - min + 1),
        // Java builds ZipfianGenerator(0, ITEM_COUNT), i.e. 10^10 + 1 items,
        // with the zeta of 10^10 items; we keep both.
        gen_(0, kItemCount, theta,
             theta == kZipfianConstant ? kZetan : ZetaFast(kItemCount + 1, theta), rnd) {}

  int64_t Next() {
    int64_t ret = gen_.Next();
    return min_ + FnvHash64(ret) % itemcount_;  // Java's signed remainder
  }

  int64_t itemcount() const { return itemcount_; }

 private:
  int64_t min_;
  int64_t itemcount_;
  ZipfianGenerator gen_;
};

}  // namespace ycsb

#endif  // WORKLOADS_YCSB_ZIPFIAN_H_

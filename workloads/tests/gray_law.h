// The law YCSB's ZipfianGenerator draws from, in closed form: items 0 and 1
// get their exact Zipf mass, every other item the u-interval that Gray's
// inversion maps onto it.
#ifndef WORKLOADS_TESTS_GRAY_LAW_H_
#define WORKLOADS_TESTS_GRAY_LAW_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "ycsb/zipfian.h"

namespace teststats {

// P(Next(n) == k) for a generator built over `items` items (eta uses those,
// as in Java) and drawing over n >= items.
inline std::vector<double> GrayPmf(int64_t items, int64_t n, double theta) {
  double zetan = ycsb::ZetaSum(0, n, theta, 0.0);
  double z2 = 1 + std::pow(0.5, theta);
  double eta = (1 - std::pow(2.0 / items, 1 - theta)) / (1 - z2 / zetan);
  double alpha = 1 / (1 - theta);
  double u0 = z2 / zetan;
  auto bound = [&](int64_t k) {
    double u = (std::pow(static_cast<double>(k) / n, 1 / alpha) - 1) / eta + 1;
    return std::min(1.0, std::max(u0, u));
  };
  std::vector<double> p(n);
  for (int64_t k = 0; k < n; k++) p[k] = bound(k + 1) - bound(k);
  p[0] += 1 / zetan;
  p[1] += std::pow(0.5, theta) / zetan;
  return p;
}

}  // namespace teststats

#endif  // WORKLOADS_TESTS_GRAY_LAW_H_

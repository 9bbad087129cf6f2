// Bound check for an index the test built itself (with entry sizes or knobs
// the shared harness does not pass), used by slr_test.cc and pla_test.cc.
#ifndef LIDX_TESTS_LINEAR_TEST_UTIL_H_
#define LIDX_TESTS_LINEAR_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "harness.h"
#include "lidx/index.h"

namespace lidx_test {

// Every query of lidx_test::Queries() must get a bound holding its
// std::lower_bound position, and every last mile must land on it. Returns
// the number of violations; reports the first few with the query.
template <typename K>
size_t CheckBuiltBounds(const lidx::Index<K>& idx, const std::vector<K>& keys,
                        uint64_t seed) {
  size_t failures = 0;
  for (K q : Queries(keys, seed)) {
    const size_t want =
        std::lower_bound(keys.begin(), keys.end(), q) - keys.begin();
    const lidx::Bound b = idx.Search(q);
    bool ok = b.lo <= b.pos && b.pos <= b.hi && b.hi <= keys.size() &&
              b.lo <= want && want <= b.hi;
    for (auto kind : {lidx::LastMileKind::kBinary, lidx::LastMileKind::kLinear,
                      lidx::LastMileKind::kExponential}) {
      ok = ok && lidx::LastMile(keys.data(), b, q, kind) == want;
    }
    if (!ok && ++failures <= 5) {
      ADD_FAILURE() << idx.Id() << ": q=" << KeyStr(q)
                    << " lower_bound=" << want << " got [" << b.lo << ","
                    << b.pos << "," << b.hi << "] n=" << keys.size()
                    << " seed=" << seed;
    }
  }
  return failures;
}

// The harness datasets the linear-model tests sweep, and how a failure names one.
inline const char* kDatasets[] = {"uniform",    "dense",    "lognormal", "clustered",
                           "duplicates", "extremes", "all_equal", "str_prefix8"};

inline std::string Label(const char* ds, size_t n, uint64_t seed) {
  return std::string("dataset=") + ds + " n=" + std::to_string(n) +
         " seed=" + std::to_string(seed);
}

}  // namespace lidx_test

#endif  // LIDX_TESTS_LINEAR_TEST_UTIL_H_

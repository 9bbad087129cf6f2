// The DobLIX tests' failure check: prints the failed condition with a
// message and keeps going (up to 20 failures), so one run shows every broken
// case; main() returns non-zero when `failures` is not 0.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace doblix_test {

inline int failures = 0;

}  // namespace doblix_test

#define CHECK(cond, ...)                                              \
  do {                                                                \
    if (!(cond)) {                                                    \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                   \
      fprintf(stderr, "\n");                                          \
      if (++doblix_test::failures > 20) exit(1);                      \
    }                                                                 \
  } while (0)

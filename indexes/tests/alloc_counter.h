// A global operator new/delete replacement, linked into lidx_tests only, that
// tracks live heap bytes so tests can hold MemoryBytes() to account.
#ifndef LIDX_TESTS_ALLOC_COUNTER_H_
#define LIDX_TESTS_ALLOC_COUNTER_H_

#include <cstddef>

namespace lidx_test {

// Bytes requested through operator new and not yet deleted, all threads.
size_t LiveHeapBytes();

}  // namespace lidx_test

#endif  // LIDX_TESTS_ALLOC_COUNTER_H_

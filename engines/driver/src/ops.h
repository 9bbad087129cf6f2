// The operation stream a run executes, generated in full before the timed
// phase so generation never shows up in the measurement.
#ifndef LSMBENCH_OPS_H_
#define LSMBENCH_OPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "ycsb/random.h"

namespace lsmbench {

// YCSB's operation kinds; a read-modify-write is timed as one operation,
// as YCSB times it. Deletes come only from the differential stream.
enum class OpType : uint8_t { kGet, kUpdate, kInsert, kScan, kReadModifyWrite, kDelete };
constexpr int kOpTypes = 6;

// What the generator knows about a key when it builds a read-only stream;
// kUnknown makes the verifier consult its own state (streams with writes).
enum class Expect : uint8_t { kUnknown, kPresent, kAbsent };

struct Op {
  OpType type;
  Expect expect;
  uint32_t scan_len;
  uint64_t key;
};

const char* OpName(OpType t);

// Deterministic 64-bit generator: the workloads' xoshiro256** (seeded by
// splitmix64), so the same seed gives the same stream with every compiler
// and library, which std::uniform_int_distribution does not promise.
using Rng = ycsb::Random64;

// `count` point lookups over `keys` (sorted, distinct): a share
// `negative_share` of absent keys drawn inside the key range (between two
// neighbours where a gap exists), the rest uniform over the present keys.
std::vector<Op> PointLookups(const std::vector<uint64_t>& keys, uint64_t count,
                             double negative_share, uint64_t seed);

// The differential stream: every kind of answer an index can get wrong, so
// two engines that answer it identically agree on everything the studies
// ask. Gets of present, absent and neighbouring keys; overwrites; inserts of
// new keys (0 and 2^64-1 among them); deletes of present and absent keys,
// some re-inserted later; scans of 1 to 1000 entries starting at present
// and absent keys, across table and level boundaries. Expectations are
// kUnknown: the verifier's own state (loaded keys + writes) is the oracle.
std::vector<Op> DiffStream(const std::vector<uint64_t>& keys, uint64_t count, uint64_t seed);

// Untimed edge-case queries every run verifies besides its stream: gets and
// short scans at 0, 1, 2^64-2, 2^64-1 and around the first and last loaded
// keys, where off-by-one errors in index bounds show up.
std::vector<Op> EdgeProbes(const std::vector<uint64_t>& keys);

// Fisher-Yates shuffle with Rng, for the shuffled load order.
void Shuffle(std::vector<uint64_t>* v, uint64_t seed);

}  // namespace lsmbench

#endif  // LSMBENCH_OPS_H_

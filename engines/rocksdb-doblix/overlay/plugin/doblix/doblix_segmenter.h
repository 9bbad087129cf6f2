// Cuts a table's sorted entries into data blocks and fits each block's
// model (seed 002 §III-C). Points are the lower-bound staircase of the
// keys' integers: (x, first position of x in the block), plus (x+1, next
// position) where a gap follows, so the bound holds for absent keys too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {
class DoblixModel;
}

namespace ROCKSDB_NAMESPACE {

struct DoblixCut {
  size_t begin = 0, end = 0;  // entries [begin, end) form the block
  float slope = 0, intercept = 0;
  uint32_t error = 0;  // measured with the lookup's own arithmetic
};

class DoblixSegmenter {
 public:
  // Algorithm 1, dual-objective PLA: a block grows while one line through
  // its first point stays within `error` of every point (a shrinking cone)
  // and its bytes stay within `max_block`.
  // Both cut entries [begin, end) of `chunks` (all of them by default).
  static std::vector<DoblixCut> Pla(const std::vector<uint64_t>& chunks,
                                    const std::vector<uint32_t>& bytes, uint32_t error,
                                    uint32_t max_block, size_t begin = 0, size_t end = SIZE_MAX);
  // Algorithms 2-3, dual-objective PRA: blocks filled up to `max_block`
  // bytes, one least-squares line each, its error E' measured.
  static std::vector<DoblixCut> Pra(const std::vector<uint64_t>& chunks,
                                    const std::vector<uint32_t>& bytes, uint32_t max_block,
                                    size_t begin = 0, size_t end = SIZE_MAX);
  // TridentKV-style baseline: fits the RMI root over the whole table into
  // *model (kRmi, `leaves` leaves), then cuts a block per non-empty leaf
  // and fits each leaf's line; fills model->leaf_to_block.
  static std::vector<DoblixCut> Rmi(const std::vector<uint64_t>& chunks, uint32_t leaves,
                                    DoblixModel* model);
  // Bourbon-style baseline: blocks filled up to `max_block` bytes (as
  // RocksDB's block_size), and a greedy PLR with error `error` over the
  // whole table into *model (kPlr: plr, block_first_entry, entries).
  static std::vector<DoblixCut> Bourbon(const std::vector<uint64_t>& chunks,
                                        const std::vector<uint32_t>& bytes, uint32_t error,
                                        uint32_t max_block, DoblixModel* model);

 private:
  // Least squares over the staircase of [begin, end), error measured.
  static DoblixCut Fit(const std::vector<uint64_t>& chunks, size_t begin, size_t end);
  static void Measure(const std::vector<uint64_t>& chunks, DoblixCut* cut);
};

}  // namespace ROCKSDB_NAMESPACE

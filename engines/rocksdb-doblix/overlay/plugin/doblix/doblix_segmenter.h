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
  // TridentKV-style baseline, TridentKV's own sizing (its public code,
  // github.com/emperorlu/Learned-RocksDB, table/block_based_table_builder.cc
  // and rmi/rmi.h): a two-stage RMI of least-squares lines, one root and
  // `leaves` leaves (TridentKV: 1000), learns each key's byte offset in the
  // table (its entries' key + value bytes `kv_bytes` up to and including
  // it); a key's block is its predicted offset / `block_bytes` (TridentKV:
  // 4096), so blocks are as large as the model's errors make them. Fills
  // *model (kRmi) and returns one cut per block number some entry has.
  static std::vector<DoblixCut> Rmi(const std::vector<uint64_t>& chunks,
                                    const std::vector<uint32_t>& kv_bytes, uint32_t leaves,
                                    uint32_t block_bytes, DoblixModel* model);
  // Bourbon-style baseline: blocks filled up to `max_block` bytes (as
  // RocksDB's block_size), and Bourbon's greedy PLR with error bound
  // `error` over the whole table into *model (kPlr: plr,
  // block_first_entry, entries).
  static std::vector<DoblixCut> Bourbon(const std::vector<uint64_t>& chunks,
                                        const std::vector<uint32_t>& bytes, uint32_t error,
                                        uint32_t max_block, DoblixModel* model);

 private:
  // Least squares over the staircase of [begin, end), error measured.
  static DoblixCut Fit(const std::vector<uint64_t>& chunks, size_t begin, size_t end);
  static void Measure(const std::vector<uint64_t>& chunks, DoblixCut* cut);
};

}  // namespace ROCKSDB_NAMESPACE

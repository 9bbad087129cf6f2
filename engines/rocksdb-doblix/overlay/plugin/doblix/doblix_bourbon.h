// The Bourbon-style baseline's file model (seed 002 §IV-A4, Fig. 2a: "We
// incorporate Bourbon indexing method into our RocksDB configuration"):
// Bourbon's greedy PLR (seed 004 §4.1) over the positions of a whole
// table's entries, at Bourbon's error bound. Blocks stay fixed-size, so the
// positions a prediction's error window covers may lie in several blocks,
// and the reader loads every one of them.
//
// The PLR is the indexes library's `plr` (lidx/plr.h: Greedy-PLR as
// Bourbon's code runs it, the model engines/bourbon learns on WiscKey),
// used through its line core so the table stores the segments and their
// measured errors only (no build time: a table's bytes depend on its
// entries alone).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

class DoblixBourbonModel {
 public:
  DoblixBourbonModel();
  ~DoblixBourbonModel();

  // Greedy PLR with error bound `error` over the table's entry integers
  // (non-decreasing; one key's versions repeat its integer).
  void Train(const std::vector<uint64_t>& chunks, uint32_t error);
  // Table positions [*lo, *hi] (inclusive; *hi may be the entry count: past
  // the last entry) that hold the lower bound of every key whose integer
  // is x: the predictions of x and x + 1 widened by δ.
  void Range(uint64_t x, uint64_t* lo, uint64_t* hi) const;
  uint64_t entries() const;
  size_t segments() const;
  size_t MemoryBytes() const;

  // Appends the model, length-prefixed, to *out.
  void EncodeTo(std::string* out) const;
  // Reads what EncodeTo wrote from the front of *in; Status::Corruption
  // names the field that does not decode.
  Status DecodeFrom(Slice* in);

 private:
  struct Core;
  std::unique_ptr<Core> core_;
};

}  // namespace ROCKSDB_NAMESPACE

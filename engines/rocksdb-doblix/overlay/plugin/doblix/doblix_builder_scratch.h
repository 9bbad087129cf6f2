// The memory a DobLIX table builder buffers its table in, reused by the
// next table built on the same thread (flush and compaction threads build
// tables one after another; bounds in doblix_builder_scratch.cc). The builder must see the whole table before it
// trains (seed 002 §III-A); a fresh multi-MiB buffer per table would cost
// regrowth copies, page faults and unmaps that the block-based table,
// writing as it goes, never pays.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {

class DoblixBuilderScratch {
 public:
  // A scratch of this thread's pool (or a new one); exclusive to the caller
  // until Release, so two builders on one thread never share one.
  static std::unique_ptr<DoblixBuilderScratch> Acquire();
  // Empties `s` and keeps it (and its capacity, within bounds) for the
  // next Acquire on this thread.
  static void Release(std::unique_ptr<DoblixBuilderScratch> s);

  // Copies the entry; keys/values then hold it in order.
  void Append(const Slice& key, const Slice& value);
  size_t entry_bytes() const { return entry_bytes_; }

  std::vector<Slice> keys, values;
  // Per entry, filled by the builder as entries come: bytes in a block,
  // and the integer training cuts by (then Finish's working array).
  std::vector<uint32_t> bytes;
  std::vector<uint64_t> chunks;
  // Encoded data blocks not yet appended to the file (a little over 1 MiB).
  std::string staged;

 private:
  static constexpr size_t kChunk = 1 << 20;
  void Clear();

  std::vector<std::unique_ptr<char[]>> chunks_;  // kChunk bytes each
  size_t current_ = 0, used_ = kChunk;           // chunk being filled
  bool started_ = false;                         // current_ is valid
  std::vector<std::unique_ptr<char[]>> large_;   // entries above kChunk
  size_t entry_bytes_ = 0;
};

}  // namespace ROCKSDB_NAMESPACE

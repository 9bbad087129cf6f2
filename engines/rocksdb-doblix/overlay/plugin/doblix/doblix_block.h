// One decoded DobLIX data block (layout in doblix_format.h): the entry
// offsets are the paper's "KVs Addr", searched within the range the model
// gives, with the block's common user-key prefix removed from comparisons
// (seed 002 §III-E).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

class IterKey;

class DoblixBlock {
 public:
  // Appends the encoding of entries [begin, end) (internal keys, values)
  // and its checksum trailer to *out.
  static void Encode(const std::vector<Slice>& keys, const std::vector<Slice>& values,
                     size_t begin, size_t end, std::string* out);

  // Parses `contents` (with its trailer); `contents` must outlive this.
  // `check_offsets` false: the block passed Parse before (a cached block),
  // so its entry offsets, one load each and a likely CPU-cache miss per
  // line, are not walked again.
  Status Parse(const Slice& contents, bool verify_checksum, bool check_offsets = true);

  uint32_t size() const { return n_; }
  // The internal key of entry i, materialized into *buf.
  Slice Key(uint32_t i, std::string* buf) const;
  // The same into an IterKey, whose inline buffer holds short keys without
  // a heap allocation (a point lookup materializes one key per table).
  Slice Key(uint32_t i, IterKey* buf) const;
  Slice Value(uint32_t i) const;

  // First entry in [lo, hi) whose internal key is >= `ikey` (bytewise user
  // keys, then descending sequence), or hi. *outside is set when the
  // answer is not provably inside [lo, hi) (the caller then searches the
  // whole block).
  uint32_t LowerBound(const Slice& ikey, uint32_t lo, uint32_t hi, bool* outside) const;
  uint32_t LowerBound(const Slice& ikey) const;

 private:
  // <0, 0, >0 as the target (its user key after the prefix, and trailer)
  // compares with entry i.
  int CompareEntry(const Slice& target_suffix, uint64_t target_trailer, uint32_t i) const;
  void Entry(uint32_t i, Slice* suffix, Slice* value) const;
  uint32_t Offset(uint32_t i) const {
    return width_ == 2 ? DecodeFixed16(offsets_ + 2 * static_cast<size_t>(i))
                       : DecodeFixed32(offsets_ + 4 * static_cast<size_t>(i));
  }

  Slice prefix_;
  const char* data_ = nullptr;
  const char* offsets_ = nullptr;
  uint32_t n_ = 0;
  uint32_t width_ = 4;  // bytes of an entry offset: 2 or 4
};

}  // namespace ROCKSDB_NAMESPACE

// The learned index of one DobLIX table (seed 002 §III-B to §III-E): the
// table's common user-key prefix (removed before keys become integers), and
// per data block its first key's integer, the block's place in the file and
// the block's own linear model with its measured error. Blocks and model
// segments correspond one to one (Fig. 2d), so a lookup reads one block.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

// kRmi is the TridentKV-style baseline (Fig. 2c): a linear root over the
// whole table picks a leaf, and blocks are cut at leaf boundaries, so the
// leaf's block is the one read whatever its size.
// kPlr is the Bourbon-style baseline (Fig. 2b): fixed-size blocks and one
// greedy PLR over the whole table's positions, so the error range may span
// several blocks, all of which are read.
enum class DoblixModelKind : uint8_t { kPla = 1, kPra = 2, kRmi = 3, kPlr = 4 };

struct DoblixPlrSegment {
  uint64_t first_chunk = 0;
  uint64_t begin = 0;  // table position of the segment's first entry
  float slope = 0;
  uint32_t error = 0;
};

struct DoblixSegment {
  uint64_t first_chunk = 0;  // integer of the block's first user key
  uint64_t offset = 0;       // block position in the file
  uint32_t size = 0;         // block bytes, without the checksum trailer
  uint32_t error = 0;        // measured max |M(x) - position| over the block
  float slope = 0;           // M(x) = intercept + slope * (x - first_chunk)
  float intercept = 0;       //   in positions inside the block (the paper's
                             //   M(x) - offset, folded in at build time)
  bool cont = false;         // first key's integer equals the previous
                             //   block's last one (a run split by B_max)
};

class DoblixModel {
 public:
  DoblixModelKind kind = DoblixModelKind::kPla;
  std::string prefix;  // common prefix of all user keys of the table
  std::vector<DoblixSegment> segments;
  // kRmi only: root(x) = root_intercept + root_slope * (x - root_x0) in
  // table positions, scaled to `leaves` leaves; leaf j's keys are in block
  // leaf_to_block[j] (the next non-empty leaf's block when j is empty).
  uint64_t root_x0 = 0;
  float root_slope = 0, root_intercept = 0;
  uint64_t root_entries = 0;
  std::vector<uint32_t> leaf_to_block;
  uint32_t LeafOf(uint64_t x) const;
  // kPlr only: the segments, each block's first table position, and the
  // table's entry count.
  std::vector<DoblixPlrSegment> plr;
  std::vector<uint64_t> block_first_entry;
  uint64_t entries = 0;
  // [*lo, *hi) in table positions holding the lower bound of any key whose
  // integer is x (predictions clamped to the segment's own positions, where
  // the measured error holds).
  void PlrRange(uint64_t x, uint64_t* lo, uint64_t* hi) const;
  size_t BlockOfPosition(uint64_t pos) const;

  // Appends the serialization and its masked CRC32C to *out.
  void EncodeTo(std::string* out) const;
  // Rejects a damaged or truncated block with Status::Corruption naming
  // the field.
  Status DecodeFrom(const Slice& in);

  // The key's integer after the table prefix (0 or ~0 for keys outside it).
  uint64_t ChunkOf(const Slice& user_key) const;
  // The block to start a lower-bound search for integer x from: the last
  // block whose first integer is <= x, moved back over blocks that start
  // inside a run of x (kRmi: the root's leaf's block; segments.size() when
  // x lies past the last block).
  size_t FindBlock(uint64_t x) const;
  // [*lo, *hi) inside block `b` (of n entries) that holds the lower bound of
  // any key whose integer is x, from the block's model and error.
  void SearchRange(size_t b, uint64_t x, uint32_t n, uint32_t* lo, uint32_t* hi) const;
  // Predicted position of x in block b (before error and clamping).
  double Predict(size_t b, uint64_t x) const;

  size_t MemoryBytes() const {
    return sizeof(*this) + prefix.capacity() + segments.capacity() * sizeof(DoblixSegment) +
           leaf_to_block.capacity() * sizeof(uint32_t) + plr.capacity() * sizeof(DoblixPlrSegment) +
           block_first_entry.capacity() * sizeof(uint64_t);
  }
};

}  // namespace ROCKSDB_NAMESPACE

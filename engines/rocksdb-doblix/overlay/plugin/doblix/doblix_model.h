// The learned index of one DobLIX table (seed 002 §III-B to §III-E): the
// table's common user-key prefix (removed before keys become integers), and
// per data block its first key's integer, the block's place in the file and
// the block's own linear model with its measured error. Blocks and model
// segments correspond one to one (Fig. 2d), so a lookup reads one block.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

// kRmi is the TridentKV-style baseline (Fig. 2c): TridentKV's two-stage
// RMI predicts a key's byte offset in the table, and the offset divided by
// the block size is the key's block (doblix_segmenter.h), so one block is
// read and the blocks are as large as the model's errors make them.
// kPlr is the Bourbon-style baseline (Fig. 2a): fixed-size blocks and one
// greedy PLR over the whole table's positions (doblix_bourbon.h), so the
// error range may span several blocks, all of which are read.
enum class DoblixModelKind : uint8_t { kPla = 1, kPra = 2, kRmi = 3, kPlr = 4 };

class DoblixBourbonModel;

// A block's line at integer x, in positions inside the block: the one
// arithmetic both the lookup and the builder's error measurement use.
inline double DoblixPredict(uint64_t first_chunk, float slope, float intercept, uint64_t x) {
  if (x <= first_chunk) return intercept;
  return static_cast<double>(intercept) +
         static_cast<double>(slope) * static_cast<double>(x - first_chunk);
}

// TridentKV's RMI sees a key as a double (rmi/learned_index.h there:
// `rmi.insert(static_cast<double>(key), ...)`), so keys closer than a
// double's spacing at their magnitude (2048 near 2^63) are one point to it.
// Taken relative to the root's first key after the conversion: centred for
// the fit's precision, without the keys' precision the conversion lost.
// Monotone in x (the conversion rounds to nearest).
inline double DoblixRmiDx(uint64_t x, uint64_t x0) {
  return static_cast<double>(x) - static_cast<double>(x0);
}

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

// One node of the string index (seed 002 §II-B2 and §III-E, in the spirit
// of RSS): its keys share their zero-padded user-key bytes before `skip`,
// and it indexes the big-endian integer of the 8 bytes at `skip` with its
// items, in key order: data blocks (each with its own model segment) and,
// for a run of keys that share those 8 bytes and too many to bound (more
// than E, or more than one block), a child node over the bytes after them.
struct DoblixNode {
  static constexpr uint32_t kChild = 0x80000000u;
  // What a lookup reads comes first, within one cache line (on a large
  // model every line a lookup touches is a likely miss).
  uint32_t skip = 0;
  uint32_t first_block = 0, last_block = 0;  // the blocks under this node
  uint8_t radix_shift = 0;
  // Derived with the radix table, so a lookup skips two dependent loads:
  // chunk[0] (radix_base), and ref[j] when every item is a block (then item
  // j is block first_block + j).
  bool blocks_only = false;
  uint64_t radix_base = 0;
  std::vector<uint64_t> chunk;  // each item's first integer, ascending
  // RSS's radix table (§IV-A: 18 bits at the root, 12 at the next level,
  // 8 below; here also at most one bit more than the items need): items
  // whose integer minus chunk[0], shifted right by radix_shift, is p lie in
  // [radix[p], radix[p+1]). Rebuilt when the model is loaded, not stored;
  // empty for small nodes (binary search over all items then).
  std::vector<uint32_t> radix;
  std::vector<uint32_t> ref;    // a block, or kChild | node
  // Children: the padded bytes [parent skip + 8, skip) all its keys share
  // (the node's common prefix past the parent's chunk), compared once.
  std::string extra;
  // The first item whose integer is greater than x (std::upper_bound).
  size_t UpperBound(uint64_t x) const;
  void BuildRadix(int depth);
};

// Where a key's lower bound lies: at the start of `block`, past its end, or
// in it within the block model's range for integer `x`.
struct DoblixPlace {
  enum Where : uint8_t { kStart, kModel, kEnd };
  size_t block = 0;
  uint64_t x = 0;
  Where where = kModel;
};

class DoblixModel {
 public:
  DoblixModelKind kind = DoblixModelKind::kPla;
  std::string prefix;  // common prefix of all user keys of the table
  std::vector<DoblixSegment> segments;
  // kPla and kPra: the string index, nodes[0] its root (skip = the table
  // prefix's size); segment first_chunk values are their node's integers.
  std::vector<DoblixNode> nodes;
  // Whether any block continues its predecessor's run (a segment's cont):
  // without one, a lookup need not read the block's segment to back up.
  // Set when the model is loaded; a model being built keeps true.
  bool runs_split = true;
  // The place of `user_key`'s lower bound (kPla, kPra, kRmi; the
  // Bourbon-style kPlr starts from it when its own range misses).
  DoblixPlace Locate(const Slice& user_key) const;
  // kRmi only. Both stages are lines over dx = x - root_x0 giving a byte
  // offset in the table (its key + value bytes, rmi_bytes in all): the
  // root's offset scaled to the leaves picks leaf j = floor(offset *
  // leaves / rmi_bytes); leaf j's offset / rmi_block_bytes is the key's
  // block number, clamped to [lo, hi], the numbers of the leaf's first and
  // last entries (empty leaf: the next entry's), so numbers never fall as
  // keys grow; rmi_block_of maps a number to its block (for a number no
  // entry has, the next block: the lower bound's).
  struct RmiLeaf {
    double slope = 0, intercept = 0;
    uint32_t lo = 0, hi = 0;
  };
  uint64_t root_x0 = 0;
  double root_slope = 0, root_intercept = 0;
  uint64_t rmi_bytes = 0;
  uint32_t rmi_block_bytes = 4096;
  std::vector<RmiLeaf> rmi_leaves;
  std::vector<uint32_t> rmi_block_of;
  uint32_t LeafOf(uint64_t x) const;
  // Leaf `leaf`'s block number of x, before the clamp.
  uint32_t RmiRawNumber(uint32_t leaf, uint64_t x) const;
  // The block number of x: the builder's and the lookup's one arithmetic.
  uint32_t RmiNumber(uint64_t x) const;
  // kPlr only: the table's PLR, each block's first table position, and the
  // table's entry count.
  std::shared_ptr<DoblixBourbonModel> plr;
  std::vector<uint64_t> block_first_entry;
  uint64_t entries = 0;
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
  // inside a run of x (kRmi: the block of x's block number; segments.size()
  // when x lies past the last block).
  size_t FindBlock(uint64_t x) const;
  // [*lo, *hi) inside block `b` (of n entries) that holds the lower bound of
  // any key whose integer is x, from the block's model and error.
  void SearchRange(size_t b, uint64_t x, uint32_t n, uint32_t* lo, uint32_t* hi) const;
  // Predicted position of x in block b (before error and clamping).
  double Predict(size_t b, uint64_t x) const;

  size_t MemoryBytes() const;

 private:
  void EncodeNode(size_t node, std::string* out) const;
  Status DecodeHeader(const Slice& block, Slice* in);
  Status DecodeSegments(Slice* in);
  Status DecodePlr(Slice* in);
  Status DecodeRmi(Slice* in);
  // Decodes node `id` (already appended to `nodes`) and its children; its
  // blocks are the next ones after *next_block.
  Status DecodeNode(Slice* in, size_t id, uint32_t base, int depth, uint32_t* next_block);
};

}  // namespace ROCKSDB_NAMESPACE

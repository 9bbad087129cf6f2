// The DobLIX table file (seed 002, Fig. 2d and Fig. 3):
//
//   [data block 0] ... [data block N-1]     cut by the index model
//   [range deletion block]                  optional, same block format
//   [filter block "doblix.filter"]          optional: the filter policy's full
//                                           filter of the user keys, checksummed
//   [model block "doblix.model"]            the serialized index, checksummed
//   [properties block] [metaindex block]    RocksDB's own formats
//   [meta checksums]                        version 4: of both (below)
//   [footer]                                RocksDB's own format
//
// Data block: [varint32 prefix length][prefix = common prefix of the
// block's user keys] then per entry [varint32 suffix length][varint32 value
// length][user-key suffix + 8-byte internal trailer][value], then one
// offset per entry (the paper's KVs Addr array): fixed16 when the entries
// take at most 64 KiB, else fixed32; a fixed32 entry count whose high bit
// (kDoblixNarrowOffsets) says the offsets are fixed16; and a fixed32
// checksum of everything before it (DoblixChecksum).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {

// echo rocksdb.table.doblix | sha1sum, the leading 64 bits.
constexpr uint64_t kDoblixTableMagicNumber = 0x4a02457cf6b44895ull;
// 2: the model block carries the string index's nodes. 3: data blocks may
// keep 16-bit entry offsets (a version-2 block, without the count's flag,
// reads the same). 4: the meta checksums follow the metaindex block (RocksDB
// checks no block trailer of a plugin's table, yet parses its metaindex
// and trusts its properties: a flipped byte crashed its block iterator or
// divided by zero in its compaction sizes).
constexpr uint32_t kDoblixFormatVersion = 4;
constexpr uint32_t kDoblixOldestFormatVersion = 2;
constexpr size_t kDoblixBlockTrailerSize = 4;
constexpr uint32_t kDoblixNarrowOffsets = 0x80000000u;

extern const std::string kDoblixModelBlockName;
extern const std::string kDoblixRangeDelBlockName;
// Present when the table was built with a filter policy (its name is the
// table property filter_policy_name).
extern const std::string kDoblixFilterBlockName;
// Version 4 on, right after the metaindex block: fixed32 checksum of the
// properties block, fixed32 checksum of the metaindex block and that one.
constexpr size_t kDoblixMetaChecksumsSize = 8;

// Table property names (user-collected), read back by the adapter's logs.
extern const std::string kDoblixPropModel;         // pla | pra | ...
extern const std::string kDoblixPropError;         // E used to build
extern const std::string kDoblixPropMaxBlock;      // B_max used to build
extern const std::string kDoblixPropTrainMicros;   // model training time
extern const std::string kDoblixPropWriteMicros;   // serialization time
extern const std::string kDoblixPropIndexNodes;    // string index nodes (pla, pra)

// The checksum of data, model and range-deletion blocks: XXH3 as RocksDB
// computes it for its default block checksum (kXXH3), hardware-independent
// and fast (CRC32C falls back to a slow table in a PORTABLE build).
uint32_t DoblixChecksum(const char* data, size_t n);

// Big-endian integer of the 8 bytes of `user_key` after its first `skip`
// bytes, zero-padded: order-preserving (a < b bytewise implies
// Chunk(a) <= Chunk(b)) for keys that share those `skip` bytes.
inline uint64_t DoblixChunk(const Slice& user_key, size_t skip) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (skip + 8 <= user_key.size()) {  // the common case: one load
    uint64_t v;
    memcpy(&v, user_key.data() + skip, 8);
    return __builtin_bswap64(v);
  }
  if (skip < user_key.size() && user_key.size() >= 8) {
    // The key ends inside the 8 bytes (a table's last bytes, e.g. 64-byte
    // keys under a long prefix): its last 8 bytes, shifted past the zeros.
    uint64_t v;
    memcpy(&v, user_key.data() + user_key.size() - 8, 8);
    return __builtin_bswap64(v) << (8 * (skip + 8 - user_key.size()));
  }
#endif
  uint64_t x = 0;
  for (size_t i = 0; i < 8; i++) {
    size_t p = skip + i;
    x = (x << 8) | (p < user_key.size() ? static_cast<unsigned char>(user_key[p]) : 0u);
  }
  return x;
}

// Compares the bytes of `key` from `from` on, zero-padded, with `bytes`:
// <0, 0 or >0. Keys that share their padded bytes before `from` compare as
// their padded windows do, or are equal there (order-preserving).
inline int DoblixPaddedCompare(const Slice& key, size_t from, const Slice& bytes) {
  for (size_t i = 0; i < bytes.size(); i++) {
    size_t p = from + i;
    unsigned char c = p < key.size() ? static_cast<unsigned char>(key[p]) : 0u;
    unsigned char b = static_cast<unsigned char>(bytes[i]);
    if (c != b) return c < b ? -1 : 1;
  }
  return 0;
}

// -1 if `key` sorts before every key that starts with `prefix`, +1 if after
// every such key, 0 if it starts with `prefix`.
inline int DoblixPrefixSide(const Slice& key, const Slice& prefix) {
  size_t n = key.size() < prefix.size() ? key.size() : prefix.size();
  int r = n == 0 ? 0 : memcmp(key.data(), prefix.data(), n);
  if (r != 0) return r < 0 ? -1 : 1;
  return key.size() < prefix.size() ? -1 : 0;
}

}  // namespace ROCKSDB_NAMESPACE

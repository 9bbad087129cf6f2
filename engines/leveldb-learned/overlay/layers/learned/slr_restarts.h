// A LevelDB block read in place, for the SLR table's builder and reader
// (slr_table_builder.h, slr_table_reader.h): its restart array, the whole
// key at a restart point, and one prefix-compressed entry. Prefix
// compression stays on: LevelDB stores no shared bytes at a restart point,
// so a restart key is whole. Every read stays inside the block: a damaged
// block gives false or an empty key, never a read past it. Inline: the
// reader's search calls Key once a comparison.
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_SLR_RESTARTS_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_SLR_RESTARTS_H_

#include <cstdint>
#include <string>

#include "leveldb/slice.h"
#include "util/coding.h"

namespace leveldb {

// The restart points of one block (contents without trailer).
struct Restarts {
  const char* data = nullptr;
  uint32_t limit = 0;  // where the restart array starts
  uint32_t count = 0;
  const char* array = nullptr;

  // False when the block cannot hold the restart array it says it has.
  bool Parse(const Slice& block) {
    if (block.size() < 4) return false;
    count = DecodeFixed32(block.data() + block.size() - 4);
    if (uint64_t{count} * 4 + 4 > block.size()) return false;
    data = block.data();
    limit = static_cast<uint32_t>(block.size() - 4 - 4 * count);
    array = data + limit;
    return true;
  }
  uint32_t Offset(uint32_t i) const { return DecodeFixed32(array + 4 * i); }

  // The whole key (and value) at restart point i (shared == 0 there); empty
  // when the restart offset or its entry is malformed (a damaged block).
  Slice Key(uint32_t i, Slice* value = nullptr) const {
    if (Offset(i) >= limit) return Slice();
    const char* p = data + Offset(i);
    uint32_t shared, non_shared, vlen;
    p = GetVarint32Ptr(p, array, &shared);
    if (p) p = GetVarint32Ptr(p, array, &non_shared);
    if (p) p = GetVarint32Ptr(p, array, &vlen);
    if (p == nullptr || shared != 0 ||
        static_cast<uint64_t>(array - p) < uint64_t{non_shared} + vlen) {
      return Slice();
    }
    if (value) *value = Slice(p + non_shared, vlen);
    return Slice(p, non_shared);
  }
};

// Decodes the entry at *p (< limit) given the previous key in *key, and
// moves *p past it; false when the entry is malformed.
inline bool NextBlockEntry(const char** p, const char* limit, std::string* key, Slice* value) {
  uint32_t shared, non_shared, vlen;
  const char* q = GetVarint32Ptr(*p, limit, &shared);
  if (q == nullptr) return false;
  q = GetVarint32Ptr(q, limit, &non_shared);
  if (q == nullptr) return false;
  q = GetVarint32Ptr(q, limit, &vlen);
  if (q == nullptr || shared > key->size() ||
      static_cast<uint64_t>(limit - q) < uint64_t{non_shared} + vlen) {
    return false;
  }
  key->resize(shared);
  key->append(q, non_shared);
  *value = Slice(q + non_shared, vlen);
  *p = q + non_shared + vlen;
  return true;
}

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_SLR_RESTARTS_H_

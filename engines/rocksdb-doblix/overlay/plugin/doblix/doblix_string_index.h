// Builds DobLIX's string index (seed 002 §II-B2, §III-C, §III-E): a tree in
// the spirit of RSS whose nodes each map their keys to the 8 bytes after
// the keys' shared prefix and cut them into data blocks with the
// dual-objective PLA or PRA (one model segment per block, Fig. 2d). A run
// of keys sharing those 8 bytes that no block model could bound (more
// than E keys, or more bytes than one block) becomes a child node over the
// bytes after its own shared prefix, so long keys with long common parts
// (64-byte keys) still get a learned index at every level. The lookup side
// is DoblixModel::Locate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "plugin/doblix/doblix_segmenter.h"
#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {

class DoblixModel;

class DoblixStringIndex {
 public:
  // Cuts the table's sorted `user_keys` (entry sizes in `bytes`) into
  // blocks, model->kind kPla (error E = `error`) or kPra, and fills
  // model->nodes and model->segments (all but offset and size); returns
  // the blocks in key order. model->prefix must hold the keys' common
  // prefix.
  // *chunk_buffer is working memory (resized to the key count).
  static std::vector<DoblixCut> Build(const std::vector<Slice>& user_keys,
                                      const std::vector<uint32_t>& bytes, uint32_t error,
                                      uint32_t max_block, DoblixModel* model,
                                      std::vector<uint64_t>* chunk_buffer) {
    return Build(user_keys, 0, bytes, error, max_block, model, chunk_buffer, false, SIZE_MAX);
  }
  // The same over `keys` whose last `trailer` bytes are not part of the
  // user key (8: the table builder's internal keys). With `chunks_ready`,
  // *chunk_buffer already holds every key's root integer,
  // DoblixChunk(user key, model->prefix.size()). `longest` bounds the user
  // keys' sizes: when no key reaches past the root's 8 bytes, no run can
  // become a child and the root's keys are cut in one stretch without
  // reading a key (the same blocks and model).
  static std::vector<DoblixCut> Build(const std::vector<Slice>& keys, size_t trailer,
                                      const std::vector<uint32_t>& bytes, uint32_t error,
                                      uint32_t max_block, DoblixModel* model,
                                      std::vector<uint64_t>* chunk_buffer, bool chunks_ready,
                                      size_t longest);
  // Children stop here (each level moves >= 8 bytes into the key).
  static constexpr int kMaxDepth = 512;
};

}  // namespace ROCKSDB_NAMESPACE

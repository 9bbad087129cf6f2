// The model area of an SLR table (layout: slr_table_footer.h), after
// LevelDB's table: the models the builder trained, that the reader
// searches with. Layout:
//
//   prefix       fixed32 length, the user keys' common prefix (the models
//                see what follows: MapAfterPrefix, slr_model.h)
//   index model  fixed64 length, SlrModel::Serialize of the index block's
//                model (over its restart points: one an entry)
//   block models fixed32 count (the index block's entries), then for each
//                data block fixed32 length and its model; length 0 where
//                the block has none (fewer than slr_min_pairs entries or
//                2 restart points, or an slr-ea model over its budget)
//
// Its crc32c is in the footer.
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_SLR_MODEL_AREA_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_SLR_MODEL_AREA_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "layers/learned/slr_model.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"

namespace leveldb {

struct SlrModelArea {
  std::string prefix;
  std::unique_ptr<SlrModel> index_model;
  std::vector<std::unique_ptr<SlrModel>> block_models;  // by data block; null: none

  // Appends the area; index_model is set.
  void EncodeTo(std::string* out) const;
  // Corruption when `area` is not an area of `blocks` data blocks or a
  // model in it does not deserialize.
  Status DecodeFrom(const Slice& area, uint32_t blocks);
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_SLR_MODEL_AREA_H_

// The TridentKV-style baseline's index block. TridentKV keeps RocksDB's own
// index block beside its learned model (its code, emperorlu/Learned-RocksDB:
// table/block_based_table_builder.cc adds an index entry per data block in
// Finish() as RocksDB does, and writes the RMI as one more block,
// WriteLearnBlock(); table/block_based_table_reader.cc reads the index block
// at open into `block_pos`, each data block's offset and size, which the
// model's block number indexes). Built here by RocksDB's
// ShortenedIndexBuilder as TridentKV's RocksDB 5.4 writes it by default:
// format_version 2 (separators are internal keys), one restart point per
// entry (index_block_restart_interval 1), full block handles.
#pragma once

#include <string>
#include <vector>

#include "db/dbformat.h"
#include "plugin/doblix/doblix_model.h"
#include "plugin/doblix/doblix_segmenter.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

extern const std::string kDoblixTridentIndexBlockName;

class DoblixTridentIndex {
 public:
  // The index block of the data blocks `cuts` of `keys` (internal keys),
  // written at `segments`' offsets and sizes, with its checksum trailer,
  // into *out.
  static Status Build(const InternalKeyComparator& icmp, const std::vector<Slice>& keys,
                      const std::vector<DoblixCut>& cuts,
                      const std::vector<DoblixSegment>& segments, std::string* out);
  // Each data block's offset and size from the index block `in` (with its
  // trailer) into *segments, which must have one segment per entry.
  static Status Decode(const Slice& in, std::vector<DoblixSegment>* segments);
};

}  // namespace ROCKSDB_NAMESPACE

#include "plugin/doblix/doblix_tridentkv_index.h"

#include <memory>

#include "plugin/doblix/doblix_format.h"
#include "rocksdb/comparator.h"
#include "table/block_based/block.h"
#include "table/block_based/index_builder.h"
#include "table/format.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

const std::string kDoblixTridentIndexBlockName = "doblix.tridentkv.index";

Status DoblixTridentIndex::Build(const InternalKeyComparator& icmp,
                                 const std::vector<Slice>& keys,
                                 const std::vector<DoblixCut>& cuts,
                                 const std::vector<DoblixSegment>& segments, std::string* out) {
  // RocksDB 5.4's defaults (include/rocksdb/table.h there):
  // index_block_restart_interval 1, format_version 2; its builder shortened
  // both the separators and the last block's successor.
  ShortenedIndexBuilder index(&icmp, /*index_block_restart_interval=*/1,
                              /*format_version=*/2, /*use_value_delta_encoding=*/false,
                              BlockBasedTableOptions::IndexShorteningMode::
                                  kShortenSeparatorsAndSuccessor,
                              /*include_first_key=*/false);
  std::string last;
  for (size_t b = 0; b < cuts.size(); b++) {
    last.assign(keys[cuts[b].end - 1].data(), keys[cuts[b].end - 1].size());
    const Slice next = b + 1 < cuts.size() ? keys[cuts[b + 1].begin] : Slice();
    index.AddIndexEntry(&last, b + 1 < cuts.size() ? &next : nullptr,
                        BlockHandle(segments[b].offset, segments[b].size));
  }
  IndexBuilder::IndexBlocks blocks;
  Status s = index.Finish(&blocks);
  if (!s.ok()) return s;
  out->assign(blocks.index_block_contents.data(), blocks.index_block_contents.size());
  PutFixed32(out, DoblixChecksum(out->data(), out->size()));
  return Status::OK();
}

Status DoblixTridentIndex::Decode(const Slice& in, std::vector<DoblixSegment>* segments) {
  auto bad = [](const std::string& what) {
    return Status::Corruption("doblix tridentkv index block: " + what);
  };
  if (in.size() < 4) return bad("truncated");
  const size_t body = in.size() - 4;
  if (DecodeFixed32(in.data() + body) != DoblixChecksum(in.data(), body)) {
    return bad("checksum mismatch");
  }
  Block block(BlockContents(Slice(in.data(), body)));
  std::unique_ptr<DataBlockIter> it(
      block.NewDataIterator(BytewiseComparator(), kDisableGlobalSequenceNumber));
  size_t b = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), b++) {
    if (b >= segments->size()) return bad("more entries than data blocks");
    Slice v = it->value();
    BlockHandle h;
    if (!h.DecodeFrom(&v).ok() || h.size() > UINT32_MAX) return bad("block handle");
    (*segments)[b].offset = h.offset();
    (*segments)[b].size = static_cast<uint32_t>(h.size());
  }
  if (!it->status().ok()) return bad(it->status().ToString());
  if (b != segments->size()) {
    return bad(std::to_string(b) + " entries for " + std::to_string(segments->size()) +
               " data blocks");
  }
  return Status::OK();
}

}  // namespace ROCKSDB_NAMESPACE

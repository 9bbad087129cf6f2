// Writes one DobLIX table. Entries are buffered until Finish(), because the
// model is trained on the whole table (seed 002 §III-A) and the table's
// common key prefix is known only then; Finish() then trains (segments the
// entries into blocks and fits their models) and serializes. Add() takes
// training's per-entry inputs while the entry is at hand (its bytes in a
// block, its integer after the prefix shared so far), so Finish() reads no
// key to train.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/table_properties_collector.h"
#include "plugin/doblix/doblix_builder_scratch.h"
#include "plugin/doblix/doblix_table_options.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "table/table_builder.h"

namespace ROCKSDB_NAMESPACE {

class DoblixModel;
class WritableFileWriter;
struct DoblixCut;

class DoblixTableBuilder : public TableBuilder {
 public:
  // `knobs` are the model, E and B_max this table is built with (the
  // factory's options, or the agent's current choice).
  DoblixTableBuilder(const TableBuilderOptions& tbo, const DoblixTableOptions& knobs,
                     WritableFileWriter* file);
  ~DoblixTableBuilder() override;

  void Add(const Slice& key, const Slice& value) override;
  Status status() const override { return status_; }
  IOStatus io_status() const override { return io_status_; }
  Status Finish() override;
  void Abandon() override { closed_ = true; }
  uint64_t NumEntries() const override { return props_.num_entries; }
  // Before Finish, an estimate of the file: entries as blocks store them
  // (without the table's common prefix, which every block's prefix holds,
  // plus lengths and offset), so compactions cut tables near the target
  // size even for long keys that share most of their bytes.
  uint64_t FileSize() const override {
    return closed_ ? offset_
                   : scratch_->entry_bytes() + props_.num_entries * kEntryOverhead -
                         props_.num_entries * prefix_len_;
  }
  TableProperties GetTableProperties() const override { return props_; }
  std::string GetFileChecksum() const override;
  const char* GetFileChecksumFuncName() const override;

 private:
  Status Append(const Slice& data);
  // Turns scratch_->chunks (each key's integer after the prefix it shared
  // with the first key when added) into every key's integer after the
  // table's common prefix, `prefix` bytes.
  void RootChunks(size_t prefix, const std::vector<Slice>& keys);
  // Writes the data blocks; *index_block is TridentKV-style's index block
  // (doblix_tridentkv_index.h), empty for the other models.
  Status WriteBlocks(const std::vector<Slice>& keys, const std::vector<Slice>& values,
                     std::string* model_block, std::string* index_block,
                     std::string* filter_block);
  // Training: the keys' integers after the table's common prefix, then the
  // cuts (the blocks, in key order) and per-block models into *model (all
  // of each segment but its offset and size).
  std::vector<DoblixCut> Train(const std::vector<Slice>& keys, const std::vector<Slice>& values,
                               DoblixModel* model);
  // The baselines index one 8-byte integer per key: Bourbon-style the
  // table's first 8 bytes past its prefix, TridentKV-style the key's first 8.
  std::vector<DoblixCut> TrainBaseline(const std::vector<Slice>& keys,
                                       const std::vector<Slice>& values, DoblixModel* model);
  // Appends the blocks `cuts` make, each one's offset and size into its
  // segment of *model.
  Status WriteDataBlocks(const std::vector<Slice>& keys, const std::vector<Slice>& values,
                         const std::vector<DoblixCut>& cuts, DoblixModel* model);
  // The table's report to the agent (knobs_.agent): its size, key gap and
  // sample, the keys' integers taken after `prefix` bytes.
  void ReportToAgent(const std::vector<Slice>& keys, const std::vector<Slice>& values,
                     size_t prefix);
  // The knobs the table was built with and what building it took, as
  // user-collected properties (doblix_format.h).
  void AddModelProperties(size_t index_nodes, uint64_t train_micros, uint64_t write_micros);
  // The filter policy's full filter of the keys' distinct user keys, with
  // its checksum trailer, into *out (left empty without a policy, or when
  // the policy builds none for this table).
  void BuildFilter(const std::vector<Slice>& keys, std::string* out);

  const ImmutableOptions& ioptions_;
  const InternalKeyComparator icmp_;  // TridentKV-style's index separators
  // What a filter policy may decide by (TableBuilderOptions does not
  // outlive the constructor in compactions).
  BlockBasedTableOptions filter_table_options_;
  FilterBuildingContext filter_context_;
  DoblixTableOptions knobs_;
  WritableFileWriter* file_;
  std::vector<std::unique_ptr<IntTblPropCollector>> collectors_;
  TableProperties props_;
  // The table's entries until Finish (and Finish's working arrays).
  std::unique_ptr<DoblixBuilderScratch> scratch_;
  // The user-key prefix all entries so far share (with the first one).
  std::string first_user_key_;
  uint64_t prefix_len_ = 0;
  // (first entry, prefix_len_) each time prefix_len_ shrank: the prefix
  // the entries' integers in scratch_->chunks are taken after.
  std::vector<std::pair<size_t, size_t>> chunk_epochs_;
  size_t longest_user_key_ = 0;
  const uint32_t offset_bytes_;  // of an entry offset in a block of B_max
  static constexpr uint64_t kEntryOverhead = 2 + 2;  // two length varints, 16-bit offset
  static constexpr size_t kStagedBytes = 1 << 20;    // data blocks per file append
  std::vector<std::string> range_del_keys_, range_del_values_;
  uint64_t offset_ = 0;
  bool flush_ = false;
  Status status_;
  IOStatus io_status_;
  bool closed_ = false;
};

}  // namespace ROCKSDB_NAMESPACE

#include "plugin/doblix/doblix_table_builder.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "db/dbformat.h"
#include "file/writable_file_writer.h"
#include "plugin/doblix/doblix_agent.h"
#include "plugin/doblix/doblix_block.h"
#include "plugin/doblix/doblix_format.h"
#include "plugin/doblix/doblix_model.h"
#include "plugin/doblix/doblix_segmenter.h"
#include "plugin/doblix/doblix_string_index.h"
#include "plugin/doblix/doblix_tridentkv_index.h"
#include "rocksdb/comparator.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "rocksdb/merge_operator.h"
#include "table/block_based/filter_policy_internal.h"
#include "table/format.h"
#include "table/meta_blocks.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

namespace {
// How many of the first n bytes of a and b agree (n if all do): 8 bytes a
// step, inline (a call to memcmp per entry cost more than the compare).
size_t SharedBytes(const char* a, const char* b, size_t n) {
  size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    memcpy(&x, a + i, 8);
    memcpy(&y, b + i, 8);
    if (x != y) return i + (__builtin_ctzll(x ^ y) >> 3);
  }
#endif
  while (i < n && a[i] == b[i]) i++;
  return i;
}

uint64_t MicrosSince(std::chrono::steady_clock::time_point t0) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                   std::chrono::steady_clock::now() - t0)
                                   .count());
}
}  // namespace

DoblixTableBuilder::DoblixTableBuilder(const TableBuilderOptions& tbo,
                                       const DoblixTableOptions& knobs,
                                       WritableFileWriter* file)
    : ioptions_(tbo.ioptions),
      icmp_(tbo.internal_comparator),
      filter_context_(filter_table_options_),
      knobs_(knobs),
      file_(file),
      scratch_(DoblixBuilderScratch::Acquire()),
      offset_bytes_(knobs.max_block_size <= 0xffff ? 2 : 4),
      flush_(tbo.reason == TableFileCreationReason::kFlush) {
  // Keys become integers by their bytes, so the order must be bytewise.
  const Comparator* ucmp = tbo.internal_comparator.user_comparator();
  if (ucmp == nullptr || strcmp(ucmp->Name(), BytewiseComparator()->Name()) != 0 ||
      ucmp->timestamp_size() != 0) {
    status_ = Status::NotSupported("DoblixTable needs the bytewise comparator without timestamps");
  }
  // The context the block-based table gives its filter policy (which may
  // decide per level, e.g. build none at the bottommost one).
  filter_table_options_.filter_policy = knobs_.filter_policy;
  filter_context_.compaction_style = ioptions_.compaction_style;
  filter_context_.info_log = ioptions_.logger;
  filter_context_.column_family_name = tbo.column_family_name;
  filter_context_.level_at_creation = tbo.level_at_creation;
  filter_context_.is_bottommost = tbo.is_bottommost;
  filter_context_.reason = tbo.reason;
  for (auto& factory : *tbo.int_tbl_prop_collector_factories) {
    collectors_.emplace_back(
        factory->CreateIntTblPropCollector(tbo.column_family_id, tbo.level_at_creation));
  }
  props_.format_version = kDoblixFormatVersion;
  props_.column_family_id = tbo.column_family_id;
  props_.column_family_name = tbo.column_family_name;
  props_.db_id = tbo.db_id;
  props_.db_session_id = tbo.db_session_id;
  props_.db_host_id = ioptions_.db_host_id;
  props_.orig_file_number = tbo.cur_file_num;
  props_.oldest_key_time = tbo.oldest_key_time;
  props_.creation_time = tbo.oldest_key_time;
  props_.file_creation_time = tbo.file_creation_time;
  props_.comparator_name = ucmp != nullptr ? ucmp->Name() : "nullptr";
  props_.merge_operator_name =
      ioptions_.merge_operator != nullptr ? ioptions_.merge_operator->Name() : "nullptr";
  props_.prefix_extractor_name = tbo.moptions.prefix_extractor != nullptr
                                     ? tbo.moptions.prefix_extractor->AsString()
                                     : "nullptr";
  props_.compression_name = "NoCompression";
  std::string names;
  for (auto& c : collectors_) names += (names.empty() ? "" : ",") + std::string(c->Name());
  props_.property_collectors_names = "[" + names + "]";
}

DoblixTableBuilder::~DoblixTableBuilder() {
  DoblixBuilderScratch::Release(std::move(scratch_));
  status_.PermitUncheckedError();
  io_status_.PermitUncheckedError();
}

void DoblixTableBuilder::Add(const Slice& key, const Slice& value) {
  if (!status_.ok()) return;
  ParsedInternalKey parsed;
  Status s = ParseInternalKey(key, &parsed, false /* log_err_key */);
  if (!s.ok()) {
    status_ = s;
    return;
  }
  if (parsed.type == kTypeRangeDeletion) {
    range_del_keys_.push_back(key.ToString());
    range_del_values_.push_back(value.ToString());
    props_.num_range_deletions++;
  } else {
    const Slice user_key = parsed.user_key;
    if (props_.num_entries == 0) {
      first_user_key_.assign(user_key.data(), user_key.size());
      prefix_len_ = user_key.size();
      chunk_epochs_.clear();
      chunk_epochs_.emplace_back(0, prefix_len_);
      longest_user_key_ = 0;
    } else {
      // Sorted input: the prefix shared with the first key only shrinks.
      size_t shared = SharedBytes(user_key.data(), first_user_key_.data(),
                                  std::min<size_t>(prefix_len_, user_key.size()));
      if (shared < prefix_len_) {
        prefix_len_ = shared;
        chunk_epochs_.emplace_back(props_.num_entries, prefix_len_);
      }
    }
    longest_user_key_ = std::max<size_t>(longest_user_key_, user_key.size());
    // Training's inputs, while the entry is at hand: its bytes in a block
    // and its integer after the prefix shared so far (Finish shifts it to
    // the table's prefix, which can only be shorter: RootChunks).
    scratch_->bytes.push_back(
        static_cast<uint32_t>(key.size() + value.size() + 10 + offset_bytes_));
    scratch_->chunks.push_back(DoblixChunk(user_key, prefix_len_));
    scratch_->Append(key, value);
    props_.num_entries++;
    props_.raw_key_size += key.size();
    props_.raw_value_size += value.size();
    if (parsed.type == kTypeDeletion || parsed.type == kTypeSingleDeletion ||
        parsed.type == kTypeDeletionWithTimestamp) {
      props_.num_deletions++;
    } else if (parsed.type == kTypeMerge) {
      props_.num_merge_operands++;
    }
  }
  NotifyCollectTableCollectorsOnAdd(key, value, FileSize(), collectors_, ioptions_.logger);
}

void DoblixTableBuilder::RootChunks(size_t prefix, const std::vector<Slice>& keys) {
  std::vector<uint64_t>& chunks = scratch_->chunks;
  if (prefix != prefix_len_ || chunks.size() != keys.size()) {
    // Only unsorted input gets here (its prefix is not the first and last
    // keys'): every integer from its key.
    chunks.resize(keys.size());
    for (size_t i = 0; i < keys.size(); i++) chunks[i] = DoblixChunk(ExtractUserKey(keys[i]), prefix);
    return;
  }
  // An epoch's keys share its prefix p >= `prefix` with the first key, so
  // their integer at `prefix` is the first key's bytes [prefix, p) followed
  // by the leading bytes of their integer at p.
  const uint64_t first = DoblixChunk(first_user_key_, prefix);
  for (size_t e = 0; e < chunk_epochs_.size(); e++) {
    const size_t shift = chunk_epochs_[e].second - prefix;
    if (shift == 0) continue;
    const size_t begin = chunk_epochs_[e].first;
    const size_t end = e + 1 < chunk_epochs_.size() ? chunk_epochs_[e + 1].first : chunks.size();
    if (shift >= 8) {
      std::fill(chunks.begin() + begin, chunks.begin() + end, first);
    } else {
      const uint64_t high = first & (~uint64_t{0} << (64 - 8 * shift));
      for (size_t i = begin; i < end; i++) chunks[i] = high | (chunks[i] >> (8 * shift));
    }
  }
}

Status DoblixTableBuilder::Append(const Slice& data) {
  io_status_ = file_->Append(data);
  offset_ += data.size();
  status_ = io_status_;
  return status_;
}

Status DoblixTableBuilder::WriteBlocks(const std::vector<Slice>& keys,
                                       const std::vector<Slice>& values,
                                       std::string* model_block, std::string* index_block,
                                       std::string* filter_block) {
  auto t0 = std::chrono::steady_clock::now();
  DoblixModel model;
  const std::vector<DoblixCut> cuts = Train(keys, values, &model);
  const uint64_t train_micros = MicrosSince(t0);

  // Serialization: the data blocks, then the model.
  t0 = std::chrono::steady_clock::now();
  if (!WriteDataBlocks(keys, values, cuts, &model).ok()) return status_;
  model.EncodeTo(model_block);
  index_block->clear();
  if (model.kind == DoblixModelKind::kRmi && !cuts.empty()) {
    Status s = DoblixTridentIndex::Build(icmp_, keys, cuts, model.segments, index_block);
    if (!s.ok()) {
      status_ = s;
      return s;
    }
  }
  // TridentKV's index is its RMI and RocksDB's index block together.
  props_.index_size = model_block->size() + index_block->size();
  BuildFilter(keys, filter_block);
  const uint64_t write_micros = MicrosSince(t0);

  if (knobs_.agent != nullptr) ReportToAgent(keys, values, model.prefix.size());
  AddModelProperties(model.nodes.size(), train_micros, write_micros);
  return Status::OK();
}

std::vector<DoblixCut> DoblixTableBuilder::Train(const std::vector<Slice>& keys,
                                                 const std::vector<Slice>& values,
                                                 DoblixModel* model) {
  model->kind = knobs_.model == "pra"         ? DoblixModelKind::kPra
                : knobs_.model == "tridentkv" ? DoblixModelKind::kRmi
                : knobs_.model == "bourbon"   ? DoblixModelKind::kPlr
                                              : DoblixModelKind::kPla;
  if (keys.empty()) return {};
  Slice first = ExtractUserKey(keys.front()), last = ExtractUserKey(keys.back());
  model->prefix.assign(first.data(), first.difference_offset(last));
  // TridentKV's key is its first 8 bytes (Slice::Touint64_t in its
  // util/slice.cc): its string model removes no prefix (002 §IV-E).
  if (model->kind == DoblixModelKind::kRmi) model->prefix.clear();
  RootChunks(model->prefix.size(), keys);
  if (model->kind == DoblixModelKind::kPla || model->kind == DoblixModelKind::kPra) {
    // Entry bytes (set in Add): both lengths' varints (at most 10), key,
    // value, offset (16-bit in a block within 64 KiB: doblix_format.h).
    return DoblixStringIndex::Build(keys, kNumInternalBytes, scratch_->bytes, knobs_.error,
                                    knobs_.max_block_size, model, &scratch_->chunks,
                                    /*chunks_ready=*/true, longest_user_key_);
  }
  return TrainBaseline(keys, values, model);
}

std::vector<DoblixCut> DoblixTableBuilder::TrainBaseline(const std::vector<Slice>& keys,
                                                         const std::vector<Slice>& values,
                                                         DoblixModel* model) {
  std::vector<uint32_t>& bytes = scratch_->bytes;
  const std::vector<uint64_t>& chunks = scratch_->chunks;
  std::vector<DoblixCut> cuts;
  if (model->kind == DoblixModelKind::kRmi) {
    // TridentKV counts an entry's key and value bytes (`_bytes`).
    for (size_t i = 0; i < keys.size(); i++) {
      bytes[i] = static_cast<uint32_t>(keys[i].size() + values[i].size());
    }
    cuts = DoblixSegmenter::Rmi(chunks, bytes, knobs_.rmi_leaves, knobs_.max_block_size, model);
  } else {
    cuts = DoblixSegmenter::Bourbon(chunks, bytes, knobs_.error, knobs_.max_block_size, model);
  }
  model->segments.resize(cuts.size());
  for (size_t b = 0; b < cuts.size(); b++) {
    DoblixSegment& s = model->segments[b];
    s.first_chunk = chunks[cuts[b].begin];
    s.cont = b > 0 && chunks[cuts[b].begin] == chunks[cuts[b].begin - 1];
    s.slope = cuts[b].slope;
    s.intercept = cuts[b].intercept;
    s.error = cuts[b].error;
  }
  return cuts;
}

Status DoblixTableBuilder::WriteDataBlocks(const std::vector<Slice>& keys,
                                           const std::vector<Slice>& values,
                                           const std::vector<DoblixCut>& cuts,
                                           DoblixModel* model) {
  // Blocks are staged and appended more than 1 MiB at a time: the file
  // writer (its buffer at most writable_file_max_buffer_size, 1 MiB by
  // default) then writes them from here instead of copying them into its
  // buffer first.
  std::string& staged = scratch_->staged;
  staged.clear();
  for (size_t b = 0; b < cuts.size(); b++) {
    const size_t at = staged.size();
    DoblixBlock::Encode(keys, values, cuts[b].begin, cuts[b].end, &staged);
    model->segments[b].offset = offset_ + at;
    model->segments[b].size = static_cast<uint32_t>(staged.size() - at - kDoblixBlockTrailerSize);
    if (staged.size() > kStagedBytes || b + 1 == cuts.size()) {
      if (!Append(staged).ok()) return status_;
      staged.clear();
    }
  }
  props_.data_size = offset_;
  props_.num_data_blocks = cuts.size();
  return Status::OK();
}

void DoblixTableBuilder::ReportToAgent(const std::vector<Slice>& keys,
                                       const std::vector<Slice>& values, size_t prefix) {
  DoblixTableReport report;
  report.entries = keys.size();
  report.index_bytes = props_.index_size;
  report.flush = flush_;
  if (keys.size() >= 4) {
    // Interquartile key gap: robust to a few outliers at the ends.
    size_t q1 = keys.size() / 4, q3 = keys.size() * 3 / 4;
    uint64_t a = DoblixChunk(ExtractUserKey(keys[q1]), prefix);
    uint64_t b = DoblixChunk(ExtractUserKey(keys[q3]), prefix);
    report.log2_key_gap = std::log2((static_cast<double>(b - a) + 1) / (q3 - q1));
  }
  if (knobs_.agent->WantsSample()) {
    for (size_t i = 0; i < keys.size(); i += 100) {  // the 1% warm-start sample
      report.sample_chunks.push_back(DoblixChunk(ExtractUserKey(keys[i]), prefix));
      report.sample_bytes.push_back(static_cast<uint32_t>(keys[i].size() + values[i].size() + 14));
    }
  }
  knobs_.agent->OnTableBuilt(report);
}

void DoblixTableBuilder::AddModelProperties(size_t index_nodes, uint64_t train_micros,
                                            uint64_t write_micros) {
  props_.user_collected_properties[kDoblixPropModel] =
      (knobs_.agent != nullptr ? "agent:" : "") + knobs_.model;
  props_.user_collected_properties[kDoblixPropError] = std::to_string(knobs_.error);
  props_.user_collected_properties[kDoblixPropMaxBlock] = std::to_string(knobs_.max_block_size);
  props_.user_collected_properties[kDoblixPropTrainMicros] = std::to_string(train_micros);
  props_.user_collected_properties[kDoblixPropWriteMicros] = std::to_string(write_micros);
  props_.user_collected_properties[kDoblixPropIndexNodes] = std::to_string(index_nodes);
}

Status DoblixTableBuilder::Finish() {
  closed_ = true;
  if (!status_.ok()) return status_;
  const std::vector<Slice>& keys = scratch_->keys;
  const std::vector<Slice>& values = scratch_->values;
  std::string model_block, index_block, filter_block;
  if (!WriteBlocks(keys, values, &model_block, &index_block, &filter_block).ok()) return status_;

  MetaIndexBuilder meta_index;
  BlockHandle handle;
  handle.set_offset(offset_);
  handle.set_size(model_block.size());
  if (!Append(model_block).ok()) return status_;
  meta_index.Add(kDoblixModelBlockName, handle);
  if (!index_block.empty()) {
    handle.set_offset(offset_);
    handle.set_size(index_block.size());
    if (!Append(index_block).ok()) return status_;
    meta_index.Add(kDoblixTridentIndexBlockName, handle);
  }

  // Range tombstones: count, then length-prefixed key and value, checksummed.
  std::string range_dels;
  PutVarint64(&range_dels, range_del_keys_.size());
  for (size_t i = 0; i < range_del_keys_.size(); i++) {
    PutLengthPrefixedSlice(&range_dels, range_del_keys_[i]);
    PutLengthPrefixedSlice(&range_dels, range_del_values_[i]);
  }
  PutFixed32(&range_dels, DoblixChecksum(range_dels.data(), range_dels.size()));
  handle.set_offset(offset_);
  handle.set_size(range_dels.size());
  if (!Append(range_dels).ok()) return status_;
  meta_index.Add(kDoblixRangeDelBlockName, handle);

  if (!filter_block.empty()) {
    handle.set_offset(offset_);
    handle.set_size(filter_block.size());
    if (!Append(filter_block).ok()) return status_;
    meta_index.Add(kDoblixFilterBlockName, handle);
  }

  PropertyBlockBuilder property_block;
  property_block.AddTableProperty(props_);
  property_block.Add(props_.user_collected_properties);
  NotifyCollectTableCollectorsOnFinish(collectors_, ioptions_.logger, &property_block);
  Slice properties = property_block.Finish();
  handle.set_offset(offset_);
  handle.set_size(properties.size());
  if (!Append(properties).ok()) return status_;
  meta_index.Add(kPropertiesBlockName, handle);
  const uint32_t properties_checksum = DoblixChecksum(properties.data(), properties.size());

  Slice meta = meta_index.Finish();
  BlockHandle meta_handle;
  meta_handle.set_offset(offset_);
  meta_handle.set_size(meta.size());
  if (!Append(meta).ok()) return status_;
  // Version 4: the meta checksums (doblix_format.h), after the metaindex.
  std::string sums(meta.data(), meta.size());
  PutFixed32(&sums, properties_checksum);
  std::string trailer;
  PutFixed32(&trailer, properties_checksum);
  PutFixed32(&trailer, DoblixChecksum(sums.data(), sums.size()));
  if (!Append(trailer).ok()) return status_;

  FooterBuilder footer;
  footer.Build(kDoblixTableMagicNumber, kDoblixFormatVersion, offset_, kNoChecksum, meta_handle);
  if (!Append(footer.GetSlice()).ok()) return status_;

  return status_;
}

void DoblixTableBuilder::BuildFilter(const std::vector<Slice>& keys, std::string* out) {
  out->clear();
  if (knobs_.filter_policy == nullptr || keys.empty()) return;
  std::unique_ptr<FilterBitsBuilder> bits(
      knobs_.filter_policy->GetBuilderWithContext(filter_context_));
  if (bits == nullptr) return;
  Slice previous;
  for (size_t i = 0; i < keys.size(); i++) {
    Slice user_key = ExtractUserKey(keys[i]);
    if (i > 0 && user_key == previous) continue;  // one key's versions
    bits->AddKey(user_key);
    previous = user_key;
  }
  std::unique_ptr<const char[]> buf;
  Slice filter = bits->Finish(&buf);
  out->assign(filter.data(), filter.size());
  PutFixed32(out, DoblixChecksum(out->data(), out->size()));
  props_.filter_size = out->size();
  props_.filter_policy_name = knobs_.filter_policy->Name();
}

std::string DoblixTableBuilder::GetFileChecksum() const {
  return file_ != nullptr ? file_->GetFileChecksum() : kUnknownFileChecksum;
}

const char* DoblixTableBuilder::GetFileChecksumFuncName() const {
  return file_ != nullptr ? file_->GetFileChecksumFuncName() : kUnknownFileChecksumFuncName;
}

}  // namespace ROCKSDB_NAMESPACE

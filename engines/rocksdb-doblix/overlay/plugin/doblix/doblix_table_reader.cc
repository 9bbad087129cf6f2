#include "plugin/doblix/doblix_table_reader.h"

#include <algorithm>
#include <chrono>

#include "db/dbformat.h"
#include "monitoring/perf_context_imp.h"
#include "rocksdb/perf_level.h"
#include "monitoring/statistics.h"
#include "plugin/doblix/doblix_agent.h"
#include "plugin/doblix/doblix_bourbon.h"
#include "plugin/doblix/doblix_format.h"
#include "plugin/doblix/doblix_table_iterator.h"
#include "plugin/doblix/doblix_tridentkv_index.h"
#include "rocksdb/comparator.h"
#include "rocksdb/snapshot.h"
#include "table/table_builder.h"
#include "table/block_based/block_type.h"
#include "table/format.h"
#include "table/get_context.h"
#include "table/meta_blocks.h"
#include "util/coding.h"
#include "util/vector_iterator.h"

namespace ROCKSDB_NAMESPACE {

std::atomic<uint64_t> DoblixTableReader::model_misses{0};
thread_local DoblixStepNanos doblix_step_nanos;
thread_local uint64_t doblix_block_bytes_loaded = 0;

namespace {
// Readers of one process never share a cache key: a counter, not the file.
std::atomic<uint64_t> next_reader_id{1};

// A cached block is the bare bytes: its size is the model's (the cache key
// names the block), so one allocation serves the read and the cache.
void DeleteCachedBlock(const Slice& /*key*/, void* value) { delete[] static_cast<char*>(value); }
}  // namespace

void DoblixBlockHolder::Reset() {
  if (handle != nullptr) cache->Release(handle);
  handle = nullptr;
  cache = nullptr;
  owned.reset();
  block = DoblixBlock();
}

void DoblixBlockHolder::MoveFrom(DoblixBlockHolder* other) {
  Reset();
  block = other->block;
  cache = other->cache;
  handle = other->handle;
  owned = std::move(other->owned);
  other->cache = nullptr;
  other->handle = nullptr;
  other->block = DoblixBlock();
}

DoblixTableReader::DoblixTableReader(const TableReaderOptions& tro,
                                     const DoblixTableOptions& options,
                                     std::unique_ptr<RandomAccessFileReader>&& file)
    : ioptions_(tro.ioptions),
      icmp_(tro.internal_comparator),
      options_(options),
      file_(std::move(file)) {
  PutFixed64(&cache_key_prefix_, next_reader_id.fetch_add(1));
}

Status DoblixTableReader::Open(const TableReaderOptions& tro, const DoblixTableOptions& options,
                               std::unique_ptr<RandomAccessFileReader>&& file,
                               uint64_t file_size, std::unique_ptr<TableReader>* table) {
  const Comparator* ucmp = tro.internal_comparator.user_comparator();
  if (strcmp(ucmp->Name(), BytewiseComparator()->Name()) != 0 || ucmp->timestamp_size() != 0) {
    return Status::NotSupported("DoblixTable needs the bytewise comparator without timestamps");
  }
  // RocksDB's meta block readers do not name the file, and DB::Open
  // reports their errors under the MANIFEST's name: every Corruption of
  // this table names it.
  const std::string name = file->file_name();
  auto named = [&name](const Status& st) {
    if (!st.IsCorruption() || st.ToString().find(name) != std::string::npos) return st;
    return Status::Corruption(st.getState(), name);
  };
  std::unique_ptr<DoblixTableReader> r(new DoblixTableReader(tro, options, std::move(file)));
  std::unique_ptr<TableProperties> props;
  uint64_t properties_checksum = kNoMetaChecksums;
  Status s = r->CheckMetaIndex(file_size, &properties_checksum);
  if (s.ok()) {
    s = ReadTableProperties(r->file_.get(), file_size, kDoblixTableMagicNumber, tro.ioptions,
                            &props);
  }
  if (s.ok() && properties_checksum != kNoMetaChecksums) {
    s = r->CheckProperties(file_size, static_cast<uint32_t>(properties_checksum));
  }
  if (!s.ok()) return named(s);
  r->properties_ = std::move(props);

  BlockContents model;
  s = ReadMetaBlock(r->file_.get(), nullptr, file_size, kDoblixTableMagicNumber, tro.ioptions,
                    kDoblixModelBlockName, BlockType::kIndex, &model);
  if (!s.ok()) return named(s);
  s = r->model_.DecodeFrom(model.data);
  if (s.ok() && r->model_.kind == DoblixModelKind::kRmi && !r->model_.segments.empty()) {
    // TridentKV keeps its blocks' places in RocksDB's index block.
    BlockContents index;
    s = ReadMetaBlock(r->file_.get(), nullptr, file_size, kDoblixTableMagicNumber, tro.ioptions,
                      kDoblixTridentIndexBlockName, BlockType::kIndex, &index);
    if (s.ok()) s = DoblixTridentIndex::Decode(index.data, &r->model_.segments);
  }
  if (!s.ok()) return Status::Corruption(s.getState(), r->file_->file_name());
  const auto& segs = r->model_.segments;
  if (segs.size() != r->properties_->num_data_blocks ||
      (!segs.empty() && segs.back().offset + segs.back().size + kDoblixBlockTrailerSize !=
                            r->properties_->data_size)) {
    return Status::Corruption("doblix model block: blocks do not match the table properties",
                              r->file_->file_name());
  }
  s = r->LoadRangeDeletions(file_size);
  if (!s.ok()) return named(s);
  s = r->LoadFilter(file_size);
  if (!s.ok()) return named(s);
  *table = std::move(r);
  return Status::OK();
}

Status DoblixTableReader::CheckMetaIndex(uint64_t file_size, uint64_t* properties_checksum) {
  *properties_checksum = kNoMetaChecksums;
  Footer footer;
  Status s = ReadFooterFromFile(IOOptions(), file_.get(), nullptr, file_size, &footer,
                                kDoblixTableMagicNumber);
  if (!s.ok()) return s;
  const uint32_t version = footer.format_version();
  if (version < kDoblixOldestFormatVersion || version > kDoblixFormatVersion) {
    return Status::Corruption("doblix table: unknown format version " + std::to_string(version),
                              file_->file_name());
  }
  if (version < 4) return Status::OK();  // written before the meta checksums
  const BlockHandle& h = footer.metaindex_handle();
  if (h.offset() > file_size || h.size() + kDoblixMetaChecksumsSize > file_size - h.offset()) {
    return Status::Corruption("doblix metaindex block: outside the file", file_->file_name());
  }
  const size_t n = static_cast<size_t>(h.size()) + kDoblixMetaChecksumsSize;
  std::unique_ptr<char[]> buf(new char[n]);
  Slice in;
  s = file_->Read(IOOptions(), h.offset(), n, &in, buf.get(), nullptr, Env::IO_TOTAL);
  if (!s.ok()) return s;
  if (in.size() != n || DecodeFixed32(in.data() + n - 4) != DoblixChecksum(in.data(), n - 4)) {
    return Status::Corruption("doblix metaindex block: checksum mismatch", file_->file_name());
  }
  *properties_checksum = DecodeFixed32(in.data() + n - 8);
  return Status::OK();
}

Status DoblixTableReader::CheckProperties(uint64_t file_size, uint32_t checksum) {
  BlockContents props;
  Status s = ReadMetaBlock(file_.get(), nullptr, file_size, kDoblixTableMagicNumber, ioptions_,
                           kPropertiesBlockName, BlockType::kProperties, &props);
  if (!s.ok()) return s;
  if (checksum != DoblixChecksum(props.data.data(), props.data.size())) {
    return Status::Corruption("doblix properties block: checksum mismatch", file_->file_name());
  }
  return Status::OK();
}

Status DoblixTableReader::LoadRangeDeletions(uint64_t file_size) {
  BlockContents contents;
  Status s = ReadMetaBlock(file_.get(), nullptr, file_size, kDoblixTableMagicNumber, ioptions_,
                           kDoblixRangeDelBlockName, BlockType::kRangeDeletion, &contents);
  if (!s.ok()) return s;
  Slice in = contents.data;
  auto bad = [&](const char* what) {
    return Status::Corruption(std::string("doblix range deletion block: ") + what,
                              file_->file_name());
  };
  if (in.size() < 4) return bad("truncated");
  const size_t body = in.size() - 4;
  if (DecodeFixed32(in.data() + body) != DoblixChecksum(in.data(), body)) {
    return bad("checksum mismatch");
  }
  in = Slice(in.data(), body);
  uint64_t count = 0;
  if (!GetVarint64(&in, &count) || count > in.size()) return bad("count");
  if (count == 0) return Status::OK();
  std::vector<std::string> keys, values;
  for (uint64_t i = 0; i < count; i++) {
    Slice k, v;
    if (!GetLengthPrefixedSlice(&in, &k) || !GetLengthPrefixedSlice(&in, &v)) return bad("entry");
    keys.push_back(k.ToString());
    values.push_back(v.ToString());
  }
  std::unique_ptr<InternalIterator> it(
      new VectorIterator(std::move(keys), std::move(values), &icmp_));
  range_dels_ = std::make_shared<FragmentedRangeTombstoneList>(std::move(it), icmp_);
  return Status::OK();
}

Status DoblixTableReader::LoadFilter(uint64_t file_size) {
  if (options_.filter_policy == nullptr || properties_->filter_policy_name.empty()) {
    return Status::OK();
  }
  Status s = ReadMetaBlock(file_.get(), nullptr, file_size, kDoblixTableMagicNumber, ioptions_,
                           kDoblixFilterBlockName, BlockType::kFilter, &filter_block_);
  if (!s.ok()) return s;
  const Slice in = filter_block_.data;
  if (in.size() < 4 || DecodeFixed32(in.data() + in.size() - 4) !=
                           DoblixChecksum(in.data(), in.size() - 4)) {
    return Status::Corruption("doblix filter block: checksum mismatch", file_->file_name());
  }
  // Any built-in policy reads any built-in filter (the block-based table
  // relies on the same).
  filter_.reset(options_.filter_policy->GetFilterBitsReader(Slice(in.data(), in.size() - 4)));
  return Status::OK();
}

Status DoblixTableReader::ReadBlock(const ReadOptions& ro, size_t b, bool fill_cache,
                                    DoblixBlockHolder* holder) {
  holder->Reset();
  // The block's segment (offset, size) is a cache miss of its own on a
  // large model: fetch it while the block cache is searched, which the key
  // (the block's number, not its offset) does not wait for.
  const DoblixSegment* segment = &model_.segments[b];
  __builtin_prefetch(segment);
  doblix_block_bytes_loaded += segment->size + kDoblixBlockTrailerSize;
  Statistics* stats = ioptions_.stats;
  Cache* cache = options_.block_cache.get();
  char key_buf[16];
  Slice cache_key;
  if (cache != nullptr) {
    memcpy(key_buf, cache_key_prefix_.data(), 8);
    EncodeFixed64(key_buf + 8, b);
    cache_key = Slice(key_buf, sizeof(key_buf));
    Cache::Handle* h = cache->Lookup(cache_key, stats);
    if (h != nullptr) {
      RecordTick(stats, BLOCK_CACHE_HIT);
      RecordTick(stats, BLOCK_CACHE_DATA_HIT);
      PERF_COUNTER_ADD(block_cache_hit_count, 1);
      holder->cache = cache;
      holder->handle = h;
      // Verified and parsed when it entered the cache.
      return holder->block.Parse(
          Slice(static_cast<const char*>(cache->Value(h)), segment->size + kDoblixBlockTrailerSize),
          false, false);
    }
    RecordTick(stats, BLOCK_CACHE_MISS);
    RecordTick(stats, BLOCK_CACHE_DATA_MISS);
  }
  const DoblixSegment& seg = *segment;
  const size_t n = seg.size + kDoblixBlockTrailerSize;
  std::unique_ptr<char[]> buf(new char[n]);
  Slice result;
  IOStatus io;
  {
    PERF_TIMER_GUARD(block_read_time);
    io = file_->Read(IOOptions(), seg.offset, n, &result, buf.get(), nullptr,
                     ro.rate_limiter_priority);
  }
  PERF_COUNTER_ADD(block_read_count, 1);
  PERF_COUNTER_ADD(block_read_byte, n);
  if (!io.ok()) return io;
  if (result.size() != n) {
    return Status::Corruption("doblix data block: truncated read", file_->file_name());
  }
  const bool keep_in_cache = cache != nullptr && fill_cache;
  if (result.data() != buf.get() && !keep_in_cache) {
    // mmap: the block stays in the mapped file.
    Status s = holder->block.Parse(result, ro.verify_checksums);
    return s.ok() ? s : Status::Corruption(s.getState(), file_->file_name());
  }
  if (result.data() != buf.get()) memcpy(buf.get(), result.data(), n);
  Status s = holder->block.Parse(Slice(buf.get(), n), ro.verify_checksums);
  if (!s.ok()) return Status::Corruption(s.getState(), file_->file_name());
  if (keep_in_cache) {
    char* raw = buf.release();
    Cache::Handle* h = nullptr;
    s = cache->Insert(cache_key, raw, n, &DeleteCachedBlock, &h);
    if (s.ok()) {
      RecordTick(stats, BLOCK_CACHE_ADD);
      holder->cache = cache;
      holder->handle = h;
      return Status::OK();
    }
    // Not admitted (strict capacity): the insert freed it, so read again
    // into a buffer of our own.
    s.PermitUncheckedError();
    doblix_block_bytes_loaded -= n;  // the read below counts it
    return ReadBlock(ro, b, false, holder);
  }
  // The block parsed above stays where it is: the holder now owns its bytes.
  holder->owned = std::move(buf);
  return Status::OK();
}

DoblixStepClock::DoblixStepClock()
    : timed_(GetPerfLevel() >= PerfLevel::kEnableTimeExceptForMutex) {
  Restart();
}

void DoblixStepClock::Restart() {
  if (timed_) t0_ = std::chrono::steady_clock::now();
}

void DoblixStepClock::Lap(uint64_t* into) {
  if (!timed_) return;
  auto t1 = std::chrono::steady_clock::now();
  *into += static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0_).count());
  t0_ = t1;
}

Status DoblixTableReader::Seek(const ReadOptions& ro, const Slice& ikey, bool fill_cache,
                               size_t* block, uint32_t* index, DoblixBlockHolder* holder) {
  DoblixStepClock clock;
  doblix_step_nanos.model_lookups += clock.timed() ? 1 : 0;
  if (model_.kind == DoblixModelKind::kPlr) {
    bool found = false;
    const uint64_t x = model_.ChunkOf(ExtractUserKey(ikey));
    Status s = SeekPlr(ro, ikey, x, fill_cache, block, index, holder, &clock, &found);
    if (!s.ok() || found) return s;
    model_misses.fetch_add(1, std::memory_order_relaxed);
    clock.Restart();
  }
  const DoblixPlace place = model_.Locate(ExtractUserKey(ikey));
  clock.Lap(&doblix_step_nanos.s_block);
  const size_t b = place.block;
  Status s = ReadBlock(ro, b, fill_cache, holder);
  if (!s.ok()) return s;
  doblix_step_nanos.blocks_loaded += clock.timed() ? 1 : 0;
  *block = b;
  if (place.where != DoblixPlace::kModel) {
    // Before or after every key of a node: its first block's start, or
    // past its last block's end.
    *index = place.where == DoblixPlace::kStart ? 0 : holder->block.size();
    return s;
  }
  clock.Restart();  // L-block is PerfContext's block_read_time
  uint32_t lo = 0, hi = 0;
  model_.SearchRange(b, place.x, holder->block.size(), &lo, &hi);
  clock.Lap(&doblix_step_nanos.s_block);
  bool outside = false;
  uint32_t i;
  {
    PERF_TIMER_GUARD(block_seek_nanos);
    i = holder->block.LowerBound(ikey, lo, hi, &outside);
    if (outside) {
      model_misses.fetch_add(1, std::memory_order_relaxed);
      i = holder->block.LowerBound(ikey);
    }
  }
  clock.Lap(&doblix_step_nanos.s_kv);
  // A run of keys sharing x that B_max split over several blocks: the
  // lower bound may lie inside a later block of the run (Locate started
  // at its first). Past the run, the next block's first entry is it.
  size_t at = b;
  while (i == holder->block.size() && at + 1 < model_.segments.size() &&
         model_.segments[at + 1].cont && model_.segments[at + 1].first_chunk == place.x) {
    s = ReadBlock(ro, ++at, fill_cache, holder);
    if (!s.ok()) return s;
    doblix_step_nanos.blocks_loaded += clock.timed() ? 1 : 0;
    i = holder->block.LowerBound(ikey);
  }
  *block = at;
  *index = i;
  return Status::OK();
}

Status DoblixTableReader::SeekPlr(const ReadOptions& ro, const Slice& ikey, uint64_t x,
                                  bool fill_cache, size_t* block, uint32_t* index,
                                  DoblixBlockHolder* holder, DoblixStepClock* clock,
                                  bool* found) {
  *found = false;
  uint64_t lo = 0, hi = 0;
  model_.plr->Range(x, &lo, &hi);
  const auto& first = model_.block_first_entry;
  const size_t j0 = model_.BlockOfPosition(lo);
  // hi may be the entry count (the lower bound past the last entry): the
  // last block then ends the window.
  const size_t j1 = model_.BlockOfPosition(std::min(hi, model_.entries - 1));
  clock->Lap(&doblix_step_nanos.s_block);  // the PLR: its window and its blocks
  // Fixed-size blocks do not follow the model: every block the window
  // spans is loaded before the search (Fig. 2a), the first into *holder.
  std::unique_ptr<DoblixBlockHolder[]> more;
  if (j1 > j0) more.reset(new DoblixBlockHolder[j1 - j0]);
  for (size_t j = j0; j <= j1; j++) {
    Status s = ReadBlock(ro, j, fill_cache, j == j0 ? holder : &more[j - j0 - 1]);
    if (!s.ok()) return s;
    doblix_step_nanos.blocks_loaded += clock->timed() ? 1 : 0;
  }
  clock->Restart();  // L-block is PerfContext's block_read_time
  for (size_t j = j0; j <= j1; j++) {
    const DoblixBlock& b = j == j0 ? holder->block : more[j - j0 - 1].block;
    const uint64_t f = first[j], n = b.size();
    // The window's part of block j: positions [max(lo, f), min(hi + 1, f + n)).
    const uint32_t llo = static_cast<uint32_t>(std::min(std::max(lo, f) - f, n));
    const uint32_t lhi =
        static_cast<uint32_t>(std::max<uint64_t>(std::min(hi + 1, f + n), f + llo) - f);
    bool outside = false;
    uint32_t i;
    {
      PERF_TIMER_GUARD(block_seek_nanos);
      i = b.LowerBound(ikey, llo, lhi, &outside);
    }
    if (outside) break;
    if (i < n || j == j1) {
      // Found, or past the window's last block (then the lower bound is the
      // next block's first entry, or past the table's end).
      clock->Lap(&doblix_step_nanos.s_kv);  // the last mile over the window
      if (j > j0) holder->MoveFrom(&more[j - j0 - 1]);
      *block = j;
      *index = i;
      *found = true;
      return Status::OK();
    }
  }
  clock->Lap(&doblix_step_nanos.s_kv);
  return Status::OK();
}

Status DoblixTableReader::Get(const ReadOptions& ro, const Slice& key, GetContext* get_context,
                              const SliceTransform* /*prefix_extractor*/, bool skip_filters) {
  if (model_.segments.empty()) return Status::OK();
  if (filter_ != nullptr && !skip_filters) {
    // The full filter first, as the block-based table: an absent key
    // costs neither the model nor a block.
    if (!filter_->MayMatch(ExtractUserKey(key))) {
      PERF_COUNTER_ADD(bloom_sst_miss_count, 1);
      RecordTick(ioptions_.stats, BLOOM_FILTER_USEFUL);
      return Status::OK();
    }
    PERF_COUNTER_ADD(bloom_sst_hit_count, 1);
    RecordTick(ioptions_.stats, BLOOM_FILTER_FULL_POSITIVE);
  }
  // The agent's latency signal: this table's part of each point lookup.
  struct AgentTimer {
    DoblixAgent* agent;
    std::chrono::steady_clock::time_point start;
    uint64_t bytes_before;
    ~AgentTimer() {
      if (agent != nullptr) {
        agent->RecordRead(static_cast<uint64_t>(
                              std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::steady_clock::now() - start)
                                  .count()),
                          doblix_block_bytes_loaded - bytes_before);
      }
    }
  } timer{options_.agent.get(),
          options_.agent != nullptr ? std::chrono::steady_clock::now()
                                    : std::chrono::steady_clock::time_point(),
          doblix_block_bytes_loaded};
  DoblixBlockHolder holder;
  size_t b = 0;
  uint32_t i = 0;
  Status s = Seek(ro, key, ro.fill_cache, &b, &i, &holder);
  IterKey buf;
  while (s.ok()) {
    if (i >= holder.block.size()) {
      // The key's versions continue in the next block (or it was absent
      // and larger than this block's keys).
      if (++b >= model_.segments.size()) break;
      s = ReadBlock(ro, b, ro.fill_cache, &holder);
      i = 0;
      continue;
    }
    ParsedInternalKey parsed;
    s = ParseInternalKey(holder.block.Key(i, &buf), &parsed, false);
    if (!s.ok()) break;
    bool matched = false;
    if (!get_context->SaveValue(parsed, holder.block.Value(i), &matched)) break;
    i++;
  }
  return s;
}

InternalIterator* DoblixTableReader::NewIterator(const ReadOptions& ro,
                                                 const SliceTransform* /*prefix_extractor*/,
                                                 Arena* arena, bool /*skip_filters*/,
                                                 TableReaderCaller caller,
                                                 size_t /*compaction_readahead_size*/,
                                                 bool /*allow_unprepared_value*/) {
  const bool fill_cache = ro.fill_cache && caller != TableReaderCaller::kCompaction;
  // Only users' range queries are the agent's reads (not compactions').
  DoblixAgent* agent =
      caller == TableReaderCaller::kUserIterator ? options_.agent.get() : nullptr;
  if (arena == nullptr) return new DoblixTableIterator(this, ro, fill_cache, agent);
  void* mem = arena->AllocateAligned(sizeof(DoblixTableIterator));
  return new (mem) DoblixTableIterator(this, ro, fill_cache, agent);
}

FragmentedRangeTombstoneIterator* DoblixTableReader::NewRangeTombstoneIterator(
    const ReadOptions& ro) {
  if (range_dels_ == nullptr) return nullptr;
  SequenceNumber snapshot =
      ro.snapshot != nullptr ? ro.snapshot->GetSequenceNumber() : kMaxSequenceNumber;
  return new FragmentedRangeTombstoneIterator(range_dels_, icmp_, snapshot, ro.timestamp);
}

uint64_t DoblixTableReader::ApproximateOffsetOf(const Slice& key, TableReaderCaller /*caller*/) {
  if (model_.segments.empty()) return 0;
  const DoblixPlace place = model_.Locate(ExtractUserKey(key));
  if (place.where == DoblixPlace::kEnd) {
    return place.block + 1 < model_.segments.size() ? model_.segments[place.block + 1].offset
                                                    : properties_->data_size;
  }
  return model_.segments[place.block].offset;
}

uint64_t DoblixTableReader::ApproximateSize(const Slice& start, const Slice& end,
                                            TableReaderCaller caller) {
  uint64_t a = ApproximateOffsetOf(start, caller), b = ApproximateOffsetOf(end, caller);
  return b > a ? b - a : 0;
}

Status DoblixTableReader::VerifyChecksum(const ReadOptions& ro, TableReaderCaller /*caller*/) {
  ReadOptions verify = ro;
  verify.verify_checksums = true;
  DoblixBlockHolder holder;
  for (size_t b = 0; b < model_.segments.size(); b++) {
    Status s = ReadBlock(verify, b, false, &holder);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

}  // namespace ROCKSDB_NAMESPACE

// Reads one DobLIX table: the model is loaded once at open (seed 002
// §III-D); a point lookup asks the model for its block and the range
// inside it, reads that one block, and searches only that range (§III-E).
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "db/range_tombstone_fragmenter.h"
#include "file/random_access_file_reader.h"
#include "plugin/doblix/doblix_block.h"
#include "plugin/doblix/doblix_model.h"
#include "plugin/doblix/doblix_table_options.h"
#include "rocksdb/cache.h"
#include "table/block_based/filter_policy_internal.h"
#include "table/format.h"
#include "table/table_reader.h"

namespace ROCKSDB_NAMESPACE {

// A data block pinned for as long as its user needs it: in the block cache,
// in a buffer of its own, or in the mmapped file.
class DoblixBlockHolder {
 public:
  DoblixBlockHolder() = default;
  DoblixBlockHolder(const DoblixBlockHolder&) = delete;
  DoblixBlockHolder& operator=(const DoblixBlockHolder&) = delete;
  ~DoblixBlockHolder() { Reset(); }
  void Reset();
  // Takes *other's block and its pin; *other is left empty.
  void MoveFrom(DoblixBlockHolder* other);

  DoblixBlock block;
  Cache* cache = nullptr;
  Cache::Handle* handle = nullptr;
  // A block read without the cache. Uninitialized on purpose: the read
  // overwrites all of it (zeroing 4 KiB first cost a memset per get).
  std::unique_ptr<char[]> owned;
};

// Lookup steps RocksDB's PerfContext has no counter for (Figures 1, 11),
// summed per thread while the thread's perf level times (>= kEnableTime
// ExceptForMutex). S-KV also goes into PerfContext's block_seek_nanos, as
// the block-based table's in-block seeks do.
struct DoblixStepNanos {
  uint64_t s_block = 0;  // model: FindBlock and the search range
  uint64_t s_kv = 0;     // last-mile search within the range
  uint64_t model_lookups = 0;
  // Data blocks the lookups' model steps loaded (read or found in the
  // block cache): one per lookup for DobLIX and TridentKV-style, every
  // block its error window spans for Bourbon-style (Fig. 2a), plus the
  // next block of a run split by B_max.
  uint64_t blocks_loaded = 0;
};
extern thread_local DoblixStepNanos doblix_step_nanos;

// Laps one lookup's steps into doblix_step_nanos, only while the thread's
// perf level times (a clock read costs ~20 ns a lap otherwise saved).
class DoblixStepClock {
 public:
  DoblixStepClock();
  bool timed() const { return timed_; }
  // Starts the next step now (the time since the last lap is not counted).
  void Restart();
  // Adds the time since the last lap or restart to *into.
  void Lap(uint64_t* into);

 private:
  const bool timed_;
  std::chrono::steady_clock::time_point t0_;
};
// Bytes of data blocks this thread has loaded (read, or found in the block
// cache). The agent's reads take its difference over their span, so each
// step logs the bytes a read loaded beside the read's latency: whether the
// latency follows the block sizes the agent chose.
extern thread_local uint64_t doblix_block_bytes_loaded;

class DoblixTableReader : public TableReader {
 public:
  static Status Open(const TableReaderOptions& tro, const DoblixTableOptions& options,
                     std::unique_ptr<RandomAccessFileReader>&& file, uint64_t file_size,
                     std::unique_ptr<TableReader>* table);

  InternalIterator* NewIterator(const ReadOptions& read_options,
                                const SliceTransform* prefix_extractor, Arena* arena,
                                bool skip_filters, TableReaderCaller caller,
                                size_t compaction_readahead_size = 0,
                                bool allow_unprepared_value = false) override;
  FragmentedRangeTombstoneIterator* NewRangeTombstoneIterator(
      const ReadOptions& read_options) override;
  uint64_t ApproximateOffsetOf(const Slice& key, TableReaderCaller caller) override;
  uint64_t ApproximateSize(const Slice& start, const Slice& end,
                           TableReaderCaller caller) override;
  void SetupForCompaction() override {}
  std::shared_ptr<const TableProperties> GetTableProperties() const override {
    return properties_;
  }
  size_t ApproximateMemoryUsage() const override { return model_.MemoryBytes(); }
  Status Get(const ReadOptions& read_options, const Slice& key, GetContext* get_context,
             const SliceTransform* prefix_extractor, bool skip_filters = false) override;
  Status VerifyChecksum(const ReadOptions& read_options, TableReaderCaller caller) override;

  // Positions *block and *index at the first entry >= `ikey` (an internal
  // key), reading only the block the model names unless the key lies past
  // it; *index == block size means past the table's end.
  Status Seek(const ReadOptions& ro, const Slice& ikey, bool fill_cache, size_t* block,
              uint32_t* index, DoblixBlockHolder* holder);
  Status ReadBlock(const ReadOptions& ro, size_t b, bool fill_cache, DoblixBlockHolder* holder);
  size_t NumBlocks() const { return model_.segments.size(); }
  const InternalKeyComparator& comparator() const { return icmp_; }

  // Lookups whose key fell outside the model's range (searched the whole
  // block instead): zero unless the model is wrong.
  static std::atomic<uint64_t> model_misses;

 private:
  DoblixTableReader(const TableReaderOptions& tro, const DoblixTableOptions& options,
                    std::unique_ptr<RandomAccessFileReader>&& file);
  // Version 4 on (doblix_format.h): the metaindex block against its
  // checksum, before RocksDB parses it, giving the properties block's
  // (kNoMetaChecksums for an older table); then the properties block
  // against that.
  static constexpr uint64_t kNoMetaChecksums = ~uint64_t{0};
  Status CheckMetaIndex(uint64_t file_size, uint64_t* properties_checksum);
  Status CheckProperties(uint64_t file_size, uint32_t checksum);
  Status LoadRangeDeletions(uint64_t file_size);
  // Reads the table's filter block when it has one and a filter policy is
  // set (as the block-based table, a table's filter is used only then).
  Status LoadFilter(uint64_t file_size);
  // Bourbon-style lookup: loads every block the PLR's error window spans
  // (Fig. 2a), then searches the window's part of each in turn. *found is
  // false when the window did not hold the key's lower bound (the caller
  // then locates it without the model).
  Status SeekPlr(const ReadOptions& ro, const Slice& ikey, uint64_t x, bool fill_cache,
                 size_t* block, uint32_t* index, DoblixBlockHolder* holder,
                 DoblixStepClock* clock, bool* found);

  const ImmutableOptions& ioptions_;
  const InternalKeyComparator icmp_;
  DoblixTableOptions options_;
  std::unique_ptr<RandomAccessFileReader> file_;
  std::shared_ptr<const TableProperties> properties_;
  DoblixModel model_;
  std::shared_ptr<FragmentedRangeTombstoneList> range_dels_;
  BlockContents filter_block_;
  std::unique_ptr<FilterBitsReader> filter_;
  std::string cache_key_prefix_;
};

}  // namespace ROCKSDB_NAMESPACE

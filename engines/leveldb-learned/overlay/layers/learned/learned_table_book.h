// What a learned table format's builders and readers report back (engines/
// leveldb-learned): build counters, the index bytes of every open table,
// and which tables this process built. Learned tables and SLR tables both
// report here, so neither needs the other's format object.
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_BOOK_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_BOOK_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>

namespace leveldb {

// Steady-clock nanoseconds, for the build and training timers.
inline uint64_t LearnedNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct LearnedTableStats {
  uint64_t tables_built = 0;
  uint64_t native_tables_built = 0;  // non-bytewise comparator: no mapping
  uint64_t build_failures = 0;
  uint64_t segments_built = 0;       // sum of BuildStats::segments
  uint64_t model_bytes_written = 0;
  uint64_t train_nanos = 0;
  uint64_t model_write_nanos = 0;
  uint64_t trainings = 0;            // models trained (RMI's sizing: up to 2 a table)
  uint64_t slr_block_models = 0;     // data blocks given an SLR model
  uint64_t slr_abandoned = 0;        // slr-ea models over budget: binary search

  void Add(const LearnedTableStats& s);
};

class LearnedTableBook {
 public:
  void AddBuilt(const LearnedTableStats& s);
  LearnedTableStats Stats() const;

  // A reader of table `number` holding `bytes` of index opened / closed. A
  // table may have two readers at once (the table cache's, and one opened
  // to measure it: index_memory.h), hence the count.
  void Register(uint64_t number, size_t bytes);
  void Unregister(uint64_t number);
  // Index bytes of every table open now, by number.
  std::map<uint64_t, size_t> OpenTableIndexBytes() const;

  // retrain: tables built by this process carry its configuration's model.
  void NoteBuiltHere(uint64_t number);
  bool BuiltHere(uint64_t number) const;

 private:
  struct OpenTable {
    size_t bytes = 0;
    int readers = 0;
  };
  mutable std::mutex mu_;
  LearnedTableStats stats_;
  std::map<uint64_t, OpenTable> open_;
  std::set<uint64_t> built_here_;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_BOOK_H_

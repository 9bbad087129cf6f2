// Per-thread lookup instrumentation: step timers, counters, the current
// lookup's context, and what table builders spent on models.
//
// Timers cost nothing unless SetTracing(true): each ScopedStep then reads
// the time-stamp counter twice (rdtsc on x86-64, steady_clock elsewhere)
// and adds the difference to this thread's LookupTrace. The adapter resets
// the trace, runs lookups, and turns it into the `breakdown` record
// (TicksToNanos converts). Steps, in lookup order:
//   find_files    Version::Get choosing the tables to probe (level search)
//   find_table    table cache lookup (opening the table on a miss)
//   load_index    bringing index/filter/model bytes in for this lookup
//   index_search  fence-pointer binary search or model + last mile
//   load_data     reading the data block or predicted byte range
//   search_data   finding the key in what was read
//   read_value    copying the value out
// Range lookups: seek (positioning a table iterator), scan (Next calls),
// segments_touched (model segments / blocks a scan crossed).
#ifndef STORAGE_LEVELDB_LAYERS_HOOKS_LOOKUP_TRACE_H_
#define STORAGE_LEVELDB_LAYERS_HOOKS_LOOKUP_TRACE_H_

#include <atomic>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#else
#include <chrono>
#endif

namespace leveldb {
namespace trace {

enum Step {
  kFindFiles,
  kFindTable,
  kLoadIndex,
  kIndexSearch,
  kLoadData,
  kSearchData,
  kReadValue,
  kSeek,
  kScan,
  kNumSteps
};
const char* StepName(int step);

struct LookupTrace {
  uint64_t ticks[kNumSteps];
  uint64_t calls[kNumSteps];
  uint64_t comparisons;       // key comparisons in index + data search
  uint64_t index_comparisons; // of which in the index (model last mile)
  uint64_t bytes_loaded;      // table bytes read by lookups
  uint64_t tables_probed;
  uint64_t segments_touched;  // model segments / blocks crossed by scans
  uint64_t level_fallbacks;   // level-model lookups LevelDB answered
  uint64_t level_model_hits;
};

// Where the current Version::Get is: set before each table probe so a
// table reader can use a level model's hint.
struct LookupContext {
  int level = -1;
  uint64_t file_number = 0;
  bool has_hint = false;
  uint64_t hint_file = 0;  // the table the hint is for
  uint64_t hint_lo = 0;    // entry positions within that table
  uint64_t hint_hi = 0;
  // Entries the user scan on this thread takes (0: not a scan of known
  // length, e.g. a compaction) and those it has returned so far: a table
  // iterator reads no more ahead than the scan still takes.
  uint64_t scan_entries = 0;
  uint64_t scan_returned = 0;
};

// Time table builders on this thread spent on models since the last read.
struct BuildCounters {
  uint64_t train_nanos = 0;
  uint64_t model_write_nanos = 0;
};

LookupTrace& ThisThread();
void ResetThisThread();
LookupContext& Context();
BuildCounters& ThisThreadBuild();

// Sets Context().scan_entries for one scan on this thread.
class ScopedScanLength {
 public:
  explicit ScopedScanLength(uint64_t entries) {
    Context().scan_entries = entries;
    Context().scan_returned = 0;
  }
  ~ScopedScanLength() { Context().scan_entries = Context().scan_returned = 0; }
  ScopedScanLength(const ScopedScanLength&) = delete;
  ScopedScanLength& operator=(const ScopedScanLength&) = delete;
};

// The scan of known length on this thread has returned one more entry.
inline void ScanReturned() { Context().scan_returned++; }

// Entries the scan of known length on this thread still takes (0 when
// it has all, or when no such scan runs: see scan_entries).
inline uint64_t ScanEntriesLeft() {
  const LookupContext& c = Context();
  return c.scan_entries > c.scan_returned ? c.scan_entries - c.scan_returned : 0;
}

extern std::atomic<bool> g_tracing;
inline bool Tracing() { return g_tracing.load(std::memory_order_relaxed); }
void SetTracing(bool on);

inline uint64_t Ticks() {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  return std::chrono::steady_clock::now().time_since_epoch().count();
#endif
}
// Nanoseconds per tick, measured once against steady_clock.
double NanosPerTick();
inline double TicksToNanos(uint64_t t) { return t * NanosPerTick(); }

class ScopedStep {
 public:
  explicit ScopedStep(Step s) : step_(s), t0_(Tracing() ? Ticks() : 0) {}
  ~ScopedStep() {
    if (t0_ != 0) {
      LookupTrace& t = ThisThread();
      t.ticks[step_] += Ticks() - t0_;
      t.calls[step_]++;
    }
  }
  ScopedStep(const ScopedStep&) = delete;
  ScopedStep& operator=(const ScopedStep&) = delete;

 private:
  const Step step_;
  const uint64_t t0_;
};

// Counters that cost an add only while tracing.
inline void Count(uint64_t LookupTrace::*field, uint64_t n = 1) {
  if (Tracing()) ThisThread().*field += n;
}

}  // namespace trace
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_HOOKS_LOOKUP_TRACE_H_

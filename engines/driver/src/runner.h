// One benchmark run: load a dataset into an engine, let it settle, run an
// operation stream, verify every answer, and log what was measured.
#ifndef LSMBENCH_RUNNER_H_
#define LSMBENCH_RUNNER_H_

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine.h"
#include "key_codec.h"
#include "ops.h"
#include "run_log.h"

namespace lsmbench {

struct RunSpec {
  std::string db_dir;
  std::vector<uint64_t> keys;  // sorted, distinct: what gets loaded
  bool shuffled_load = true;
  size_t value_bytes = 64;
  KeyCodec codec;  // how keys become engine keys (default be64)
  uint64_t seed = 1;
  bool full_compaction = false;  // settle: compact everything vs wait idle
  bool progress = true;
  // --phase: load and settle the keys (false: the database already holds
  // them, left by an earlier load), then run the operation stream.
  bool load = true;
  bool run = true;
  std::vector<Op> ops;
  // The differential workload: digest every answer into the check record,
  // and flush + settle every `settle_every` ops (0 = never) so writes made
  // during the run reach the tables and their indexes, not just the memtable.
  bool digest = false;
  uint64_t settle_every = 0;
  // Drop db_dir's pages from the page cache after open and the edge probes,
  // just before the run phase (an `evict` phase record says how many files).
  bool evict_before_run = false;
  // YCSB's maxexecutiontime: the run phase stops at the first op boundary
  // after this much of its own measured time (0 = no limit), and its records
  // count the ops done. A member of an interleaved run counts its own turns.
  uint64_t max_run_ns = 0;
};

struct RunResult {
  uint64_t verified = 0;
  uint64_t wrong = 0;
  std::string error;  // an engine error; empty when none
  // Wall time of the records written after the run phase (the engine's
  // breakdowns and statistics), outside every measured phase.
  uint64_t stats_ns = 0;
  // Ops of the run phase done, and whether max_run_ns stopped it first.
  uint64_t ops_done = 0;
  bool time_limited = false;
};

// Writes the phase, latency, breakdown, engine and check records (the
// caller writes `run` before and `end` after). The engine must be open.
RunResult Run(Engine* engine, const RunSpec& spec, RunLog* log);

// One database's part of a run: several databases of one process run the
// same operation stream taking turns (Interleave), so the host's noise,
// which moves over seconds, falls on each of them alike.
struct Member {
  Engine* engine;  // open, Interleaves()
  std::string db_dir;
  RunLog* log;
};

// Runs spec.ops (spec.load must be false: the databases are loaded) on every
// member, `batch_ops` operations at a time, each batch on every member in
// turn, the first turn rotating so each member is as often first as last.
// Each member's log gets the records Run writes, its latencies its own; the
// members' probes, evictions and the runner's wait come before any batch.
// A member past spec.max_run_ns skips its turns while the others go on.
// `err` is set, and the results are partial, when an engine errs.
std::vector<RunResult> Interleave(const std::vector<Member>& members, const RunSpec& spec,
                                  size_t batch_ops, std::string* err);

}  // namespace lsmbench

#endif  // LSMBENCH_RUNNER_H_

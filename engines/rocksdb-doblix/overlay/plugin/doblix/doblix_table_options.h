// Options of the DobLIX table factory and of the two learned baselines that
// share its file format (seed 002, Fig. 2 b-d). Settable by name through
// TableFactory::CreateFromString and an OPTIONS file
// ([TableOptions/DoblixTable "default"]).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rocksdb/cache.h"
#include "rocksdb/filter_policy.h"

namespace ROCKSDB_NAMESPACE {

class DoblixAgent;

struct DoblixTableOptions {
  static const char* kName() { return "DoblixTableOptions"; }

  // How data blocks are cut and which model indexes them:
  //   pla       dual-objective PLA (Algorithm 1): a block ends when the
  //             spline error would exceed `error` or the block would pass
  //             `max_block_size` bytes; one spline segment per block.
  //   pra       dual-objective PRA (Algorithms 2-3): blocks of at most
  //             `max_block_size` bytes, one least-squares line per block
  //             with its measured error E'.
  //   agent     the Q-learning tuning agent (Algorithm 4) picks pla/pra,
  //             `error` and `max_block_size` every 20 new tables.
  //   bourbon   Bourbon-style baseline: fixed-size blocks of
  //             `max_block_size` bytes, one greedy PLR (error `error`) over
  //             the whole table; a lookup may read several blocks.
  //   tridentkv TridentKV-style baseline: TridentKV's two-stage RMI over
  //             the whole table predicts a key's byte offset, and offset /
  //             `max_block_size` is its block, so one block is read
  //             whatever its size.
  std::string model = "pla";
  // E: the spline's maximum error in positions (pla, bourbon; the agent's
  // starting point).
  uint32_t error = 64;
  // B_max: the largest data block in bytes (one entry larger than it gets a
  // block of its own).
  uint32_t max_block_size = 4096;
  // nu in the agent's reward: 1 = latency only, 0 = index size only.
  double nu = 1.0;
  // Seed of the agent's exploration (replayable runs).
  uint64_t agent_seed = 1;
  // SSTables between two agent updates (the paper: 20).
  uint32_t agent_period = 20;
  // Leaves of the tridentkv-style RMI per table (TridentKV's own: 1000).
  uint32_t rmi_leaves = 1000;
  // A full filter over the table's user keys, as the block-based table
  // builds with the same option (e.g. "bloomfilter:10:false"); a point
  // lookup checks it before the model. Null: no filter is built or used.
  std::shared_ptr<const FilterPolicy> filter_policy;
  // Data blocks are cached here when set (the adapter passes the same LRU
  // cache as the block-based table gets).
  std::shared_ptr<Cache> block_cache;
  // model=agent: the factory's agent, shared by its builders and readers.
  std::shared_ptr<DoblixAgent> agent;
};

}  // namespace ROCKSDB_NAMESPACE

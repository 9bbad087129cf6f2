// YCSB 0.17 core workloads over a dataset's keys: YCSB chooses operation
// kinds and record numbers (workloads/ycsb), the dataset supplies the keys
// those record numbers stand for. The papers run YCSB mixes over their own
// key sets (8-, 16- and 24-byte integer keys), not over "user..." names.
//
// Record numbers below recordcount map to the loaded keys: through a seeded
// permutation for insertorder=hashed (popular records scattered over the key
// space, as YCSB's hashing scatters them), in key order for ordered. Keys the
// run inserts are held out of the load: a uniform sample inserted in random
// order (hashed), or the largest keys in ascending order (ordered: appends).
// A Holdout sizes and seeds that sample for a whole family of workloads, so
// every mix of a study starts from one load and inserts keys that load lacks.
#ifndef LSMBENCH_YCSB_STREAM_H_
#define LSMBENCH_YCSB_STREAM_H_

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ops.h"

namespace lsmbench {

struct YcsbStream {
  std::vector<uint64_t> load_keys;  // sorted: what the load phase writes
  std::vector<Op> ops;
  size_t value_bytes = 0;           // fieldcount * fieldlength
  uint64_t max_execution_seconds = 0;  // maxexecutiontime; 0: no limit
  nlohmann::json info;              // every effective property, for the run record
};

// Which keys the load leaves out for inserts. By default the workload's own
// insertproportion and the run's seed decide; a study whose mixes share one
// load gives every mix (and the load) the same share and seed.
struct Holdout {
  double share = -1;  // insert share the held-out keys are sized for; < 0: the workload's
  uint64_t seed = 0;  // seed of the sample (insertorder=hashed)
  bool seeded = false;
};

// `keys`: the dataset, sorted and distinct. recordcount and operationcount
// come from the dataset and `ops`; a spec or -p that sets them is an error.
bool MakeYcsbStream(const std::vector<uint64_t>& keys, const std::string& spec_path,
                    const std::vector<std::string>& overrides, uint64_t ops, uint64_t seed,
                    const Holdout& holdout, YcsbStream* out, std::string* err);

}  // namespace lsmbench

#endif  // LSMBENCH_YCSB_STREAM_H_

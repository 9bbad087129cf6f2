#include "ycsb_stream.h"

#include <algorithm>
#include <cmath>

#include "ycsb/core_workload.h"
#include "ycsb/properties.h"

namespace lsmbench {

bool MakeYcsbStream(const std::vector<uint64_t>& keys, const std::string& spec_path,
                    const std::vector<std::string>& overrides, uint64_t ops, uint64_t seed,
                    const Holdout& holdout, YcsbStream* out, std::string* err) {
  ycsb::Properties p;
  if (!p.LoadFile(spec_path, err)) return false;
  for (const std::string& o : overrides) {
    std::string name = o.substr(0, o.find('='));
    if (name == "recordcount" || name == "operationcount") {
      *err = "-p " + name + ": set by lsmbench (the dataset's keys, --ops), not by -p";
      return false;
    }
    if (!p.SetOverride(o, err)) return false;
  }

  // Hold out enough keys for the inserts YCSB will ask for: the expected
  // count plus six standard deviations of the binomial draw.
  double own_share = p.GetDouble("insertproportion", 0.0);
  double share = holdout.share < 0 ? own_share : holdout.share;
  if (own_share > share) {
    *err = spec_path + ": insertproportion " + std::to_string(own_share) +
           " exceeds --holdout-share " + std::to_string(share) +
           " (the load holds out too few keys for this workload's inserts)";
    return false;
  }
  double expected = share * ops;
  uint64_t held = share > 0 ? static_cast<uint64_t>(
                                  expected + 6 * std::sqrt(expected * (1 - share)) + 16)
                            : 0;
  if (held >= keys.size()) {
    *err = spec_path + ": insertproportion " + std::to_string(share) + " with --ops " +
           std::to_string(ops) + " needs " + std::to_string(held) +
           " held-out keys; the dataset has only " + std::to_string(keys.size());
    return false;
  }
  bool ordered = p.Get("insertorder", "hashed") == "ordered";
  std::vector<uint64_t> insert_keys;
  std::vector<uint64_t>& load = out->load_keys;
  if (ordered) {
    load.assign(keys.begin(), keys.end() - held);
    insert_keys.assign(keys.end() - held, keys.end());
  } else {
    std::vector<uint64_t> idx(keys.size());
    for (size_t i = 0; i < idx.size(); i++) idx[i] = i;
    Rng rng((holdout.seeded ? holdout.seed : seed) ^ 0x686f6c64ull);
    for (uint64_t i = 0; i < held; i++) std::swap(idx[i], idx[i + rng.Uniform(idx.size() - i)]);
    for (uint64_t i = 0; i < held; i++) insert_keys.push_back(keys[idx[i]]);
    std::vector<char> taken(keys.size(), 0);
    for (uint64_t i = 0; i < held; i++) taken[idx[i]] = 1;
    for (size_t i = 0; i < keys.size(); i++) {
      if (!taken[i]) load.push_back(keys[i]);
    }
  }

  uint64_t records = load.size();
  if (!p.Set("recordcount", std::to_string(records), "lsmbench (dataset)", err) ||
      !p.Set("operationcount", std::to_string(ops), "lsmbench (--ops)", err)) {
    return false;
  }
  std::unique_ptr<ycsb::CoreWorkload> w = ycsb::CoreWorkload::Create(p, seed, err);
  if (!w) {
    *err = spec_path + ": " + *err;
    return false;
  }

  // Record number -> index into `load`.
  std::vector<uint64_t> perm(records);
  for (uint64_t i = 0; i < records; i++) perm[i] = i;
  if (!ordered) Shuffle(&perm, seed ^ 0x7065726dull);

  out->ops.clear();
  out->ops.reserve(ops);
  for (uint64_t i = 0; i < ops; i++) {
    ycsb::Op y = w->NextTransaction();
    uint64_t key;
    if (y.keynum < records) {
      key = load[perm[y.keynum]];
    } else if (y.keynum - records < insert_keys.size()) {
      key = insert_keys[y.keynum - records];
    } else {
      *err = "YCSB asked for insert record " + std::to_string(y.keynum) + " beyond the " +
             std::to_string(insert_keys.size()) + " held-out keys";
      return false;
    }
    Op op{OpType::kGet, Expect::kUnknown, 0, key};
    switch (y.type) {
      case ycsb::Op::kRead:
        op.type = OpType::kGet;
        break;
      case ycsb::Op::kUpdate:
        op.type = OpType::kUpdate;
        break;
      case ycsb::Op::kInsert:
        op.type = OpType::kInsert;
        break;
      case ycsb::Op::kScan:
        op.type = OpType::kScan;
        op.scan_len = static_cast<uint32_t>(y.scan_len);
        break;
      case ycsb::Op::kReadModifyWrite:
        op.type = OpType::kReadModifyWrite;
        break;
    }
    out->ops.push_back(op);
  }
  out->value_bytes = static_cast<size_t>(w->value_size());
  out->max_execution_seconds = static_cast<uint64_t>(p.GetInt("maxexecutiontime", 0));
  nlohmann::json props = nlohmann::json::object();
  for (const auto& [k, v] : p.values()) props[k] = v;
  out->info = {{"spec", spec_path},
               {"properties", props},
               {"held_out_for_inserts", insert_keys.size()},
               {"holdout_share", share},
               {"holdout_seed", holdout.seeded ? holdout.seed : seed},
               {"insertorder", ordered ? "ordered" : "hashed"}};
  return true;
}

}  // namespace lsmbench

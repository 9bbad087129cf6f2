#include "ycsb_stream.h"

#include <algorithm>
#include <cmath>

#include "ycsb/core_workload.h"
#include "ycsb/properties.h"

namespace lsmbench {

namespace {

// The spec with the -p overrides over it.
bool LoadProperties(const std::string& spec_path, const std::vector<std::string>& overrides,
                    ycsb::Properties* p, std::string* err) {
  if (!p->LoadFile(spec_path, err)) return false;
  for (const std::string& o : overrides) {
    std::string name = o.substr(0, o.find('='));
    if (name == "recordcount" || name == "operationcount") {
      *err = "-p " + name + ": set by lsmbench (the dataset's keys, --ops), not by -p";
      return false;
    }
    if (!p->SetOverride(o, err)) return false;
  }
  return true;
}

// Enough keys held out for the inserts YCSB will ask for: the expected
// count plus six standard deviations of the binomial draw. *share is the
// insert share they are sized for.
bool HeldOutCount(const ycsb::Properties& p, const std::string& spec_path, const Holdout& holdout,
                  uint64_t ops, size_t dataset, double* share, uint64_t* held, std::string* err) {
  double own_share = p.GetDouble("insertproportion", 0.0);
  *share = holdout.share < 0 ? own_share : holdout.share;
  if (own_share > *share) {
    *err = spec_path + ": insertproportion " + std::to_string(own_share) +
           " exceeds --holdout-share " + std::to_string(*share) +
           " (the load holds out too few keys for this workload's inserts)";
    return false;
  }
  double expected = *share * ops;
  *held = *share > 0 ? static_cast<uint64_t>(expected + 6 * std::sqrt(expected * (1 - *share)) + 16)
                     : 0;
  if (*held >= dataset) {
    *err = spec_path + ": insertproportion " + std::to_string(*share) + " with --ops " +
           std::to_string(ops) + " needs " + std::to_string(*held) +
           " held-out keys; the dataset has only " + std::to_string(dataset);
    return false;
  }
  return true;
}

// The dataset's keys into those the load writes (*load, in key order) and
// the `held` ones the run inserts: the largest, ascending (ordered), or a
// uniform sample by `seed` in random order.
void SplitKeys(const std::vector<uint64_t>& keys, uint64_t held, bool ordered, uint64_t seed,
               std::vector<uint64_t>* load, std::vector<uint64_t>* insert_keys) {
  if (ordered) {
    load->assign(keys.begin(), keys.end() - held);
    insert_keys->assign(keys.end() - held, keys.end());
    return;
  }
  std::vector<uint64_t> idx(keys.size());
  for (size_t i = 0; i < idx.size(); i++) idx[i] = i;
  Rng rng(seed ^ 0x686f6c64ull);
  for (uint64_t i = 0; i < held; i++) std::swap(idx[i], idx[i + rng.Uniform(idx.size() - i)]);
  for (uint64_t i = 0; i < held; i++) insert_keys->push_back(keys[idx[i]]);
  std::vector<char> taken(keys.size(), 0);
  for (uint64_t i = 0; i < held; i++) taken[idx[i]] = 1;
  for (size_t i = 0; i < keys.size(); i++) {
    if (!taken[i]) load->push_back(keys[i]);
  }
}

// Record number -> index into the loaded keys: a permutation by `seed`
// (hashed), the identity (ordered).
std::vector<uint64_t> RecordOrder(uint64_t records, bool ordered, uint64_t seed) {
  std::vector<uint64_t> perm(records);
  for (uint64_t i = 0; i < records; i++) perm[i] = i;
  if (!ordered) Shuffle(&perm, seed ^ 0x7065726dull);
  return perm;
}

Op ToOp(const ycsb::Op& y, uint64_t key) {
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
  return op;
}

// `ops` transactions of `w`, each record number the key it stands for: a
// loaded key through `perm` below the record count, a held-out key above.
bool DrawOps(ycsb::CoreWorkload* w, const std::vector<uint64_t>& load,
             const std::vector<uint64_t>& perm, const std::vector<uint64_t>& insert_keys,
             uint64_t ops, std::vector<Op>* out, std::string* err) {
  const uint64_t records = load.size();
  out->clear();
  out->reserve(ops);
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
    out->push_back(ToOp(y, key));
  }
  return true;
}

}  // namespace

bool MakeYcsbStream(const std::vector<uint64_t>& keys, const std::string& spec_path,
                    const std::vector<std::string>& overrides, uint64_t ops, uint64_t seed,
                    const Holdout& holdout, YcsbStream* out, std::string* err) {
  ycsb::Properties p;
  if (!LoadProperties(spec_path, overrides, &p, err)) return false;
  double share;
  uint64_t held;
  if (!HeldOutCount(p, spec_path, holdout, ops, keys.size(), &share, &held, err)) return false;
  const bool ordered = p.Get("insertorder", "hashed") == "ordered";
  const uint64_t holdout_seed = holdout.seeded ? holdout.seed : seed;
  std::vector<uint64_t> insert_keys;
  SplitKeys(keys, held, ordered, holdout_seed, &out->load_keys, &insert_keys);

  const uint64_t records = out->load_keys.size();
  if (!p.Set("recordcount", std::to_string(records), "lsmbench (dataset)", err) ||
      !p.Set("operationcount", std::to_string(ops), "lsmbench (--ops)", err)) {
    return false;
  }
  std::unique_ptr<ycsb::CoreWorkload> w = ycsb::CoreWorkload::Create(p, seed, err);
  if (!w) {
    *err = spec_path + ": " + *err;
    return false;
  }
  if (!DrawOps(w.get(), out->load_keys, RecordOrder(records, ordered, seed), insert_keys, ops,
               &out->ops, err)) {
    return false;
  }
  out->value_bytes = static_cast<size_t>(w->value_size());
  out->max_execution_seconds = static_cast<uint64_t>(p.GetInt("maxexecutiontime", 0));
  nlohmann::json props = nlohmann::json::object();
  for (const auto& [k, v] : p.values()) props[k] = v;
  out->info = {{"spec", spec_path},
               {"properties", props},
               {"held_out_for_inserts", insert_keys.size()},
               {"holdout_share", share},
               {"holdout_seed", holdout_seed},
               {"insertorder", ordered ? "ordered" : "hashed"}};
  return true;
}

}  // namespace lsmbench

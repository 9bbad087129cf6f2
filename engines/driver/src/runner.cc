#include "runner.h"

#include "clock.h"
#include "histogram.h"
#include "progress.h"
#include "records.h"
#include "verifier.h"

namespace lsmbench {

namespace {

nlohmann::json Phase(const std::string& name, uint64_t ops, uint64_t nanos) {
  double secs = nanos / 1e9;
  return {{"phase", name},
          {"ops", ops},
          {"seconds", secs},
          {"ops_per_sec", secs > 0 ? ops / secs : 0.0}};
}

struct OpStats {
  Histogram all, found, absent;
  uint64_t engine_ns = 0;
};

}  // namespace

RunResult Run(Engine* engine, const RunSpec& spec, RunLog* log) {
  RunResult result;
  std::string err;

  // Load.
  std::vector<uint64_t> order = spec.keys;
  if (spec.shuffled_load) Shuffle(&order, spec.seed ^ 0x6c6f6164ull);
  Progress load_bar("load", order.size(), spec.progress);
  std::string value;
  char key[8];
  uint64_t t0 = NowNanos();
  for (uint64_t i = 0; i < order.size(); i++) {
    EncodeKey(order[i], key);
    MakeValue(order[i], 0, spec.value_bytes, &value);
    if (!engine->Put(std::string_view(key, 8), value, &err)) {
      result.error = "load: " + err;
      return result;
    }
    load_bar.Tick(i + 1);
  }
  load_bar.Done();
  log->Write("phase", Phase("load", order.size(), NowNanos() - t0));
  order.clear();
  order.shrink_to_fit();

  // Settle.
  t0 = NowNanos();
  if (!engine->Settle(spec.full_compaction, &err)) {
    result.error = "settle: " + err;
    return result;
  }
  log->Write("phase", Phase("settle", 0, NowNanos() - t0));

  // Edge probes, untimed, before the stream (which may write).
  Verifier verifier(&spec.keys, spec.value_bytes);
  std::vector<KV> scan_out;
  for (const Op& op : EdgeProbes(spec.keys)) {
    EncodeKey(op.key, key);
    bool ok, found = false;
    if (op.type == OpType::kGet) {
      ok = engine->Get(std::string_view(key, 8), &value, &found, &err);
      if (ok) verifier.CheckGet(op, found, value);
    } else {
      ok = engine->Scan(std::string_view(key, 8), op.scan_len, &scan_out, &err);
      if (ok) verifier.CheckScan(op, scan_out);
    }
    if (!ok) {
      result.error = std::string("probe: ") + OpName(op.type) + ": " + err;
      return result;
    }
  }
  uint64_t probes = verifier.verified();

  // Run.
  OpStats stats[3];  // indexed by OpType
  bool seen[3] = {false, false, false};
  Progress run_bar("run", spec.ops.size(), spec.progress);
  uint64_t run_start = NowNanos();
  for (size_t i = 0; i < spec.ops.size(); i++) {
    const Op& op = spec.ops[i];
    EncodeKey(op.key, key);
    std::string_view k(key, 8);
    OpStats& s = stats[static_cast<int>(op.type)];
    seen[static_cast<int>(op.type)] = true;
    uint64_t a, b;
    bool ok = true;
    switch (op.type) {
      case OpType::kGet: {
        bool found = false;
        a = NowNanos();
        ok = engine->Get(k, &value, &found, &err);
        b = NowNanos();
        if (ok) {
          verifier.CheckGet(op, found, value);
          (found ? s.found : s.absent).Record(b - a);
        }
        break;
      }
      case OpType::kPut: {
        MakeValue(op.key, verifier.NotePut(op.key), spec.value_bytes, &value);
        a = NowNanos();
        ok = engine->Put(k, value, &err);
        b = NowNanos();
        break;
      }
      case OpType::kScan: {
        a = NowNanos();
        ok = engine->Scan(k, op.scan_len, &scan_out, &err);
        b = NowNanos();
        if (ok) verifier.CheckScan(op, scan_out);
        break;
      }
    }
    if (!ok) {
      result.error = std::string("run: ") + OpName(op.type) + ": " + err;
      return result;
    }
    // Gets record into found/absent only; "all" is their merge, so the hot
    // path pays for one histogram update per op.
    if (op.type != OpType::kGet) s.all.Record(b - a);
    s.engine_ns += b - a;
    run_bar.Tick(i + 1);
  }
  uint64_t run_ns = NowNanos() - run_start;
  run_bar.Done();
  log->Write("phase", Phase("run", spec.ops.size(), run_ns));

  uint64_t engine_ns = 0;
  for (int t = 0; t < 3; t++) {
    if (!seen[t]) continue;
    OpType type = static_cast<OpType>(t);
    OpStats& s = stats[t];
    if (type == OpType::kGet) {
      s.all.Merge(s.found);
      s.all.Merge(s.absent);
    }
    log->Write("latency", RunLog::Latency(OpName(type), "all", s.all));
    if (type == OpType::kGet) {
      log->Write("latency", RunLog::Latency("get", "found", s.found));
      log->Write("latency", RunLog::Latency("get", "absent", s.absent));
    }
    engine_ns += s.engine_ns;
  }
  // What the harness itself costs per op (clock reads, verification,
  // histogram), measured as the run phase's time outside engine calls.
  uint64_t n = spec.ops.size();
  log->Write("breakdown",
             {{"scope", "driver"},
              {"ops", n},
              {"unit", "ns"},
              {"steps", {{"engine_call", engine_ns}, {"harness", run_ns - engine_ns}}},
              {"per_op", {{"engine_call", n ? double(engine_ns) / n : 0.0},
                          {"harness", n ? double(run_ns - engine_ns) / n : 0.0}}}});
  log->Write("engine", engine->Stats());
  nlohmann::json check = verifier.ToJson();
  check["edge_probes"] = probes;
  log->Write("check", check);
  result.verified = verifier.verified();
  result.wrong = verifier.wrong();
  return result;
}

}  // namespace lsmbench

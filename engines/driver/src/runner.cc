#include "runner.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "answer_digest.h"
#include "clock.h"
#include "histogram.h"
#include "page_cache.h"
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
  bool seen = false;
};

// Executes one operation and checks its answer. Returns false on an engine
// error (a wrong answer is the verifier's business, not an error here).
class Executor {
 public:
  Executor(Engine* engine, const RunSpec& spec, Verifier* verifier, AnswerDigest* digest)
      : engine_(engine),
        spec_(spec),
        verifier_(verifier),
        digest_(digest) {}

  // Times the engine calls of `op` into *nanos; *found for gets.
  bool Do(const Op& op, uint64_t* nanos, bool* found, std::string* err) {
    spec_.codec.Encode(op.key, &key_);
    std::string_view k(key_);
    uint64_t a, b;
    bool ok = true;
    *found = false;
    switch (op.type) {
      case OpType::kGet:
        a = NowNanos();
        ok = engine_->Get(k, &value_, found, err);
        b = NowNanos();
        if (ok) verifier_->CheckGet(op, *found, value_);
        if (ok && digest_ != nullptr) digest_->Get(*found, value_);
        break;
      case OpType::kDelete:
        verifier_->NoteDelete(op.key);
        a = NowNanos();
        ok = engine_->Delete(k, err);
        b = NowNanos();
        break;
      case OpType::kUpdate:
      case OpType::kInsert:
        MakeValue(op.key, verifier_->NotePut(op.key), spec_.value_bytes, &value_);
        a = NowNanos();
        ok = engine_->Put(k, value_, err);
        b = NowNanos();
        break;
      case OpType::kScan:
        a = NowNanos();
        ok = engine_->Scan(k, op.scan_len, &scan_, err);
        b = NowNanos();
        if (ok) verifier_->CheckScan(op, scan_);
        if (ok && digest_ != nullptr) digest_->Scan(scan_);
        break;
      case OpType::kReadModifyWrite: {
        a = NowNanos();
        ok = engine_->Get(k, &value_, found, err);
        uint64_t mid = NowNanos();
        if (ok) verifier_->CheckGet(op, *found, value_);
        if (ok && digest_ != nullptr) digest_->Get(*found, value_);
        MakeValue(op.key, verifier_->NotePut(op.key), spec_.value_bytes, &value_);
        uint64_t resume = NowNanos();
        ok = ok && engine_->Put(k, value_, err);
        b = NowNanos() - (resume - mid);  // the check between is not the engine's
        break;
      }
    }
    *nanos = b - a;
    return ok;
  }

  bool Load(uint64_t k, std::string* err) {
    spec_.codec.Encode(k, &key_);
    MakeValue(k, 0, spec_.value_bytes, &value_);
    return engine_->Put(key_, value_, err);
  }

 private:
  Engine* engine_;
  const RunSpec& spec_;
  Verifier* verifier_;
  AnswerDigest* digest_;  // null unless the run digests its answers
  std::string key_, value_;
  std::vector<KV> scan_;
};

// LSMBENCH_READY_FILE (set by the cgroup runner): create it, and go on once
// the runner has removed it. Unset: nothing to wait for.
bool WaitForRunner(std::string* err) {
  const char* path = std::getenv("LSMBENCH_READY_FILE");
  if (path == nullptr || *path == '\0') return true;
  { std::ofstream(path) << "open done\n"; }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(10);
  while (std::filesystem::exists(path)) {
    if (std::chrono::steady_clock::now() > deadline) {
      *err = std::string(path) + " still there after 10 minutes: the runner did not set the limit";
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// Loads every key (in the load order) and settles: a `load` and a `settle`
// phase record.
bool LoadAndSettle(Engine* engine, Executor* exec, const RunSpec& spec, RunLog* log,
                   std::string* err) {
  std::vector<uint64_t> order = spec.keys;
  if (spec.shuffled_load) Shuffle(&order, spec.seed ^ 0x6c6f6164ull);
  Progress load_bar("load", order.size(), spec.progress);
  uint64_t t0 = NowNanos();
  for (uint64_t i = 0; i < order.size(); i++) {
    if (!exec->Load(order[i], err)) {
      *err = "load: " + *err;
      return false;
    }
    load_bar.Tick(i + 1);
  }
  load_bar.Done();
  log->Write("phase", Phase("load", order.size(), NowNanos() - t0));
  order.clear();
  order.shrink_to_fit();

  t0 = NowNanos();
  if (!engine->Settle(spec.full_compaction, err)) {
    *err = "settle: " + *err;
    return false;
  }
  log->Write("phase", Phase("settle", 0, NowNanos() - t0));
  return true;
}

// Edge probes, untimed, before the stream (which may write).
bool ProbeEdges(Executor* exec, const RunSpec& spec, std::string* err) {
  uint64_t nanos;
  bool found;
  for (const Op& op : EdgeProbes(spec.keys)) {
    if (!exec->Do(op, &nanos, &found, err)) {
      *err = std::string("probe: ") + OpName(op.type) + ": " + *err;
      return false;
    }
  }
  return true;
}

// The measured phase: every op timed into its type's histograms; settles
// the stream asks for (the differential stream's) are excluded from run_ns.
bool RunStream(Engine* engine, Executor* exec, const RunSpec& spec, OpStats* stats,
               uint64_t* run_ns, std::string* err) {
  uint64_t nanos;
  bool found;
  Progress run_bar("run", spec.ops.size(), spec.progress);
  uint64_t run_start = NowNanos(), settle_ns = 0;
  for (size_t i = 0; i < spec.ops.size(); i++) {
    if (spec.settle_every > 0 && i > 0 && i % spec.settle_every == 0) {
      uint64_t s0 = NowNanos();
      if (!engine->Settle(false, err)) {
        *err = "settle during run: " + *err;
        return false;
      }
      settle_ns += NowNanos() - s0;
    }
    const Op& op = spec.ops[i];
    if (!exec->Do(op, &nanos, &found, err)) {
      *err = std::string("run: ") + OpName(op.type) + ": " + *err;
      return false;
    }
    OpStats& s = stats[static_cast<int>(op.type)];
    s.seen = true;
    s.engine_ns += nanos;
    // Gets record into found/absent only; "all" is their merge, so the hot
    // path pays for one histogram update per op.
    if (op.type == OpType::kGet) {
      (found ? s.found : s.absent).Record(nanos);
    } else {
      s.all.Record(nanos);
    }
    run_bar.Tick(i + 1);
  }
  *run_ns = NowNanos() - run_start - settle_ns;
  run_bar.Done();
  return true;
}

// The latency records of every op type seen, and the driver's own share of
// the run phase (its time outside engine calls).
void WriteLatencies(OpStats* stats, uint64_t run_ns, uint64_t n, RunLog* log) {
  uint64_t engine_ns = 0;
  for (int t = 0; t < kOpTypes; t++) {
    OpStats& s = stats[t];
    if (!s.seen) continue;
    OpType type = static_cast<OpType>(t);
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
  log->Write("breakdown",
             {{"scope", "driver"},
              {"ops", n},
              {"unit", "ns"},
              {"steps", {{"engine_call", engine_ns}, {"harness", run_ns - engine_ns}}},
              {"per_op", {{"engine_call", n ? double(engine_ns) / n : 0.0},
                          {"harness", n ? double(run_ns - engine_ns) / n : 0.0}}}});
}

}  // namespace

RunResult Run(Engine* engine, const RunSpec& spec, RunLog* log) {
  RunResult result;
  std::string err;
  Verifier verifier(&spec.keys, spec.value_bytes, spec.codec);
  AnswerDigest digest;
  Executor exec(engine, spec, &verifier, spec.digest ? &digest : nullptr);

  // Load and settle, unless the database already holds the keys.
  if (spec.load && !LoadAndSettle(engine, &exec, spec, log, &err)) {
    result.error = err;
    return result;
  }
  if (!ProbeEdges(&exec, spec, &err)) {
    result.error = err;
    return result;
  }
  uint64_t probes = verifier.verified();

  if (spec.evict_before_run) {
    uint64_t t0 = NowNanos(), files = 0;
    if (!EvictPageCache(spec.db_dir, &files, &err)) {
      result.error = "evict: " + err;
      return result;
    }
    log->Write("phase", Phase("evict", files, NowNanos() - t0));
  }

  // A run whose memory limit depends on the process's own memory
  // (hardware/cgroup_run.py --cache-after-open): say the open is done, then
  // wait while the runner measures this process and sets the limit.
  if (!spec.load && !WaitForRunner(&err)) {
    result.error = "memory limit after open: " + err;
    return result;
  }

  OpStats stats[kOpTypes];
  uint64_t run_ns = 0;
  if (!RunStream(engine, &exec, spec, stats, &run_ns, &err)) {
    result.error = err;
    return result;
  }
  log->Write("phase", Phase("run", spec.ops.size(), run_ns));
  WriteLatencies(stats, run_ns, spec.ops.size(), log);

  uint64_t stats_start = NowNanos();
  for (nlohmann::json& b : engine->Breakdowns()) log->Write("breakdown", std::move(b));
  log->Write("engine", engine->Stats());
  result.stats_ns = NowNanos() - stats_start;
  nlohmann::json check = verifier.ToJson();
  check["edge_probes"] = probes;
  if (spec.digest) {
    check["answers_digest"] = digest.Hex();
    check["answers_digested"] = digest.answers();
  }
  log->Write("check", check);
  result.verified = verifier.verified();
  result.wrong = verifier.wrong();
  return result;
}

}  // namespace lsmbench

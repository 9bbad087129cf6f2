#include "runner.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
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

// The measured phase, ops [begin, end) of it: every op timed into its
// type's histograms; settles the stream asks for (the differential
// stream's) are excluded from *run_ns, which this adds to, as *done adds
// the ops done. With spec.max_run_ns, it stops after the first op that
// takes *run_ns to the limit and sets *limited.
bool RunStream(Engine* engine, Executor* exec, const RunSpec& spec, size_t begin, size_t end,
               OpStats* stats, uint64_t* run_ns, uint64_t* done, bool* limited, Progress* bar,
               std::string* err) {
  uint64_t nanos;
  bool found;
  uint64_t run_start = NowNanos(), settle_ns = 0;
  for (size_t i = begin; i < end && !*limited; i++) {
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
    if (bar != nullptr) bar->Tick(i + 1);
    ++*done;
    // One clock read an op, only in a run with a limit.
    if (spec.max_run_ns > 0 && *run_ns + (NowNanos() - run_start - settle_ns) >= spec.max_run_ns) {
      *limited = true;
    }
  }
  *run_ns += NowNanos() - run_start - settle_ns;
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

// One database's run in three steps, so several can take turns (Interleave).
class Session {
 public:
  Session(Engine* engine, const RunSpec& spec, std::string db_dir, RunLog* log)
      : engine_(engine),
        spec_(spec),
        db_dir_(std::move(db_dir)),
        log_(log),
        verifier_(&spec.keys, spec.value_bytes, spec.codec),
        exec_(engine, spec, &verifier_, spec.digest ? &digest_ : nullptr) {}

  // Load and settle (unless the database already holds the keys), the edge
  // probes, and the eviction the spec asks for.
  bool Start(std::string* err) {
    if (spec_.load && !LoadAndSettle(engine_, &exec_, spec_, log_, err)) return false;
    if (!ProbeEdges(&exec_, spec_, err)) return false;
    probes_ = verifier_.verified();
    if (spec_.evict_before_run) {
      uint64_t t0 = NowNanos(), files = 0;
      if (!EvictPageCache(db_dir_, &files, err)) {
        *err = "evict: " + *err;
        return false;
      }
      log_->Write("phase", Phase("evict", files, NowNanos() - t0));
    }
    return true;
  }

  // Ops [begin, end) of the stream; none once the time limit stopped it.
  bool Step(size_t begin, size_t end, Progress* bar, std::string* err) {
    return RunStream(engine_, &exec_, spec_, begin, end, stats_, &run_ns_, &done_, &limited_, bar, err);
  }
  bool limited() const { return limited_; }

  // The run phase's records, the engine's and the check: of the ops done.
  RunResult Finish() {
    RunResult result;
    nlohmann::json phase = Phase("run", done_, run_ns_);
    if (spec_.max_run_ns > 0) {
      phase["ops_planned"] = spec_.ops.size();
      phase["time_limit_seconds"] = spec_.max_run_ns / 1e9;
      phase["time_limited"] = limited_;
    }
    log_->Write("phase", phase);
    WriteLatencies(stats_, run_ns_, done_, log_);
    uint64_t stats_start = NowNanos();
    for (nlohmann::json& b : engine_->Breakdowns()) log_->Write("breakdown", std::move(b));
    log_->Write("engine", engine_->Stats());
    result.stats_ns = NowNanos() - stats_start;
    nlohmann::json check = verifier_.ToJson();
    check["edge_probes"] = probes_;
    if (spec_.digest) {
      check["answers_digest"] = digest_.Hex();
      check["answers_digested"] = digest_.answers();
    }
    log_->Write("check", check);
    result.verified = verifier_.verified();
    result.wrong = verifier_.wrong();
    result.ops_done = done_;
    result.time_limited = limited_;
    return result;
  }

 private:
  Engine* engine_;
  const RunSpec& spec_;
  const std::string db_dir_;
  RunLog* log_;
  Verifier verifier_;
  AnswerDigest digest_;
  Executor exec_;
  OpStats stats_[kOpTypes];
  uint64_t run_ns_ = 0, probes_ = 0, done_ = 0;
  bool limited_ = false;
};

}  // namespace

RunResult Run(Engine* engine, const RunSpec& spec, RunLog* log) {
  RunResult result;
  std::string err;
  Session session(engine, spec, spec.db_dir, log);
  if (!session.Start(&err)) {
    result.error = err;
    return result;
  }
  // A run whose memory limit depends on the process's own memory
  // (hardware/cgroup_run.py --cache-after-open): say the open is done, then
  // wait while the runner measures this process and sets the limit.
  if (!spec.load && !WaitForRunner(&err)) {
    result.error = "memory limit after open: " + err;
    return result;
  }
  Progress bar("run", spec.ops.size(), spec.progress);
  if (!session.Step(0, spec.ops.size(), &bar, &err)) {
    result.error = err;
    return result;
  }
  bar.Done();
  return session.Finish();
}

std::vector<RunResult> Interleave(const std::vector<Member>& members, const RunSpec& spec,
                                  size_t batch_ops, std::string* err) {
  std::vector<RunResult> results(members.size());
  auto fail = [&](size_t k, const std::string& what) {
    *err = members[k].db_dir + ": " + what;
    results[k].error = what;
    return results;
  };
  if (spec.load) {
    *err = "interleaved runs start from loaded databases (--phase run)";
    return results;
  }
  const bool writes = std::any_of(spec.ops.begin(), spec.ops.end(), [](const Op& op) {
    return op.type != OpType::kGet && op.type != OpType::kScan;
  });
  for (size_t k = 0; k < members.size(); k++) {
    if (!members[k].engine->Interleaves()) return fail(k, members[k].engine->Name() + " does not interleave");
    if (writes && members[k].engine->BackgroundJobs() < 0) {
      return fail(k, members[k].engine->Name() + " cannot tell its flushes and compactions, so its "
                     "writing runs do not interleave");
    }
  }
  std::vector<std::unique_ptr<Session>> sessions;
  for (size_t k = 0; k < members.size(); k++) {
    sessions.push_back(std::make_unique<Session>(members[k].engine, spec, members[k].db_dir, members[k].log));
    members[k].engine->Resume();
    bool started = sessions[k]->Start(err);
    members[k].engine->Pause();
    if (!started) return fail(k, *err);
  }
  if (!WaitForRunner(err)) {
    *err = "memory limit after open: " + *err;
    return results;
  }
  const size_t n = spec.ops.size(), k_members = members.size();
  if (batch_ops == 0) batch_ops = 1;
  Progress bar("run", n, spec.progress);
  auto all_limited = [&] {
    return std::all_of(sessions.begin(), sessions.end(), [](const auto& s) { return s->limited(); });
  };
  for (size_t begin = 0, turn = 0; begin < n && !all_limited(); begin += batch_ops, turn++) {
    const size_t end = std::min(n, begin + batch_ops);
    for (size_t j = 0; j < k_members; j++) {
      const size_t k = (turn + j) % k_members;
      if (sessions[k]->limited()) continue;  // past its time: the others go on
      members[k].engine->Resume();
      bool ok = sessions[k]->Step(begin, end, nullptr, err);
      members[k].engine->Pause();
      if (!ok) return fail(k, *err);
    }
    bar.Tick(end);
  }
  bar.Done();
  // A writing run interleaves only while its writes stay in the memtable:
  // a flush or compaction would have run in the other members' turns.
  for (size_t k = 0; writes && k < k_members; k++) {
    if (int64_t jobs = members[k].engine->BackgroundJobs(); jobs != 0) {
      return fail(k, std::to_string(jobs) + " flushes or compactions began during an interleaved run "
                     "that writes (its writes outgrew the memtable): run it alone");
    }
  }
  for (size_t k = 0; k < k_members; k++) {
    members[k].engine->Resume();
    results[k] = sessions[k]->Finish();
    members[k].engine->Pause();
  }
  return results;
}

}  // namespace lsmbench

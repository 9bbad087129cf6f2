// lsmbench: load a dataset into one engine, run an operation stream, verify
// every answer and write a JSON-lines run log. Built once per engine.
//
//   lsmbench --db /tmp/db --dataset keys_uint64 --ops 100000 \
//       -o block_size=4096 --log run.jsonl
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "workloads/sosd/sosd_format.h"
#include "clock.h"
#include "engine.h"
#include "ops.h"
#include "run_log.h"
#include "runner.h"
#include "ycsb_stream.h"

namespace {

int Fail(const std::string& msg) {
  std::fprintf(stderr, "error: %s\n", msg.c_str());
  return 2;
}

bool ReadJsonFile(const std::string& path, nlohmann::json* out, std::string* err) {
  std::ifstream in(path);
  if (!in) {
    *err = path + ": cannot open";
    return false;
  }
  try {
    *out = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    *err = path + ": not valid JSON (" + e.what() + ")";
    return false;
  }
  return true;
}

// "key=value" items into a JSON object of strings.
bool KeyValues(const std::vector<std::string>& items, const std::string& what,
               nlohmann::json* out, std::string* err) {
  *out = nlohmann::json::object();
  for (const std::string& item : items) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      *err = what + " '" + item + "': expected key=value";
      return false;
    }
    (*out)[item.substr(0, eq)] = item.substr(eq + 1);
  }
  return true;
}

// Wall seconds of the driver's stages, each from the end of the one before
// (the `end` record's driver_seconds): where a run's time outside its
// measured phases goes.
class Stages {
 public:
  Stages() : start_(lsmbench::NowNanos()), mark_(start_) {}
  void Mark(const char* name, uint64_t minus_ns = 0) {
    uint64_t now = lsmbench::NowNanos();
    seconds_[name] = (now - mark_ - minus_ns) / 1e9;
    mark_ = now;
  }
  void Add(const char* name, uint64_t ns) { seconds_[name] = ns / 1e9; }
  nlohmann::json Total() {
    seconds_["total"] = (lsmbench::NowNanos() - start_) / 1e9;
    return seconds_;
  }

 private:
  uint64_t start_, mark_;
  nlohmann::json seconds_ = nlohmann::json::object();
};

// Every flag of the command line, as parsed.
struct Args {
  std::string db_dir, dataset, dataset_manifest, build_id_file, log_path;
  std::string load_order = "shuffled", workload = "point", settle = "wait";
  std::string progress = "auto", key_encoding = "be64", key_lengths, ycsb_spec, phase = "all";
  uint64_t ops_count = 100000, seed = 1, settle_every = 0, max_execution_time = 0;
  size_t value_bytes = 64;
  double negative_share = 0.0;
  lsmbench::Holdout holdout;
  std::vector<std::string> engine_opts, meta_items, attach_items, ycsb_props;
  bool list_options = false, keep_db = false, evict_before_run = false;
  std::string interleave_file;
  size_t interleave_batch = 10;  // paper/README.md, "Interleaved runs"
};

// One flat list of flags with their help: a longer function, kept whole so
// the command line reads in one place.
void AddOptions(CLI::App* app, Args* a) {
  app->add_option("--db", a->db_dir, "database directory (emptied first)");
  app->add_option("--dataset", a->dataset, "SOSD key file (_uint32 or _uint64)");
  app->add_option("--dataset-manifest", a->dataset_manifest,
                  "JSON manifest of the dataset, copied into the run record");
  app->add_option("--load-order", a->load_order)->check(CLI::IsMember({"sorted", "shuffled"}));
  app->add_option("--value-bytes", a->value_bytes)->check(CLI::Range(1, 1 << 20));
  app->add_option("--workload", a->workload,
                  "point: lookups over the dataset; ycsb: a YCSB core workload; diff: the "
                  "differential stream (writes, deletes, gets, scans; answers digested)")
      ->check(CLI::IsMember({"point", "ycsb", "diff"}));
  app->add_option("--settle-every", a->settle_every,
                  "--workload diff: flush and settle every N ops (default: 4 times per run)");
  app->add_option("--spec", a->ycsb_spec, "YCSB workload property file (--workload ycsb)");
  app->add_option("-p", a->ycsb_props, "YCSB property override key=value (repeatable)");
  app->add_option("--holdout-share", a->holdout.share,
                  "--workload ycsb: hold out of the load the keys a workload with this "
                  "insertproportion inserts in --ops operations (default: this workload's own)")
      ->check(CLI::Range(0.0, 1.0));
  app->add_option("--holdout-seed", a->holdout.seed,
                  "--workload ycsb: seed of the held-out sample (default: --seed); a load and "
                  "every run that starts from it pass the same");
  app->add_option("--key-encoding", a->key_encoding,
                  "be64, be64_padN, decimalN, decimal_var or ycsb_user (src/key_codec.h)");
  app->add_option("--key-lengths", a->key_lengths,
                  "decimal_var: the dataset's per-key widths (SOSD _uint32 file, one per key)");
  app->add_option("--ops", a->ops_count, "operations in the run phase");
  app->add_option("--max-execution-time", a->max_execution_time,
                  "--workload point: stop the run phase after this many seconds of it, at an op "
                  "boundary (YCSB's maxexecutiontime; a YCSB workload takes -p maxexecutiontime=N)");
  app->add_option("--negative-share", a->negative_share, "share of absent-key lookups")
      ->check(CLI::Range(0.0, 1.0));
  app->add_option("--seed", a->seed);
  app->add_option("--settle", a->settle, "after load: wait for compactions, or compact all")
      ->check(CLI::IsMember({"wait", "full"}));
  app->add_option("-o,--option", a->engine_opts, "engine option key=value (repeatable)");
  app->add_option("--build-id", a->build_id_file, "build id JSON of this binary's engine");
  app->add_option("--meta", a->meta_items, "key=value copied into the run record");
  app->add_option("--attach", a->attach_items,
                  "name=FILE: a JSON file (fingerprint, device profile) copied into the run record");
  app->add_option("--log", a->log_path, "JSON-lines run log to write");
  app->add_option("--progress", a->progress)->check(CLI::IsMember({"auto", "always", "never"}));
  app->add_flag("--keep-db", a->keep_db, "leave the database on disk after the run");
  app->add_flag("--evict-before-run", a->evict_before_run,
                "drop the database's pages from the page cache after open, just before the "
                "run phase, so it starts cold whatever open read (an `evict` phase record)");
  app->add_option("--phase", a->phase,
                  "all: load, settle and run; load: load and settle, keep the database; "
                  "run: run on the database a --phase load left (same dataset, order, seed)")
      ->check(CLI::IsMember({"all", "load", "run"}));
  app->add_flag("--list-options", a->list_options, "print the engine's options and exit");
  app->add_option("--interleave", a->interleave_file,
                  "JSON {\"members\": [{\"db\", \"log\", \"options\": [k=v], \"meta\": [k=v], "
                  "\"attach\": [name=FILE]}, ...]}: run the same stream on several loaded databases "
                  "of this engine in one process, taking turns every --interleave-batch ops, one log "
                  "each (--phase run; -o, --meta and --attach apply to every member, its own after)");
  app->add_option("--interleave-batch", a->interleave_batch, "--interleave: ops a turn")
      ->check(CLI::Range(1, 1 << 30));
}

// The members of an --interleave file, each as the flags its own run
// would have: the common flags, then the member's db, log, options, meta
// and attachments.
bool ReadMembers(const Args& common, std::vector<Args>* out, std::string* err) {
  nlohmann::json doc;
  if (!ReadJsonFile(common.interleave_file, &doc, err)) return false;
  auto bad = [&](const std::string& field, const std::string& expected) {
    *err = common.interleave_file + ": " + field + ": " + expected + " expected";
    return false;
  };
  if (!doc.is_object() || !doc.contains("members")) return bad("members", "an object with a members list");
  for (const auto& [key, v] : doc.items()) {
    if (key != "members") return bad(key, "only members");
  }
  const nlohmann::json& members = doc["members"];
  if (!members.is_array() || members.size() < 2) return bad("members", "a list of two or more members");
  for (size_t i = 0; i < members.size(); i++) {
    const nlohmann::json& m = members[i];
    const std::string where = "members[" + std::to_string(i) + "]";
    if (!m.is_object()) return bad(where, "an object");
    Args a = common;
    for (const auto& [key, v] : m.items()) {
      if (key == "db" || key == "log") {
        if (!v.is_string() || v.get<std::string>().empty()) return bad(where + "." + key, "a path");
        (key == "db" ? a.db_dir : a.log_path) = v.get<std::string>();
      } else if (key == "options" || key == "meta" || key == "attach") {
        std::vector<std::string>& items =
            key == "options" ? a.engine_opts : key == "meta" ? a.meta_items : a.attach_items;
        if (!v.is_array()) return bad(where + "." + key, "a list of strings");
        for (const nlohmann::json& item : v) {
          if (!item.is_string()) return bad(where + "." + key, "a list of strings");
          items.push_back(item.get<std::string>());
        }
      } else {
        return bad(where + "." + key, "one of db, log, options, meta, attach");
      }
    }
    if (a.db_dir.empty() || a.log_path.empty()) return bad(where, "db and log");
    for (const Args& other : *out) {
      if (other.db_dir == a.db_dir || other.log_path == a.log_path) {
        return bad(where, "a db and a log of its own");
      }
    }
    out->push_back(std::move(a));
  }
  return true;
}

// The JSON files a run record carries: --meta, --attach, --build-id and
// --dataset-manifest.
struct Inputs {
  nlohmann::json meta, attached = nlohmann::json::object(), build_id = nullptr, manifest = nullptr;
};

bool ReadInputs(const Args& a, Inputs* in, std::string* err) {
  if (!KeyValues(a.meta_items, "--meta", &in->meta, err)) return false;
  nlohmann::json files;
  if (!KeyValues(a.attach_items, "--attach", &files, err)) return false;
  for (auto& [name, file] : files.items()) {
    if (!ReadJsonFile(file.get<std::string>(), &in->attached[name], err)) return false;
  }
  if (!a.build_id_file.empty() && !ReadJsonFile(a.build_id_file, &in->build_id, err)) return false;
  return a.dataset_manifest.empty() || ReadJsonFile(a.dataset_manifest, &in->manifest, err);
}

// The dataset's distinct keys in the run's key encoding.
bool ReadDataset(const Args& a, lsmbench::RunSpec* spec, sosd::ReadInfo* info, std::string* err) {
  if (!sosd::ReadKeys(a.dataset, /*require_sorted=*/true, &spec->keys, info, err)) return false;
  if (!spec->codec.Parse(a.key_encoding, err)) return false;
  if (spec->codec.needs_widths() != !a.key_lengths.empty()) {
    *err = "--key-lengths goes with --key-encoding decimal_var, and only with it";
    return false;
  }
  if (!a.key_lengths.empty()) {
    std::vector<uint64_t> widths;
    sosd::ReadInfo widths_info;
    if (!sosd::ReadKeys(a.key_lengths, /*require_sorted=*/false, &widths, &widths_info, err)) {
      return false;
    }
    if (!spec->codec.SetWidths(spec->keys, widths, err)) {
      *err = a.key_lengths + ": " + *err;
      return false;
    }
  }
  // The store holds each key once; duplicates in the file are counted and
  // reported, and the distinct keys are what gets loaded and verified.
  spec->keys.erase(std::unique(spec->keys.begin(), spec->keys.end()), spec->keys.end());
  return true;
}

// The run phase's operations (a YCSB workload also decides which keys the
// load holds and the value size) and the checks that a flag goes with its
// workload.
bool MakeOps(const CLI::App& app, Args* a, lsmbench::RunSpec* spec, nlohmann::json* ycsb_info,
             std::string* err) {
  auto fail = [err](std::string msg) {
    *err = std::move(msg);
    return false;
  };
  if (a->workload == "ycsb") {
    if (a->ycsb_spec.empty()) return fail("--workload ycsb needs --spec (a YCSB property file)");
    if (app.count("--value-bytes") || app.count("--negative-share")) {
      return fail("--workload ycsb: value size comes from fieldcount x fieldlength and "
                  "reads from the workload; drop --value-bytes / --negative-share");
    }
    if (app.count("--max-execution-time")) {
      return fail("--workload ycsb: the time limit is YCSB's -p maxexecutiontime=N");
    }
    a->holdout.seeded = app.count("--holdout-seed") > 0;
    lsmbench::YcsbStream stream;
    if (!lsmbench::MakeYcsbStream(spec->keys, a->ycsb_spec, a->ycsb_props, a->ops_count, a->seed,
                                  a->holdout, &stream, err)) {
      return false;
    }
    spec->keys = std::move(stream.load_keys);
    spec->ops = std::move(stream.ops);
    spec->value_bytes = a->value_bytes = stream.value_bytes;
    spec->max_run_ns = stream.max_execution_seconds * 1000000000ull;
    *ycsb_info = std::move(stream.info);
    return true;
  }
  if (!a->ycsb_spec.empty() || !a->ycsb_props.empty()) return fail("--spec and -p need --workload ycsb");
  if (app.count("--max-execution-time") && a->workload != "point") {
    return fail("--max-execution-time: --workload point only (ycsb: -p maxexecutiontime=N; diff: "
                "its digest covers every op of the stream)");
  }
  spec->max_run_ns = a->max_execution_time * 1000000000ull;
  if (app.count("--holdout-share") || app.count("--holdout-seed")) {
    return fail("--holdout-share and --holdout-seed need --workload ycsb");
  }
  if (a->workload == "diff") {
    if (app.count("--negative-share")) return fail("--workload diff: drop --negative-share");
    spec->ops = lsmbench::DiffStream(spec->keys, a->ops_count, a->seed);
    spec->digest = true;
    spec->settle_every = app.count("--settle-every") ? a->settle_every : (a->ops_count + 3) / 4;
    return true;
  }
  if (app.count("--settle-every")) return fail("--settle-every needs --workload diff");
  if (!lsmbench::PointLookups(spec->keys, a->ops_count, a->negative_share, a->seed, &spec->ops, err)) {
    return fail(a->dataset + ": " + *err);
  }
  return true;
}

// The log's first record: what ran, on what, with which options.
nlohmann::json RunRecord(const Args& a, const lsmbench::Engine& engine,
                         const lsmbench::OptionSet& options, const Inputs& in,
                         const sosd::ReadInfo& info, const lsmbench::RunSpec& spec,
                         nlohmann::json ycsb_info) {
  return {{"schema_version", lsmbench::kLogSchemaVersion},
          {"engine", engine.Name()},
          {"build_id", in.build_id},
          {"options", options.ToJson()},
          {"dataset", {{"path", a.dataset},
                       {"count", info.count},
                       {"duplicates", info.duplicates},
                       {"distinct", spec.keys.size()},
                       {"manifest", in.manifest}}},
          {"workload", {{"kind", a.workload},
                        {"ops", a.ops_count},
                        {"negative_share", a.negative_share},
                        {"load_order", a.load_order},
                        {"value_bytes", a.value_bytes},
                        {"key_encoding", a.key_encoding},
                        {"key_bytes", spec.codec.max_width()},
                        {"loaded_keys", spec.keys.size()},
                        {"ycsb", std::move(ycsb_info)},
                        {"settle", a.settle},
                        {"settle_every", spec.settle_every},
                        {"phase", a.phase},
                        {"evict_before_run", a.evict_before_run}}},
          {"seed", a.seed},
          {"meta", in.meta},
          {"attached", in.attached}};
}

// A run the time limit stopped says so beside its log (its `run` phase
// record carries ops_planned and time_limited).
void SayIfLimited(const std::string& engine, const lsmbench::RunResult& r, const lsmbench::RunSpec& spec) {
  if (!r.time_limited) return;
  std::fprintf(stderr, "lsmbench: %s: time limit %.0f s stopped the run phase after %llu of %zu ops\n",
               engine.c_str(), spec.max_run_ns / 1e9, static_cast<unsigned long long>(r.ops_done),
               spec.ops.size());
}

// Whether a run left wrong answers: its log is then kept beside, never
// under, its output name, since a wrong run is no result.
int FailWrong(const std::string& engine, const lsmbench::RunResult& r, lsmbench::RunLog* log,
              const std::string& log_path, Stages* stages) {
  std::string err;
  std::error_code ec;
  std::string failed = log_path + ".failed";
  log->Finish("wrong_answers", &err, {{"driver_seconds", stages->Total()}});
  std::filesystem::rename(log_path, failed, ec);
  return Fail(engine + ": " + std::to_string(r.wrong) + " of " + std::to_string(r.verified) +
              " answers wrong; see " + failed);
}

// --interleave: every member's database opened by an engine of its own,
// the stream run on them in turns (lsmbench::Interleave), a log each.
int RunInterleaved(const Args& common, const lsmbench::RunSpec& spec, const sosd::ReadInfo& info,
                   const nlohmann::json& ycsb_info, Stages* stages) {
  using namespace lsmbench;
  std::string err;
  std::vector<Args> args;
  if (!ReadMembers(common, &args, &err)) return Fail(err);
  std::vector<std::unique_ptr<Engine>> engines;
  std::vector<std::unique_ptr<RunLog>> logs;
  std::vector<Member> members;
  for (size_t k = 0; k < args.size(); k++) {
    const Args& a = args[k];
    engines.push_back(NewEngine());
    Engine* engine = engines.back().get();
    OptionSet options(engine->OptionSpecs());
    if (!options.Parse(a.engine_opts, &err) || !engine->CheckOptions(options, &err)) {
      return Fail(common.interleave_file + ": " + err);
    }
    Inputs inputs;
    if (!ReadInputs(a, &inputs, &err)) return Fail(err);
    if (!std::filesystem::is_directory(a.db_dir)) {
      return Fail(a.db_dir + ": --interleave runs on the databases --phase load left");
    }
    logs.push_back(std::make_unique<RunLog>());
    if (!logs.back()->Open(a.log_path, &err)) return Fail(err);
    nlohmann::json record = RunRecord(a, *engine, options, inputs, info, spec, ycsb_info);
    record["workload"]["interleave"] = {{"members", args.size()},
                                        {"position", k},
                                        {"batch_ops", common.interleave_batch}};
    logs.back()->Write("run", std::move(record));
    if (!engine->Open(a.db_dir, options, &err)) return Fail(a.db_dir + ": open: " + err);
    engine->Pause();  // the next member's open is not this one's work
    members.push_back({engine, a.db_dir, logs.back().get()});
  }
  stages->Mark("open");
  std::vector<RunResult> results = Interleave(members, spec, common.interleave_batch, &err);
  stages->Mark("phases");
  for (auto& engine : engines) engine->Close();
  stages->Mark("close");
  std::error_code ec;
  if (!common.keep_db) {
    for (const Args& a : args) std::filesystem::remove_all(a.db_dir, ec);
  }
  stages->Mark("remove_db");
  if (!err.empty()) return Fail(engines[0]->Name() + ": " + err);
  int status = 0;
  for (size_t k = 0; k < args.size(); k++) {
    if (results[k].wrong > 0) {
      status = FailWrong(engines[k]->Name(), results[k], logs[k].get(), args[k].log_path, stages);
    }
  }
  if (status != 0) return status;
  for (size_t k = 0; k < args.size(); k++) {
    if (!logs[k]->Finish("ok", &err, {{"driver_seconds", stages->Total()}})) return Fail(err);
    SayIfLimited(engines[k]->Name(), results[k], spec);
    std::fprintf(stderr, "lsmbench: %s: %llu answers verified, log %s\n", engines[k]->Name().c_str(),
                 static_cast<unsigned long long>(results[k].verified), args[k].log_path.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace lsmbench;
  Stages stages;
  std::unique_ptr<Engine> engine = NewEngine();

  CLI::App app{"lsmbench (" + engine->Name() + "): load, run, verify, log"};
  Args a;
  AddOptions(&app, &a);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line, as every other bad input: CLI11's own exit prints the
    // usage after it and exits 105 for an out-of-range value.
    return Fail(e.what());
  }

  std::string err;
  OptionSet options(engine->OptionSpecs());
  if (a.list_options) {
    for (const OptionSpec& s : options.specs()) {
      std::printf("%-28s default %-12s %s\n", s.name.c_str(), s.default_value.c_str(),
                  s.help.c_str());
    }
    return 0;
  }
  if (!options.Parse(a.engine_opts, &err) || !engine->CheckOptions(options, &err)) return Fail(err);
  const bool interleave = app.count("--interleave") > 0;
  if (interleave) {
    if (app.count("--db") || app.count("--log")) {
      return Fail("--interleave: each member names its own db and log; drop --db and --log");
    }
    if (a.phase != "run") return Fail("--interleave needs --phase run (the members are loaded databases)");
  } else if (app.count("--interleave-batch")) {
    return Fail("--interleave-batch needs --interleave");
  }
  for (const char* required : {"--db", "--dataset", "--log"}) {
    if (interleave && std::string(required) != "--dataset") continue;
    if (app.count(required) == 0) return Fail(std::string(required) + " is required");
  }
  Inputs inputs;
  if (!interleave && !ReadInputs(a, &inputs, &err)) return Fail(err);

  stages.Mark("inputs");
  RunSpec spec;
  sosd::ReadInfo info;
  if (!ReadDataset(a, &spec, &info, &err)) return Fail(err);
  stages.Mark("read_dataset");
  spec.db_dir = a.db_dir;
  spec.shuffled_load = a.load_order == "shuffled";
  spec.value_bytes = a.value_bytes;
  spec.seed = a.seed;
  spec.full_compaction = a.settle == "full";
  spec.load = a.phase != "run";
  spec.evict_before_run = a.evict_before_run;
  nlohmann::json ycsb_info = nullptr;
  if (!MakeOps(app, &a, &spec, &ycsb_info, &err)) return Fail(err);
  if (a.phase == "load") spec.ops.clear();
  stages.Mark("make_ops");
  spec.progress = a.progress == "always" || (a.progress == "auto" && spec.keys.size() >= 1000000);
  if (interleave) return RunInterleaved(a, spec, info, ycsb_info, &stages);

  std::error_code ec;
  if (a.phase == "run" && !std::filesystem::is_directory(a.db_dir)) {
    return Fail(a.db_dir + ": --phase run needs the database a --phase load left");
  }
  if (a.phase != "run") std::filesystem::remove_all(a.db_dir, ec);
  std::filesystem::create_directories(std::filesystem::path(a.db_dir).parent_path(), ec);

  RunLog log;
  if (!log.Open(a.log_path, &err)) return Fail(err);
  log.Write("run", RunRecord(a, *engine, options, inputs, info, spec, std::move(ycsb_info)));

  stages.Mark("start_log");
  if (!engine->Open(a.db_dir, options, &err)) return Fail(a.db_dir + ": open: " + err);
  stages.Mark("open");
  RunResult result = Run(engine.get(), spec, &log);
  stages.Mark("phases", result.stats_ns);
  stages.Add("stats", result.stats_ns);
  engine->Close();
  stages.Mark("close");
  if (!a.keep_db && a.phase != "load") std::filesystem::remove_all(a.db_dir, ec);
  stages.Mark("remove_db");

  if (!result.error.empty()) return Fail(engine->Name() + ": " + result.error);
  if (result.wrong > 0) return FailWrong(engine->Name(), result, &log, a.log_path, &stages);
  if (!log.Finish("ok", &err, {{"driver_seconds", stages.Total()}})) return Fail(err);
  SayIfLimited(engine->Name(), result, spec);
  std::fprintf(stderr, "lsmbench: %s: %llu answers verified, log %s\n",
               engine->Name().c_str(), static_cast<unsigned long long>(result.verified),
               a.log_path.c_str());
  return 0;
}

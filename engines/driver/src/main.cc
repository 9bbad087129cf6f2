// lsmbench: load a dataset into one engine, run an operation stream, verify
// every answer and write a JSON-lines run log. Built once per engine.
//
//   lsmbench --db /tmp/db --dataset keys_uint64 --ops 100000 \
//       -o block_size=4096 --log run.jsonl
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
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
  uint64_t ops_count = 100000, seed = 1, settle_every = 0;
  size_t value_bytes = 64;
  double negative_share = 0.0;
  lsmbench::Holdout holdout;
  std::vector<std::string> engine_opts, meta_items, attach_items, ycsb_props;
  bool list_options = false, keep_db = false, evict_before_run = false;
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
    a->holdout.seeded = app.count("--holdout-seed") > 0;
    lsmbench::YcsbStream stream;
    if (!lsmbench::MakeYcsbStream(spec->keys, a->ycsb_spec, a->ycsb_props, a->ops_count, a->seed,
                                  a->holdout, &stream, err)) {
      return false;
    }
    spec->keys = std::move(stream.load_keys);
    spec->ops = std::move(stream.ops);
    spec->value_bytes = a->value_bytes = stream.value_bytes;
    *ycsb_info = std::move(stream.info);
    return true;
  }
  if (!a->ycsb_spec.empty() || !a->ycsb_props.empty()) return fail("--spec and -p need --workload ycsb");
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

}  // namespace

int main(int argc, char** argv) {
  using namespace lsmbench;
  Stages stages;
  std::unique_ptr<Engine> engine = NewEngine();

  CLI::App app{"lsmbench (" + engine->Name() + "): load, run, verify, log"};
  Args a;
  AddOptions(&app, &a);
  CLI11_PARSE(app, argc, argv);

  std::string err;
  OptionSet options(engine->OptionSpecs());
  if (a.list_options) {
    for (const OptionSpec& s : options.specs()) {
      std::printf("%-28s default %-12s %s\n", s.name.c_str(), s.default_value.c_str(),
                  s.help.c_str());
    }
    return 0;
  }
  if (!options.Parse(a.engine_opts, &err)) return Fail(err);
  for (const char* required : {"--db", "--dataset", "--log"}) {
    if (app.count(required) == 0) return Fail(std::string(required) + " is required");
  }
  Inputs inputs;
  if (!ReadInputs(a, &inputs, &err)) return Fail(err);

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
  if (result.wrong > 0) {
    // Kept beside, never under, the output name: a wrong run is no result.
    std::string failed = a.log_path + ".failed";
    log.Finish("wrong_answers", &err, {{"driver_seconds", stages.Total()}});
    std::filesystem::rename(a.log_path, failed, ec);
    return Fail(engine->Name() + ": " + std::to_string(result.wrong) + " of " +
                std::to_string(result.verified) + " answers wrong; see " + failed);
  }
  if (!log.Finish("ok", &err, {{"driver_seconds", stages.Total()}})) return Fail(err);
  std::fprintf(stderr, "lsmbench: %s: %llu answers verified, log %s\n",
               engine->Name().c_str(), static_cast<unsigned long long>(result.verified),
               a.log_path.c_str());
  return 0;
}

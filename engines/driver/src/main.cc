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

}  // namespace

int main(int argc, char** argv) {
  using namespace lsmbench;
  Stages stages;
  std::unique_ptr<Engine> engine = NewEngine();

  CLI::App app{"lsmbench (" + engine->Name() + "): load, run, verify, log"};
  std::string db_dir, dataset, dataset_manifest, build_id_file, log_path;
  std::string load_order = "shuffled", workload = "point", settle = "wait";
  std::string progress = "auto", key_encoding = "be64", key_lengths, ycsb_spec, phase = "all";
  uint64_t ops_count = 100000, seed = 1, settle_every = 0;
  size_t value_bytes = 64;
  double negative_share = 0.0;
  Holdout holdout;
  std::vector<std::string> engine_opts, meta_items, attach_items, ycsb_props;
  bool list_options = false, keep_db = false, evict_before_run = false;
  app.add_option("--db", db_dir, "database directory (emptied first)");
  app.add_option("--dataset", dataset, "SOSD key file (_uint32 or _uint64)");
  app.add_option("--dataset-manifest", dataset_manifest,
                 "JSON manifest of the dataset, copied into the run record");
  app.add_option("--load-order", load_order)->check(CLI::IsMember({"sorted", "shuffled"}));
  app.add_option("--value-bytes", value_bytes)->check(CLI::Range(1, 1 << 20));
  app.add_option("--workload", workload,
                 "point: lookups over the dataset; ycsb: a YCSB core workload; diff: the "
                 "differential stream (writes, deletes, gets, scans; answers digested)")
      ->check(CLI::IsMember({"point", "ycsb", "diff"}));
  app.add_option("--settle-every", settle_every,
                 "--workload diff: flush and settle every N ops (default: 4 times per run)");
  app.add_option("--spec", ycsb_spec, "YCSB workload property file (--workload ycsb)");
  app.add_option("-p", ycsb_props, "YCSB property override key=value (repeatable)");
  app.add_option("--holdout-share", holdout.share,
                 "--workload ycsb: hold out of the load the keys a workload with this "
                 "insertproportion inserts in --ops operations (default: this workload's own)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--holdout-seed", holdout.seed,
                 "--workload ycsb: seed of the held-out sample (default: --seed); a load and "
                 "every run that starts from it pass the same");
  app.add_option("--key-encoding", key_encoding,
                 "be64, be64_padN, decimalN, decimal_var or ycsb_user (src/key_codec.h)");
  app.add_option("--key-lengths", key_lengths,
                 "decimal_var: the dataset's per-key widths (SOSD _uint32 file, one per key)");
  app.add_option("--ops", ops_count, "operations in the run phase");
  app.add_option("--negative-share", negative_share, "share of absent-key lookups")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--seed", seed);
  app.add_option("--settle", settle, "after load: wait for compactions, or compact all")
      ->check(CLI::IsMember({"wait", "full"}));
  app.add_option("-o,--option", engine_opts, "engine option key=value (repeatable)");
  app.add_option("--build-id", build_id_file, "build id JSON of this binary's engine");
  app.add_option("--meta", meta_items, "key=value copied into the run record");
  app.add_option("--attach", attach_items,
                 "name=FILE: a JSON file (fingerprint, device profile) copied into the run record");
  app.add_option("--log", log_path, "JSON-lines run log to write");
  app.add_option("--progress", progress)->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag("--keep-db", keep_db, "leave the database on disk after the run");
  app.add_flag("--evict-before-run", evict_before_run,
               "drop the database's pages from the page cache after open, just before the "
               "run phase, so it starts cold whatever open read (an `evict` phase record)");
  app.add_option("--phase", phase,
                 "all: load, settle and run; load: load and settle, keep the database; "
                 "run: run on the database a --phase load left (same dataset, order, seed)")
      ->check(CLI::IsMember({"all", "load", "run"}));
  app.add_flag("--list-options", list_options, "print the engine's options and exit");
  CLI11_PARSE(app, argc, argv);

  std::string err;
  OptionSet options(engine->OptionSpecs());
  if (list_options) {
    for (const OptionSpec& s : options.specs()) {
      std::printf("%-28s default %-12s %s\n", s.name.c_str(), s.default_value.c_str(),
                  s.help.c_str());
    }
    return 0;
  }
  if (!options.Parse(engine_opts, &err)) return Fail(err);
  for (const char* required : {"--db", "--dataset", "--log"}) {
    if (app.count(required) == 0) return Fail(std::string(required) + " is required");
  }

  nlohmann::json meta, build_id = nullptr, manifest = nullptr;
  if (!KeyValues(meta_items, "--meta", &meta, &err)) return Fail(err);
  nlohmann::json attached = nlohmann::json::object(), files;
  if (!KeyValues(attach_items, "--attach", &files, &err)) return Fail(err);
  for (auto& [name, file] : files.items()) {
    if (!ReadJsonFile(file.get<std::string>(), &attached[name], &err)) return Fail(err);
  }
  if (!build_id_file.empty() && !ReadJsonFile(build_id_file, &build_id, &err)) return Fail(err);
  if (!dataset_manifest.empty() && !ReadJsonFile(dataset_manifest, &manifest, &err)) {
    return Fail(err);
  }

  stages.Mark("inputs");
  RunSpec spec;
  sosd::ReadInfo info;
  if (!sosd::ReadKeys(dataset, /*require_sorted=*/true, &spec.keys, &info, &err)) {
    return Fail(err);
  }
  if (!spec.codec.Parse(key_encoding, &err)) return Fail(err);
  if (spec.codec.needs_widths() != !key_lengths.empty()) {
    return Fail("--key-lengths goes with --key-encoding decimal_var, and only with it");
  }
  if (!key_lengths.empty()) {
    std::vector<uint64_t> widths;
    sosd::ReadInfo widths_info;
    if (!sosd::ReadKeys(key_lengths, /*require_sorted=*/false, &widths, &widths_info, &err)) {
      return Fail(err);
    }
    if (!spec.codec.SetWidths(spec.keys, widths, &err)) return Fail(key_lengths + ": " + err);
  }
  // The store holds each key once; duplicates in the file are counted and
  // reported, and the distinct keys are what gets loaded and verified.
  spec.keys.erase(std::unique(spec.keys.begin(), spec.keys.end()), spec.keys.end());
  stages.Mark("read_dataset");
  spec.db_dir = db_dir;
  spec.shuffled_load = load_order == "shuffled";
  spec.value_bytes = value_bytes;
  spec.seed = seed;
  spec.full_compaction = settle == "full";
  spec.load = phase != "run";
  spec.evict_before_run = evict_before_run;
  nlohmann::json ycsb_info = nullptr;
  if (workload == "ycsb") {
    if (ycsb_spec.empty()) return Fail("--workload ycsb needs --spec (a YCSB property file)");
    if (app.count("--value-bytes") || app.count("--negative-share")) {
      return Fail("--workload ycsb: value size comes from fieldcount x fieldlength and "
                  "reads from the workload; drop --value-bytes / --negative-share");
    }
    holdout.seeded = app.count("--holdout-seed") > 0;
    YcsbStream stream;
    if (!MakeYcsbStream(spec.keys, ycsb_spec, ycsb_props, ops_count, seed, holdout, &stream,
                        &err)) {
      return Fail(err);
    }
    spec.keys = std::move(stream.load_keys);
    spec.ops = std::move(stream.ops);
    spec.value_bytes = value_bytes = stream.value_bytes;
    ycsb_info = std::move(stream.info);
  } else {
    if (!ycsb_spec.empty() || !ycsb_props.empty()) return Fail("--spec and -p need --workload ycsb");
    if (app.count("--holdout-share") || app.count("--holdout-seed")) {
      return Fail("--holdout-share and --holdout-seed need --workload ycsb");
    }
    if (workload == "diff") {
      if (app.count("--negative-share")) return Fail("--workload diff: drop --negative-share");
      spec.ops = DiffStream(spec.keys, ops_count, seed);
      spec.digest = true;
      spec.settle_every = app.count("--settle-every") ? settle_every : (ops_count + 3) / 4;
    } else if (app.count("--settle-every")) {
      return Fail("--settle-every needs --workload diff");
    } else {
      if (!PointLookups(spec.keys, ops_count, negative_share, seed, &spec.ops, &err)) {
        return Fail(dataset + ": " + err);
      }
    }
  }
  if (phase == "load") spec.ops.clear();
  stages.Mark("make_ops");
  spec.progress = progress == "always" || (progress == "auto" && spec.keys.size() >= 1000000);

  std::error_code ec;
  if (phase == "run" && !std::filesystem::is_directory(db_dir)) {
    return Fail(db_dir + ": --phase run needs the database a --phase load left");
  }
  if (phase != "run") std::filesystem::remove_all(db_dir, ec);
  std::filesystem::create_directories(std::filesystem::path(db_dir).parent_path(), ec);

  RunLog log;
  if (!log.Open(log_path, &err)) return Fail(err);
  log.Write("run", {{"schema_version", kLogSchemaVersion},
                    {"engine", engine->Name()},
                    {"build_id", build_id},
                    {"options", options.ToJson()},
                    {"dataset", {{"path", dataset},
                                 {"count", info.count},
                                 {"duplicates", info.duplicates},
                                 {"distinct", spec.keys.size()},
                                 {"manifest", manifest}}},
                    {"workload", {{"kind", workload},
                                  {"ops", ops_count},
                                  {"negative_share", negative_share},
                                  {"load_order", load_order},
                                  {"value_bytes", value_bytes},
                                  {"key_encoding", key_encoding},
                                  {"key_bytes", spec.codec.max_width()},
                                  {"loaded_keys", spec.keys.size()},
                                  {"ycsb", ycsb_info},
                                  {"settle", settle},
                                  {"settle_every", spec.settle_every},
                                  {"phase", phase},
                                  {"evict_before_run", evict_before_run}}},
                    {"seed", seed},
                    {"meta", meta},
                    {"attached", attached}});

  stages.Mark("start_log");
  if (!engine->Open(db_dir, options, &err)) return Fail(db_dir + ": open: " + err);
  stages.Mark("open");
  RunResult result = Run(engine.get(), spec, &log);
  stages.Mark("phases", result.stats_ns);
  stages.Add("stats", result.stats_ns);
  engine->Close();
  stages.Mark("close");
  if (!keep_db && phase != "load") std::filesystem::remove_all(db_dir, ec);
  stages.Mark("remove_db");

  if (!result.error.empty()) return Fail(engine->Name() + ": " + result.error);
  if (result.wrong > 0) {
    // Kept beside, never under, the output name: a wrong run is no result.
    std::string failed = log_path + ".failed";
    log.Finish("wrong_answers", &err, {{"driver_seconds", stages.Total()}});
    std::filesystem::rename(log_path, failed, ec);
    return Fail(engine->Name() + ": " + std::to_string(result.wrong) + " of " +
                std::to_string(result.verified) + " answers wrong; see " + failed);
  }
  if (!log.Finish("ok", &err, {{"driver_seconds", stages.Total()}})) return Fail(err);
  std::fprintf(stderr, "lsmbench: %s: %llu answers verified, log %s\n",
               engine->Name().c_str(), static_cast<unsigned long long>(result.verified),
               log_path.c_str());
  return 0;
}

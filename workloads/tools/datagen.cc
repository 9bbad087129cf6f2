// datagen: writes the catalogue's datasets as SOSD key files, deterministic
// in (generator, params, seed), plus lookup and size files; checks and
// downsamples real SOSD files; prints one JSON object per run on stdout (the
// manifest's facts). Errors are one line on stderr, exit status 2.
//
//   datagen gen --generator osm_like --count 2000000 --seed 42 --out osm_like_uint64
//   datagen lookups --keys osm_like_uint64 --count 1000000 --negative-share 0.1
//                   --seed 7 --out osm_like_lookups_uint64
//   datagen downsample --in data/fb_200M_uint64 --count 2000000 --out fb_uint64
//   datagen verify --in data/fb_200M_uint64 --sorted
//   datagen ops --spec workloads/ycsb/workloada -p recordcount=1000 --seed 42 --count 10
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gen/lookups.h"
#include "gen/registry.h"
#include "gen/study_sets.h"
#include "sosd/sosd_format.h"
#include "ycsb/core_workload.h"
#include "ycsb/properties.h"

namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

[[noreturn]] void Die(const std::string& msg) {
  std::fprintf(stderr, "error: %s\n", msg.c_str());
  std::exit(2);
}

double Since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// CPU seconds of this (single-threaded) process: rates per core stay
// meaningful on a machine shared with other jobs, where wall time is not.
double CpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

json Describe(const gen::Keys& keys) {
  uint64_t dups = 0;
  for (size_t i = 1; i < keys.size(); i++) dups += keys[i] == keys[i - 1];
  json j;
  j["count"] = keys.size();
  j["duplicates"] = dups;
  auto [lo, hi] = std::minmax_element(keys.begin(), keys.end());
  j["min"] = keys.empty() ? 0 : *lo;
  j["max"] = keys.empty() ? 0 : *hi;
  return j;
}

std::map<std::string, std::string> ParseParams(const std::vector<std::string>& raw) {
  std::map<std::string, std::string> out;
  for (const std::string& kv : raw) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) Die("--param: '" + kv + "': expected key=value");
    out[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return out;
}

gen::Keys ReadOrDie(const std::string& path, bool sorted, sosd::ReadInfo* info) {
  gen::Keys keys;
  std::string err;
  if (!sosd::ReadKeys(path, sorted, &keys, info, &err)) Die(err);
  return keys;
}

void WriteOrDie(const std::string& path, const gen::Keys& keys) {
  std::string err;
  if (!sosd::WriteKeys(path, keys, &err)) Die(err);
}

int WidthOrDie(const std::string& path) {
  int w = sosd::KeyWidthFromName(path);
  if (w == 0) Die(path + ": file name must end in _uint32 or _uint64 (SOSD key width)");
  return w * 8;
}

bool Generate(const std::string& name, uint64_t n, uint64_t seed, int width,
              const std::map<std::string, std::string>& raw, gen::Keys* keys, json* facts) {
  const gen::Generator* g = gen::FindGenerator(name);
  if (g == nullptr) Die("--generator: unknown generator '" + name + "' (see `datagen list`)");
  gen::Params params(raw);
  std::string err;
  auto t0 = Clock::now();
  double c0 = CpuSeconds();
  bool ok = g->run(n, seed, width, &params, keys, &err);
  double secs = Since(t0), cpu = CpuSeconds() - c0;
  if (!params.error().empty()) Die("--param " + params.error());
  if (!params.Unused().empty()) Die("--param: unknown parameter(s) for " + name + ": " + params.Unused());
  if (!ok) Die("--generator " + name + ": " + err);
  *facts = Describe(*keys);
  (*facts)["generator"] = name;
  (*facts)["params"] = raw;
  (*facts)["seed"] = seed;
  (*facts)["stand_in"] = !g->stands_in_for.empty();
  if (!g->stands_in_for.empty()) (*facts)["stands_in_for"] = g->stands_in_for;
  (*facts)["seconds"] = secs;
  (*facts)["cpu_seconds"] = cpu;
  (*facts)["keys_per_cpu_second"] = cpu > 0 ? n / cpu : 0.0;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Generate, verify and downsample SOSD-format datasets; dump YCSB op streams."};
  app.require_subcommand(1);

  // gen
  auto* cmd_gen = app.add_subcommand("gen", "generate a key set into an SOSD file");
  std::string generator, out;
  uint64_t count = 0, seed = 42;
  std::vector<std::string> params;
  cmd_gen->add_option("--generator", generator, "generator name")->required();
  cmd_gen->add_option("--count", count, "number of keys")->required();
  cmd_gen->add_option("--seed", seed, "seed");
  cmd_gen->add_option("--param", params, "generator parameter key=value");
  cmd_gen->add_option("--out", out, "output path (ends in _uint64 or _uint32)")->required();

  // sizes
  auto* cmd_sizes = app.add_subcommand("sizes", "per-key byte sizes into an SOSD-layout _uint32 file");
  std::vector<double> normal, uniform;
  uint64_t size_min = 1, size_max = 1 << 20;
  cmd_sizes->add_option("--count", count)->required();
  cmd_sizes->add_option("--seed", seed);
  cmd_sizes->add_option("--normal", normal, "MEAN SD")->expected(2);
  cmd_sizes->add_option("--uniform", uniform, "LO HI")->expected(2);
  cmd_sizes->add_option("--min", size_min, "smallest size (normal)");
  cmd_sizes->add_option("--max", size_max, "largest size (normal)");
  cmd_sizes->add_option("--out", out)->required();

  // lookups
  auto* cmd_lookups = app.add_subcommand("lookups", "positive/negative lookup keys");
  std::string keys_path;
  double negative_share = 0;
  cmd_lookups->add_option("--keys", keys_path, "sorted SOSD key file")->required();
  cmd_lookups->add_option("--count", count)->required();
  cmd_lookups->add_option("--negative-share", negative_share, "share of absent keys");
  cmd_lookups->add_option("--seed", seed);
  cmd_lookups->add_option("--out", out)->required();

  // downsample
  auto* cmd_down = app.add_subcommand("downsample", "keep every k-th key (SOSD's rule)");
  std::string in;
  cmd_down->add_option("--in", in)->required();
  cmd_down->add_option("--count", count, "target count; k = floor(n / count)")->required();
  cmd_down->add_option("--out", out)->required();

  // verify
  auto* cmd_verify = app.add_subcommand("verify", "read and check an SOSD file");
  bool require_sorted = false;
  cmd_verify->add_option("--in", in)->required();
  cmd_verify->add_flag("--sorted", require_sorted, "fail unless sorted");

  // list
  auto* cmd_list = app.add_subcommand("list", "list generators");

  // ops
  auto* cmd_ops = app.add_subcommand("ops", "print a YCSB op stream");
  std::string spec;
  std::vector<std::string> overrides;
  bool load = false;
  cmd_ops->add_option("--spec", spec, "YCSB property file")->required();
  cmd_ops->add_option("-p", overrides, "property override key=value");
  cmd_ops->add_option("--seed", seed);
  cmd_ops->add_option("--count", count, "ops to print (default operationcount)");
  cmd_ops->add_flag("--load", load, "print the load phase instead");

  // bench
  auto* cmd_bench = app.add_subcommand("bench", "keys/s of every generator and of the reader");
  std::string bench_dir = "/tmp";
  count = 0;
  cmd_bench->add_option("--count", count, "keys per generator")->required();
  cmd_bench->add_option("--dir", bench_dir, "scratch directory");

  CLI11_PARSE(app, argc, argv);

  if (cmd_gen->parsed()) {
    gen::Keys keys;
    json facts;
    Generate(generator, count, seed, WidthOrDie(out), ParseParams(params), &keys, &facts);
    WriteOrDie(out, keys);
    std::cout << facts.dump() << "\n";
  } else if (cmd_sizes->parsed()) {
    if (normal.empty() == uniform.empty()) Die("sizes: expected exactly one of --normal or --uniform");
    std::vector<uint64_t> sizes =
        normal.empty()
            ? gen::UniformSizes(count, seed, static_cast<uint64_t>(uniform[0]), static_cast<uint64_t>(uniform[1]))
            : gen::NormalSizes(count, seed, normal[0], normal[1], size_min, size_max);
    WriteOrDie(out, sizes);
    double sum = 0;
    for (uint64_t s : sizes) sum += static_cast<double>(s);
    std::cout << json{{"count", count}, {"seed", seed}, {"mean", count ? sum / count : 0.0}}.dump() << "\n";
  } else if (cmd_lookups->parsed()) {
    sosd::ReadInfo info;
    gen::Keys keys = ReadOrDie(keys_path, true, &info), lookups;
    std::string err;
    if (!gen::MakeLookups(keys, count, negative_share, seed, &lookups, &err)) Die(keys_path + ": " + err);
    WriteOrDie(out, lookups);
    std::cout << json{{"count", count}, {"negative_share", negative_share}, {"seed", seed}}.dump() << "\n";
  } else if (cmd_down->parsed()) {
    // Streamed: the real files can be larger than memory.
    uint64_t have = 0;
    std::string err;
    if (!sosd::ReadCount(in, &have, &err)) Die(err);
    uint64_t step = gen::DownsampleStep(have, count);
    gen::Keys down;
    down.reserve(have / step + 1);
    sosd::ReadInfo info;
    if (!sosd::ForEachKey(in, true, [&](uint64_t i, uint64_t k) {
          if (i % step == 0) down.push_back(k);
        }, &info, &err)) {
      Die(err);
    }
    WriteOrDie(out, down);
    json facts = Describe(down);
    facts["source_count"] = have;
    facts["source_duplicates"] = info.duplicates;
    facts["step"] = step;
    std::cout << facts.dump() << "\n";
  } else if (cmd_verify->parsed()) {
    sosd::ReadInfo info;
    auto t0 = Clock::now();
    gen::Keys keys = ReadOrDie(in, require_sorted, &info);
    double secs = Since(t0);
    json facts = Describe(keys);
    facts["duplicates"] = info.duplicates;
    facts["sorted"] = info.sorted;
    facts["seconds"] = secs;
    std::cout << facts.dump() << "\n";
  } else if (cmd_list->parsed()) {
    json list = json::array();
    for (const gen::Generator& g : gen::Generators()) {
      list.push_back({{"name", g.name}, {"summary", g.summary}, {"stands_in_for", g.stands_in_for}});
    }
    std::cout << list.dump(2) << "\n";
  } else if (cmd_ops->parsed()) {
    ycsb::Properties p;
    std::string err;
    if (!p.LoadFile(spec, &err)) Die(err);
    for (const std::string& o : overrides) {
      if (!p.SetOverride(o, &err)) Die(err);
    }
    auto w = ycsb::CoreWorkload::Create(p, seed, &err);
    if (w == nullptr) Die(err);
    uint64_t n = count ? count : static_cast<uint64_t>(load ? w->insert_count() : w->operation_count());
    for (uint64_t i = 0; i < n; i++) {
      ycsb::Op op = load ? w->NextLoad() : w->NextTransaction();
      std::printf("%s %s %d\n", ycsb::OpTypeName(op.type), op.key.c_str(), op.scan_len);
    }
  } else if (cmd_bench->parsed()) {
    json report = json::array();
    for (const gen::Generator& g : gen::Generators()) {
      gen::Keys keys;
      json facts;
      Generate(g.name, count, 42, 64, {}, &keys, &facts);
      report.push_back({{"what", g.name}, {"keys_per_cpu_second", facts["keys_per_cpu_second"]}});
      std::fprintf(stderr, "%-22s %12.0f keys/s per core\n", g.name.c_str(),
                   facts["keys_per_cpu_second"].get<double>());
      if (g.name == "osm_like") {
        std::string path = bench_dir + "/datagen_bench_uint64";
        WriteOrDie(path, keys);
        sosd::ReadInfo info;
        double c0 = CpuSeconds();
        gen::Keys back = ReadOrDie(path, true, &info);
        double cpu = CpuSeconds() - c0;
        std::remove(path.c_str());
        report.push_back({{"what", "reader (sorted check)"}, {"keys_per_cpu_second", back.size() / cpu}});
        std::fprintf(stderr, "%-22s %12.0f keys/s per core (page-cached file)\n", "reader",
                     back.size() / cpu);
      }
    }
    ycsb::Properties p;
    std::string err;
    p.Set("recordcount", std::to_string(count), "bench", &err);
    p.Set("operationcount", std::to_string(count), "bench", &err);
    for (const char* d : {"uniform", "zipfian", "latest", "hotspot", "sequential", "exponential"}) {
      p.Set("requestdistribution", d, "bench", &err);
      p.Set("insertproportion", std::string(d) == "latest" ? "0.05" : "0", "bench", &err);
      auto w = ycsb::CoreWorkload::Create(p, 42, &err);
      double c0 = CpuSeconds();
      for (uint64_t i = 0; i < count; i++) w->NextTransaction();
      double rate = count / (CpuSeconds() - c0);
      report.push_back({{"what", std::string("ycsb ops ") + d}, {"ops_per_cpu_second", rate}});
      std::fprintf(stderr, "ycsb ops %-13s %12.0f ops/s per core\n", d, rate);
    }
    std::cout << report.dump() << "\n";
  }
  return 0;
}

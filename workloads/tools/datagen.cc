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

// Every option of every subcommand.
struct Args {
  std::string generator, out, keys_path, in, spec, bench_dir = "/tmp";
  uint64_t count = 0, seed = 42, size_min = 1, size_max = 1 << 20;
  std::vector<std::string> params, overrides;
  std::vector<double> normal, uniform;
  double negative_share = 0;
  bool require_sorted = false, load = false;
};

struct Commands {
  CLI::App *gen, *sizes, *lookups, *down, *verify, *list, *ops, *bench;
};

Commands AddCommands(CLI::App* app, Args* a) {
  Commands c;
  c.gen = app->add_subcommand("gen", "generate a key set into an SOSD file");
  c.gen->add_option("--generator", a->generator, "generator name")->required();
  c.gen->add_option("--count", a->count, "number of keys")->required();
  c.gen->add_option("--seed", a->seed, "seed");
  c.gen->add_option("--param", a->params, "generator parameter key=value");
  c.gen->add_option("--out", a->out, "output path (ends in _uint64 or _uint32)")->required();

  c.sizes = app->add_subcommand("sizes", "per-key byte sizes into an SOSD-layout _uint32 file");
  c.sizes->add_option("--count", a->count)->required();
  c.sizes->add_option("--seed", a->seed);
  c.sizes->add_option("--normal", a->normal, "MEAN SD")->expected(2);
  c.sizes->add_option("--uniform", a->uniform, "LO HI")->expected(2);
  c.sizes->add_option("--min", a->size_min, "smallest size (normal)");
  c.sizes->add_option("--max", a->size_max, "largest size (normal)");
  c.sizes->add_option("--out", a->out)->required();

  c.lookups = app->add_subcommand("lookups", "positive/negative lookup keys");
  c.lookups->add_option("--keys", a->keys_path, "sorted SOSD key file")->required();
  c.lookups->add_option("--count", a->count)->required();
  c.lookups->add_option("--negative-share", a->negative_share, "share of absent keys");
  c.lookups->add_option("--seed", a->seed);
  c.lookups->add_option("--out", a->out)->required();

  c.down = app->add_subcommand("downsample", "keep every k-th key (SOSD's rule)");
  c.down->add_option("--in", a->in)->required();
  c.down->add_option("--count", a->count, "target count; k = floor(n / count)")->required();
  c.down->add_option("--out", a->out)->required();

  c.verify = app->add_subcommand("verify", "read and check an SOSD file");
  c.verify->add_option("--in", a->in)->required();
  c.verify->add_flag("--sorted", a->require_sorted, "fail unless sorted");

  c.list = app->add_subcommand("list", "list generators");

  c.ops = app->add_subcommand("ops", "print a YCSB op stream");
  c.ops->add_option("--spec", a->spec, "YCSB property file")->required();
  c.ops->add_option("-p", a->overrides, "property override key=value");
  c.ops->add_option("--seed", a->seed);
  c.ops->add_option("--count", a->count, "ops to print (default operationcount)");
  c.ops->add_flag("--load", a->load, "print the load phase instead");

  c.bench = app->add_subcommand("bench", "keys/s of every generator and of the reader");
  c.bench->add_option("--count", a->count, "keys per generator")->required();
  c.bench->add_option("--dir", a->bench_dir, "scratch directory");
  return c;
}

void RunGen(const Args& a) {
  gen::Keys keys;
  json facts;
  Generate(a.generator, a.count, a.seed, WidthOrDie(a.out), ParseParams(a.params), &keys, &facts);
  WriteOrDie(a.out, keys);
  std::cout << facts.dump() << "\n";
}

void RunSizes(const Args& a) {
  if (a.normal.empty() == a.uniform.empty()) Die("sizes: expected exactly one of --normal or --uniform");
  std::vector<uint64_t> sizes =
      a.normal.empty()
          ? gen::UniformSizes(a.count, a.seed, static_cast<uint64_t>(a.uniform[0]),
                              static_cast<uint64_t>(a.uniform[1]))
          : gen::NormalSizes(a.count, a.seed, a.normal[0], a.normal[1], a.size_min, a.size_max);
  WriteOrDie(a.out, sizes);
  double sum = 0;
  for (uint64_t s : sizes) sum += static_cast<double>(s);
  std::cout << json{{"count", a.count}, {"seed", a.seed}, {"mean", a.count ? sum / a.count : 0.0}}.dump()
            << "\n";
}

void RunLookups(const Args& a) {
  sosd::ReadInfo info;
  gen::Keys keys = ReadOrDie(a.keys_path, true, &info), lookups;
  std::string err;
  if (!gen::MakeLookups(keys, a.count, a.negative_share, a.seed, &lookups, &err)) {
    Die(a.keys_path + ": " + err);
  }
  WriteOrDie(a.out, lookups);
  std::cout << json{{"count", a.count}, {"negative_share", a.negative_share}, {"seed", a.seed}}.dump() << "\n";
}

// Streamed: the real files can be larger than memory.
void RunDownsample(const Args& a) {
  uint64_t have = 0;
  std::string err;
  if (!sosd::ReadCount(a.in, &have, &err)) Die(err);
  uint64_t step = gen::DownsampleStep(have, a.count);
  gen::Keys down;
  down.reserve(have / step + 1);
  sosd::ReadInfo info;
  if (!sosd::ForEachKey(a.in, true, [&](uint64_t i, uint64_t k) {
        if (i % step == 0) down.push_back(k);
      }, &info, &err)) {
    Die(err);
  }
  WriteOrDie(a.out, down);
  json facts = Describe(down);
  facts["source_count"] = have;
  facts["source_duplicates"] = info.duplicates;
  facts["step"] = step;
  std::cout << facts.dump() << "\n";
}

void RunVerify(const Args& a) {
  sosd::ReadInfo info;
  auto t0 = Clock::now();
  gen::Keys keys = ReadOrDie(a.in, a.require_sorted, &info);
  double secs = Since(t0);
  json facts = Describe(keys);
  facts["duplicates"] = info.duplicates;
  facts["sorted"] = info.sorted;
  facts["seconds"] = secs;
  std::cout << facts.dump() << "\n";
}

void RunList() {
  json list = json::array();
  for (const gen::Generator& g : gen::Generators()) {
    list.push_back({{"name", g.name}, {"summary", g.summary}, {"stands_in_for", g.stands_in_for}});
  }
  std::cout << list.dump(2) << "\n";
}

void RunOps(const Args& a) {
  ycsb::Properties p;
  std::string err;
  if (!p.LoadFile(a.spec, &err)) Die(err);
  for (const std::string& o : a.overrides) {
    if (!p.SetOverride(o, &err)) Die(err);
  }
  auto w = ycsb::CoreWorkload::Create(p, a.seed, &err);
  if (w == nullptr) Die(err);
  uint64_t n = a.count ? a.count
                       : static_cast<uint64_t>(a.load ? w->insert_count() : w->operation_count());
  for (uint64_t i = 0; i < n; i++) {
    ycsb::Op op = a.load ? w->NextLoad() : w->NextTransaction();
    std::printf("%s %s %d\n", ycsb::OpTypeName(op.type), op.key.c_str(), op.scan_len);
  }
}

// The reader's rate, on a file of keys written to the scratch directory.
json BenchReader(const gen::Keys& keys, const std::string& dir) {
  std::string path = dir + "/datagen_bench_uint64";
  WriteOrDie(path, keys);
  sosd::ReadInfo info;
  double c0 = CpuSeconds();
  gen::Keys back = ReadOrDie(path, true, &info);
  double cpu = CpuSeconds() - c0;
  std::remove(path.c_str());
  std::fprintf(stderr, "%-22s %12.0f keys/s per core (page-cached file)\n", "reader", back.size() / cpu);
  return {{"what", "reader (sorted check)"}, {"keys_per_cpu_second", back.size() / cpu}};
}

void RunBench(const Args& a) {
  json report = json::array();
  for (const gen::Generator& g : gen::Generators()) {
    gen::Keys keys;
    json facts;
    Generate(g.name, a.count, 42, 64, {}, &keys, &facts);
    report.push_back({{"what", g.name}, {"keys_per_cpu_second", facts["keys_per_cpu_second"]}});
    std::fprintf(stderr, "%-22s %12.0f keys/s per core\n", g.name.c_str(),
                 facts["keys_per_cpu_second"].get<double>());
    if (g.name == "osm_like") report.push_back(BenchReader(keys, a.bench_dir));
  }
  ycsb::Properties p;
  std::string err;
  p.Set("recordcount", std::to_string(a.count), "bench", &err);
  p.Set("operationcount", std::to_string(a.count), "bench", &err);
  for (const char* d : {"uniform", "zipfian", "latest", "hotspot", "sequential", "exponential"}) {
    p.Set("requestdistribution", d, "bench", &err);
    p.Set("insertproportion", std::string(d) == "latest" ? "0.05" : "0", "bench", &err);
    auto w = ycsb::CoreWorkload::Create(p, 42, &err);
    double c0 = CpuSeconds();
    for (uint64_t i = 0; i < a.count; i++) w->NextTransaction();
    double rate = a.count / (CpuSeconds() - c0);
    report.push_back({{"what", std::string("ycsb ops ") + d}, {"ops_per_cpu_second", rate}});
    std::fprintf(stderr, "ycsb ops %-13s %12.0f ops/s per core\n", d, rate);
  }
  std::cout << report.dump() << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Generate, verify and downsample SOSD-format datasets; dump YCSB op streams."};
  app.require_subcommand(1);
  Args a;
  const Commands c = AddCommands(&app, &a);
  CLI11_PARSE(app, argc, argv);
  if (c.gen->parsed()) RunGen(a);
  else if (c.sizes->parsed()) RunSizes(a);
  else if (c.lookups->parsed()) RunLookups(a);
  else if (c.down->parsed()) RunDownsample(a);
  else if (c.verify->parsed()) RunVerify(a);
  else if (c.list->parsed()) RunList();
  else if (c.ops->parsed()) RunOps(a);
  else if (c.bench->parsed()) RunBench(a);
  return 0;
}

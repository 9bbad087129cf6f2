// lidx_bench: SOSD-style microbenchmark of every registered index against
// std::lower_bound on the same array, in the same process.
//
//   lidx_bench --n 10000000 --datasets uniform,lognormal,dense,fb_like
//       --indexes all --lookups 10000000 --csv out.csv
//   --indexes takes ids with optional knobs: pgm:epsilon=32,rs:epsilon=16
//
// A lookup is Index::LowerBound over the real array: Search() plus the
// binary last mile as in SOSD, or the index's own last mile (pgm).
// --repeat R interleaves R rounds of the baseline and every index and
// reports medians (the speedup: the median of the rounds' paired ratios).
// Every answer is compared with the precomputed lower_bound position and
// summed into a checksum, so no work can be optimized away and a wrong
// answer is reported, not timed. Lookup keys are present keys drawn
// uniformly (SOSD's default workload).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <time.h>

#include "lidx/registry.h"

namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// CPU time of this thread: on a shared machine wall time includes waiting
// for a core, so both are reported.
double ThreadCpu() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(sep, start);
    if (end == std::string::npos) end = s.size();
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// Synthetic datasets, deterministic in (name, n, seed).
std::vector<uint64_t> MakeDataset(const std::string& name, size_t n,
                                  uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> k(n);
  if (name == "uniform") {
    for (auto& v : k) v = rng();
  } else if (name == "dense") {
    for (size_t i = 0; i < n; ++i) k[i] = 1000 + i;
  } else if (name == "lognormal") {
    // SOSD's lognormal: lognormal(0, 2) scaled to integers (duplicates stay).
    std::lognormal_distribution<double> d(0.0, 2.0);
    for (auto& v : k) {
      double x = d(rng) * 1e9;
      v = x >= 1.8e19 ? ~uint64_t{0} : static_cast<uint64_t>(x);
    }
  } else if (name == "fb_like") {
    // Like SOSD's fb (Facebook user ids): a near-uniform, slightly bursty id
    // space, plus a heavy tail of 0.05% huge outliers spread up to 2^64.
    uint64_t cur = 1u << 20;
    std::geometric_distribution<uint64_t> gap(1.0 / 24);
    for (auto& v : k) {
      if (rng() % 2000 == 0) {
        v = (uint64_t{1} << 40) + (rng() >> 1) + (rng() >> 2);
      } else {
        cur += 1 + gap(rng) * (rng() % 64 == 0 ? 100 : 1);
        v = cur;
      }
    }
  } else {
    std::fprintf(stderr, "unknown dataset %s\n", name.c_str());
    std::exit(2);
  }
  std::sort(k.begin(), k.end());
  return k;
}

struct Row {
  std::string dataset, index, knobs;
  size_t n = 0;
  double ns_per_lookup = 0, build_s = 0, build_keys_per_s = 0;
  double cpu_ns_per_lookup = 0, build_cpu_s = 0;
  size_t bytes = 0, segments = 0, levels = 0, bad = 0;
  double avg_width = 0;
  double speedup = 0;  // lower_bound ns / this ns
};

struct Spec {
  std::string id;
  lidx::Options opts;
  std::string knobs;
};

Spec ParseSpec(const std::string& s) {
  Spec sp;
  auto parts = Split(s, ':');
  sp.id = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) {
    auto eq = parts[i].find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "bad knob '%s' (want k=v)\n", parts[i].c_str());
      std::exit(2);
    }
    sp.opts[parts[i].substr(0, eq)] = parts[i].substr(eq + 1);
    sp.knobs += (sp.knobs.empty() ? "" : " ") + parts[i];
  }
  return sp;
}

struct Args {
  size_t n = 10'000'000, lookups = 10'000'000, repeat = 1;
  uint64_t seed = 42;
  std::string datasets = "uniform,lognormal,dense,fb_like", indexes = "all",
              csv;
};

// False (after a usage line) on an unknown flag.
bool ParseArgs(int argc, char** argv, Args* a) {
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", flag.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (flag == "--n") a->n = std::strtoull(next().c_str(), nullptr, 10);
    else if (flag == "--lookups") a->lookups = std::strtoull(next().c_str(), nullptr, 10);
    else if (flag == "--datasets") a->datasets = next();
    else if (flag == "--indexes") a->indexes = next();
    else if (flag == "--csv") a->csv = next();
    else if (flag == "--seed") a->seed = std::strtoull(next().c_str(), nullptr, 10);
    else if (flag == "--repeat") a->repeat = std::max<size_t>(1, std::strtoull(next().c_str(), nullptr, 10));
    else {
      std::fprintf(stderr,
                   "usage: lidx_bench [--n N] [--lookups L] [--datasets a,b] "
                   "[--indexes all|id[:k=v...],...] [--csv file] [--seed S] "
                   "[--repeat R]\n");
      return false;
    }
  }
  return true;
}

std::vector<Spec> ParseSpecs(const std::string& indexes) {
  std::vector<Spec> specs;
  for (const std::string& s : Split(indexes, ',')) {
    if (s == "all") {
      for (const std::string& id : lidx::RegisteredIds()) specs.push_back({id, {}, ""});
    } else {
      specs.push_back(ParseSpec(s));
    }
  }
  return specs;
}

// Present keys drawn uniformly (SOSD's default workload), each with the
// position std::lower_bound gives it: the first of its duplicates.
struct Lookups {
  std::vector<uint64_t> keys;
  std::vector<uint32_t> want;  // n < 2^32 in this bench
};

Lookups MakeLookups(const std::vector<uint64_t>& keys, size_t lookups, uint64_t seed) {
  std::mt19937_64 rng(seed + 1);
  Lookups q{std::vector<uint64_t>(lookups), std::vector<uint32_t>(lookups)};
  for (size_t j = 0; j < lookups; ++j) {
    size_t i = rng() % keys.size();
    while (i > 0 && keys[i - 1] == keys[i]) --i;
    q.keys[j] = keys[i];
    q.want[j] = static_cast<uint32_t>(i);
  }
  return q;
}

struct Built {
  const Spec* spec;
  std::unique_ptr<lidx::Index<uint64_t>> idx;
  Row row;
  std::vector<double> wall, cpu, ratio;
};

// Every index built, with its row's build figures and the mean width of
// its bounds (outside any timed loop); an index that fails to build is
// reported and left out. False when an id is unknown.
bool BuildAll(const std::vector<Spec>& specs, const std::string& ds,
              const std::vector<uint64_t>& keys, const Lookups& q,
              std::vector<Built>* built) {
  const size_t n = keys.size(), lookups = q.keys.size();
  for (const Spec& sp : specs) {
    std::string err;
    auto idx = lidx::MakeIndex<uint64_t>(sp.id, sp.opts, &err);
    if (!idx) {
      std::fprintf(stderr, "%s\n", err.c_str());
      return false;
    }
    double c1 = ThreadCpu();
    auto t1 = Clock::now();
    lidx::Status st = idx->Build(keys.data(), n, nullptr);
    double build_s = Since(t1);
    double build_cpu = ThreadCpu() - c1;
    if (!st.ok()) {
      std::fprintf(stderr, "%s build failed: %s\n", sp.id.c_str(),
                   st.message().c_str());
      continue;
    }
    uint64_t width = 0;
    for (size_t j = 0; j < lookups; ++j) {
      lidx::Bound b = idx->Search(q.keys[j]);
      width += b.hi - b.lo;
    }
    Row r{ds, sp.id, sp.knobs, n, 0, build_s, n / build_cpu, 0, build_cpu,
          idx->MemoryBytes(), idx->Stats().segments, idx->Stats().levels, 0,
          double(width) / lookups, 0};
    built->push_back(Built{&sp, std::move(idx), r, {}, {}, {}});
  }
  return true;
}

// `repeat` rounds, each timing the baseline and then every index on the
// same lookups, back to back: on a shared machine the load drifts between
// rounds, so a speedup is the median of the rounds' paired ratios, not a
// ratio of two medians. Returns the baseline's row.
Row TimeRounds(const std::string& ds, const std::vector<uint64_t>& keys,
               const Lookups& q, size_t repeat, std::vector<Built>* built) {
  const size_t lookups = q.keys.size();
  std::vector<double> base_wall, base_cpu;
  uint64_t base_bad = 0;
  for (size_t round = 0; round < repeat; ++round) {
    uint64_t sum = 0, bad = 0;
    double c1 = ThreadCpu();
    auto t1 = Clock::now();
    for (size_t j = 0; j < lookups; ++j) {
      size_t p = std::lower_bound(keys.begin(), keys.end(), q.keys[j]) - keys.begin();
      sum += p;
      bad += p != q.want[j];
    }
    base_wall.push_back(Since(t1) * 1e9 / lookups);
    base_cpu.push_back((ThreadCpu() - c1) * 1e9 / lookups);
    base_bad += bad;
    std::fprintf(stderr, "  checksum %llu\n", static_cast<unsigned long long>(sum));
    for (Built& b : *built) {
      // Search() plus the index's last mile over the real array
      // (Index::LowerBound: the binary one unless the index has its own).
      sum = 0;
      bad = 0;
      double c2 = ThreadCpu();
      auto t2 = Clock::now();
      for (size_t j = 0; j < lookups; ++j) {
        size_t p = b.idx->LowerBound(keys.data(), q.keys[j]);
        sum += p;
        bad += p != q.want[j];
      }
      b.wall.push_back(Since(t2) * 1e9 / lookups);
      b.cpu.push_back((ThreadCpu() - c2) * 1e9 / lookups);
      // Speedup from CPU time: contention-free on one core.
      b.ratio.push_back(base_cpu.back() / b.cpu.back());
      b.row.bad += bad;
      std::fprintf(stderr, "  checksum %llu\n", static_cast<unsigned long long>(sum));
    }
  }
  return Row{ds, "lower_bound", "", keys.size(), Median(base_wall), 0, 0, Median(base_cpu),
             0, 0, 0, 0, base_bad, 0, 1.0};
}

void PrintHeader() {
  std::printf("%-10s %-6s %-22s %9s %9s %8s %13s %10s %12s %9s %8s\n",
              "dataset", "index", "knobs", "wall_ns", "cpu_ns", "speedup",
              "size_bytes", "build_cpu_s", "build_keys/s", "segments",
              "avg_w");
}

void PrintBaseline(const Row& base) {
  std::printf("%-10s %-6s %-22s %9.1f %9.1f %8.2f %13s %10s %12s %9s %8s\n",
              base.dataset.c_str(), "lb", "std::lower_bound", base.ns_per_lookup,
              base.cpu_ns_per_lookup, 1.0, "0", "-", "-", "-", "-");
}

void PrintRow(const Row& r) {
  std::printf("%-10s %-6s %-22s %9.1f %9.1f %8.2f %13zu %10.3f %12.3g %9zu %8.1f%s\n",
              r.dataset.c_str(), r.index.c_str(),
              r.knobs.empty() ? "defaults" : r.knobs.c_str(),
              r.ns_per_lookup, r.cpu_ns_per_lookup, r.speedup, r.bytes,
              r.build_cpu_s,
              r.build_keys_per_s, r.segments, r.avg_width,
              r.bad ? "  WRONG ANSWERS" : "");
  if (r.bad) std::fprintf(stderr, "%s: %llu wrong answers\n", r.index.c_str(),
                          static_cast<unsigned long long>(r.bad));
}

void WriteCsv(const std::string& path, const std::vector<Row>& rows) {
  std::ofstream out(path);
  out << "dataset,index,knobs,n,wall_ns_per_lookup,cpu_ns_per_lookup,"
         "speedup_vs_lower_bound_cpu,size_bytes,build_wall_seconds,"
         "build_cpu_seconds,build_keys_per_cpu_second,segments,levels,"
         "avg_bound_width,wrong_answers\n";
  for (const Row& r : rows) {
    out << r.dataset << "," << r.index << ",\"" << r.knobs << "\"," << r.n
        << "," << r.ns_per_lookup << "," << r.cpu_ns_per_lookup << ","
        << r.speedup << "," << r.bytes << "," << r.build_s << ","
        << r.build_cpu_s << "," << r.build_keys_per_s << ","
        << r.segments << "," << r.levels << "," << r.avg_width << ","
        << r.bad << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, &args)) return 2;
  const std::vector<Spec> specs = ParseSpecs(args.indexes);
  std::vector<Row> rows;
  PrintHeader();
  for (const std::string& ds : Split(args.datasets, ',')) {
    auto t0 = Clock::now();
    std::vector<uint64_t> keys = MakeDataset(ds, args.n, args.seed);
    std::fprintf(stderr, "[%s] generated %zu keys in %.1fs\n", ds.c_str(), args.n,
                 Since(t0));
    const Lookups q = MakeLookups(keys, args.lookups, args.seed);
    std::vector<Built> built;
    if (!BuildAll(specs, ds, keys, q, &built)) return 2;
    const Row base = TimeRounds(ds, keys, q, args.repeat, &built);
    rows.push_back(base);
    PrintBaseline(base);
    for (Built& b : built) {
      Row& r = b.row;
      r.ns_per_lookup = Median(b.wall);
      r.cpu_ns_per_lookup = Median(b.cpu);
      r.speedup = Median(b.ratio);
      rows.push_back(r);
      PrintRow(r);
    }
    std::fflush(stdout);
  }
  if (!args.csv.empty()) WriteCsv(args.csv, rows);
  for (const Row& r : rows) {
    if (r.bad) return 1;
  }
  return 0;
}

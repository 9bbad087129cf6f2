// RMI's leaf sizing, before and after issue 34 side by side in one process
// (a benchmark, not a test): per table of n keys, the retrain loop that
// doubled or halved the leaves until the mean bound width held the
// boundary (TuneRmiLeaves, as it was) against SizeRmiLeaves (one
// corrective training). Prints trainings, leaves, mean width, bytes a key
// and thread-CPU seconds for each. Build (LevelDB-free: the sizing and the
// config parser depend on lidx only):
//   g++ -std=gnu++17 -O2 -I indexes/include -I engines/leveldb-learned/overlay \
//     engines/leveldb-learned/bench/rmi_sizing_bench.cc \
//     engines/leveldb-learned/overlay/layers/learned/{rmi_leaves,learned_table_config}.cc \
//     -o rmi_sizing_bench
//   ./rmi_sizing_bench            # decimal24, lognormal, uniform; tables of 2k and 120k keys
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "layers/learned/rmi_leaves.h"
#include "lidx/key_map.h"
#include "lidx/registry.h"

namespace {

using leveldb::LearnedTableConfig;
using Idx = std::unique_ptr<lidx::Index<uint64_t>>;

double CpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

Idx Build(const std::vector<uint64_t>& keys, uint64_t leaves) {
  std::string err;
  Idx m = lidx::MakeIndex<uint64_t>("rmi", {{"leaves", std::to_string(leaves)}}, &err);
  m->Build(keys.data(), keys.size(), nullptr);
  return m;
}

// The loop this replaced (engines/leveldb-learned before issue 34): from
// n / boundary leaves, double until the mean width holds (at most n), or
// halve while it still holds.
Idx OldLoop(const std::vector<uint64_t>& keys, uint64_t boundary, uint64_t* trainings) {
  const uint64_t n = keys.size();
  uint64_t leaves = std::max<uint64_t>(1, n / boundary);
  Idx model = Build(keys, leaves);
  *trainings = 1;
  if (leveldb::MeanBoundWidth(*model, keys) > boundary) {
    while (leaves < n) {
      leaves = std::min(n, leaves * 2);
      model = Build(keys, leaves);
      ++*trainings;
      if (leveldb::MeanBoundWidth(*model, keys) <= boundary) break;
    }
    return model;
  }
  while (leaves > 1) {
    leaves /= 2;
    Idx m = Build(keys, leaves);
    ++*trainings;
    if (leveldb::MeanBoundWidth(*m, keys) > boundary) break;
    model = std::move(m);
  }
  return model;
}

Idx NewSizing(const std::vector<uint64_t>& keys, uint64_t boundary, uint64_t* trainings) {
  LearnedTableConfig c;
  c.index = "rmi";
  c.position_boundary = boundary;
  Idx model = Build(keys, std::max<uint64_t>(1, keys.size() / boundary));
  *trainings = 1;
  std::string err;
  leveldb::SizeRmiLeaves(c, keys, &model, trainings, &err);
  return model;
}

// Sorted mapped keys of one table: decimal24 (lsmbench's zero-padded
// decimal keys minus their common prefix, as the engine maps them),
// lognormal or uniform 64-bit integers.
std::vector<uint64_t> TableKeys(const std::string& kind, uint64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> ints(n);
  if (kind == "decimal24") {
    // Consecutive-ish ids, as one table of a uniform load holds.
    uint64_t base = 1000000 + seed * 7919;
    for (auto& k : ints) k = base + rng() % (n * 50);
  } else if (kind == "lognormal") {
    std::lognormal_distribution<double> d(0, 2);
    for (auto& k : ints) k = static_cast<uint64_t>(d(rng) * 1e12);
  } else {
    for (auto& k : ints) k = rng();
  }
  std::sort(ints.begin(), ints.end());
  if (kind != "decimal24") return ints;
  std::vector<std::string> s(n);
  for (uint64_t i = 0; i < n; i++) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%024llu", static_cast<unsigned long long>(ints[i]));
    s[i] = buf;
  }
  size_t p = 0;
  while (p < s.front().size() && s.front()[p] == s.back()[p]) p++;
  std::vector<std::string_view> suffixes(n);
  for (uint64_t i = 0; i < n; i++) suffixes[i] = std::string_view(s[i]).substr(p);
  const lidx::KeyMap map = lidx::ChooseKeyMap(suffixes);
  std::vector<uint64_t> mapped(n);
  for (uint64_t i = 0; i < n; i++) mapped[i] = lidx::MapKey(map, suffixes[i]);
  return mapped;
}

}  // namespace

int main() {
  std::printf("%-10s %7s %3s | %-34s | %-34s\n", "keys", "n", "b", "before: trainings leaves width B/key cpu_s",
              "after: trainings leaves width B/key cpu_s");
  for (const char* kind : {"decimal24", "lognormal", "uniform"}) {
    for (uint64_t n : {2000, 120000}) {
      for (uint64_t boundary : {8, 16, 128}) {
        const std::vector<uint64_t> keys = TableKeys(kind, n, n + boundary);
        uint64_t t_old = 0, t_new = 0;
        const double c0 = CpuSeconds();
        Idx a = OldLoop(keys, boundary, &t_old);
        const double c1 = CpuSeconds();
        Idx b = NewSizing(keys, boundary, &t_new);
        const double c2 = CpuSeconds();
        auto leaves = [](const Idx& m) { return m->Stats().segments; };
        std::printf("%-10s %7llu %3llu | %2llu %7zu %6.1f %5.2f %7.4f | %2llu %7zu %6.1f %5.2f %7.4f\n",
                    kind, (unsigned long long)n, (unsigned long long)boundary,
                    (unsigned long long)t_old, leaves(a), leveldb::MeanBoundWidth(*a, keys),
                    double(a->MemoryBytes()) / n, c1 - c0, (unsigned long long)t_new, leaves(b),
                    leveldb::MeanBoundWidth(*b, keys), double(b->MemoryBytes()) / n, c2 - c1);
      }
    }
  }
  return 0;
}

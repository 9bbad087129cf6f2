// Dumps every request stream the driver can generate, for a before/after
// byte comparison of MakeYcsbStream (and the untouched point/diff streams).
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ops.h"
#include "ycsb_stream.h"

using namespace lsmbench;

// FNV-1a over everything printed for a case: one digest line a case.
struct Digest {
  uint64_t h = 1469598103934665603ull;
  void Add(const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  }
  void Add(uint64_t v) { Add(std::to_string(v) + ","); }
};

static void DumpOps(const std::vector<Op>& ops, Digest* d) {
  for (const Op& o : ops) {
    d->Add(uint64_t(o.type));
    d->Add(uint64_t(o.expect));
    d->Add(uint64_t(o.scan_len));
    d->Add(o.key);
  }
  d->Add("ops" + std::to_string(ops.size()));
}

int main(int argc, char** argv) {
  const std::string root = argv[1];  // repository root
  std::vector<std::vector<uint64_t>> datasets;
  {
    std::vector<uint64_t> a;
    for (uint64_t i = 0; i < 20000; i++) a.push_back(i * 7 + 3);
    datasets.push_back(a);
    std::mt19937_64 rng(5);
    std::set<uint64_t> s;
    while (s.size() < 30000) s.insert(rng());
    datasets.emplace_back(s.begin(), s.end());
    std::vector<uint64_t> dense;
    for (uint64_t i = 0; i < 3000; i++) dense.push_back(i);
    datasets.push_back(dense);
  }
  const char* specs[] = {"workloada", "workloadb", "workloadc", "workloadd", "workloade", "workloadf",
                         "doblix_balanced", "doblix_read_heavy", "doblix_read_only",
                         "doblix_write_heavy", "doblix_write_only", "no_such_spec"};
  std::vector<std::vector<std::string>> overrides = {
      {},
      {"requestdistribution=zipfian"},
      {"requestdistribution=uniform"},
      {"requestdistribution=latest"},
      {"insertorder=ordered"},
      {"insertorder=ordered", "requestdistribution=latest"},
      {"scanproportion=0.3", "readproportion=0.7", "updateproportion=0", "insertproportion=0",
       "maxscanlength=50", "scanlengthdistribution=zipfian"},
      {"insertproportion=0.4", "readproportion=0.6", "updateproportion=0"},
      {"readmodifywriteproportion=0.5", "readproportion=0.5", "updateproportion=0"},
      {"maxexecutiontime=30", "fieldcount=3", "fieldlength=17"},
      {"recordcount=5"},
      {"requestdistribution=hotspot", "hotspotdatafraction=0.1", "hotspotopnfraction=0.9"},
  };
  std::vector<Holdout> holdouts(4);
  holdouts[1].share = 0.1;
  holdouts[2].share = 0.5;
  holdouts[2].seed = 9;
  holdouts[2].seeded = true;
  holdouts[3].share = 0.001;  // below some workloads' own share: an error
  int cases = 0, failed = 0;
  for (size_t d = 0; d < datasets.size(); d++) {
    for (const char* spec : specs) {
      for (size_t o = 0; o < overrides.size(); o++) {
        for (size_t h = 0; h < holdouts.size(); h++) {
          for (uint64_t seed : {1ull, 42ull}) {
            for (uint64_t ops : {0ull, 2500ull, 20000ull}) {
              YcsbStream s;
              std::string err;
              bool ok = MakeYcsbStream(datasets[d], root + "/workloads/ycsb/" + spec, overrides[o],
                                       ops, seed, holdouts[h], &s, &err);
              cases++;
              failed += !ok;
              std::printf("case d=%zu %s o=%zu h=%zu seed=%llu ops=%llu ok=%d err=%s\n", d, spec, o,
                          h, (unsigned long long)seed, (unsigned long long)ops, ok, err.c_str());
              if (!ok) continue;
              Digest dg;
              for (uint64_t k : s.load_keys) dg.Add(k);
              dg.Add(s.load_keys.size());
              DumpOps(s.ops, &dg);
              std::printf("  load %zu ops %zu value_bytes %zu max_exec %llu digest %016llx info %s\n",
                          s.load_keys.size(), s.ops.size(), s.value_bytes,
                          (unsigned long long)s.max_execution_seconds, (unsigned long long)dg.h,
                          s.info.dump().c_str());
            }
          }
        }
      }
    }
    for (double neg : {0.0, 0.1, 0.5, 1.0}) {
      std::vector<Op> ops;
      std::string err;
      bool ok = PointLookups(datasets[d], 20000, neg, 7, &ops, &err);
      Digest dg;
      DumpOps(ops, &dg);
      std::printf("point d=%zu neg=%g ok=%d err=%s digest %016llx\n", d, neg, ok, err.c_str(),
                  (unsigned long long)dg.h);
    }
    Digest dg;
    DumpOps(DiffStream(datasets[d], 20000, 3), &dg);
    std::printf("diff d=%zu digest %016llx\n", d, (unsigned long long)dg.h);
  }
  std::fprintf(stderr, "%d cases, %d refused\n", cases, failed);
}

// SSTable creation cost of the DobLIX table against the block-based table,
// side by side in one process (a benchmark: it prints, it does not judge).
// Each round writes the same tables of consecutive keys of a SOSD dataset
// with RocksDB's SstFileWriter, once per factory, in alternating order, then
// reads each table back in order with an iterator (what a compaction does
// with its inputs), then seeks it at random present keys (index and
// in-block search; the blocks come from the page cache). Thread CPU time is reported, the fair number on a
// shared machine; DobLIX's own split (training, serialization) comes from
// its table properties.
//
//   engines/rocksdb-doblix/build_bench.sh DATASET [be64|be64_pad56] [TABLES] [ENTRIES] [ROUNDS] [MODELS]
// MODELS: the DobLIX table's models to compare, comma-separated (default
// pla,pra; also agent, bourbon, tridentkv). Each line also gives the mean
// data block bytes (data size / blocks), what the baselines' block sizing
// decides.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "rocksdb/convenience.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table.h"

using namespace ROCKSDB_NAMESPACE;

namespace {

double CpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

std::vector<uint64_t> ReadSosd(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  uint64_t n = 0;
  if (!in.read(reinterpret_cast<char*>(&n), 8)) {
    fprintf(stderr, "error: %s: cannot read the SOSD header (uint64 count)\n", path.c_str());
    exit(2);
  }
  std::vector<uint64_t> keys(n);
  if (!in.read(reinterpret_cast<char*>(keys.data()), static_cast<std::streamsize>(n * 8))) {
    fprintf(stderr, "error: %s: expected %" PRIu64 " uint64 keys\n", path.c_str(), n);
    exit(2);
  }
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

std::string Encode(uint64_t k, size_t width) {
  std::string s(width, '\0');
  for (size_t i = 0; i < 8; i++) s[width - 1 - i] = static_cast<char>(k >> (8 * i));
  return s;
}

struct Cost {
  double write_cpu = 0, read_cpu = 0, seek_cpu = 0;
  uint64_t seeks = 0;
  uint64_t bytes = 0, train_us = 0, serialize_us = 0;
  uint64_t data_bytes = 0, data_blocks = 0;
};

void Round(const std::string& name, const Options& opt, const std::vector<uint64_t>& keys,
           size_t width, size_t tables, size_t entries, const std::string& dir, Cost* cost) {
  const std::string value(64, 'v');
  for (size_t t = 0; t < tables; t++) {
    const std::string file = dir + "/" + name + std::to_string(t) + ".sst";
    SstFileWriter writer(EnvOptions(), opt);
    double c0 = CpuSeconds();
    Status s = writer.Open(file);
    for (size_t i = t * entries; s.ok() && i < (t + 1) * entries && i < keys.size(); i++) {
      s = writer.Put(Encode(keys[i], width), value);
    }
    ExternalSstFileInfo info;
    if (s.ok()) s = writer.Finish(&info);
    cost->write_cpu += CpuSeconds() - c0;
    if (!s.ok()) {
      fprintf(stderr, "error: %s table %zu: %s\n", name.c_str(), t, s.ToString().c_str());
      exit(1);
    }
    cost->bytes += info.file_size;

    SstFileReader reader(opt);
    c0 = CpuSeconds();
    s = reader.Open(file);
    ReadOptions ro;
    ro.fill_cache = false;  // as compaction inputs are read
    std::unique_ptr<Iterator> it(reader.NewIterator(ro));
    size_t n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) n += it->key().size() + it->value().size();
    cost->read_cpu += CpuSeconds() - c0;
    if (!s.ok() || !it->status().ok() || n == 0) {
      fprintf(stderr, "error: %s table %zu read back: %s\n", name.c_str(), t,
              it->status().ToString().c_str());
      exit(1);
    }
    std::vector<std::string> probes;
    for (size_t i = 0; i < 2000; i++) {
      probes.push_back(Encode(keys[t * entries + (i * 7919) % entries], width));
    }
    c0 = CpuSeconds();
    for (const std::string& p : probes) {
      it->Seek(p);
      if (!it->Valid() || it->key() != p) {
        fprintf(stderr, "error: %s table %zu: seek missed a present key\n", name.c_str(), t);
        exit(1);
      }
    }
    cost->seek_cpu += CpuSeconds() - c0;
    cost->seeks += probes.size();
    auto props = reader.GetTableProperties();
    cost->data_bytes += props->data_size;
    cost->data_blocks += props->num_data_blocks;
    auto u = props->user_collected_properties.find("doblix.train_micros");
    if (u != props->user_collected_properties.end()) cost->train_us += std::stoull(u->second);
    u = props->user_collected_properties.find("doblix.serialize_micros");
    if (u != props->user_collected_properties.end()) cost->serialize_us += std::stoull(u->second);
    it.reset();
    unlink(file.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s DATASET [be64|be64_pad56] [TABLES] [ENTRIES] [ROUNDS] [MODELS]\n",
            argv[0]);
    return 2;
  }
  const std::string encoding = argc > 2 ? argv[2] : "be64";
  if (encoding != "be64" && encoding != "be64_pad56") {
    fprintf(stderr, "error: key encoding '%s': expected be64 or be64_pad56\n", encoding.c_str());
    return 2;
  }
  const size_t width = encoding == "be64" ? 8 : 64;
  const size_t tables = argc > 3 ? strtoull(argv[3], nullptr, 10) : 40;
  const size_t entries = argc > 4 ? strtoull(argv[4], nullptr, 10) : 25000;
  const int rounds = argc > 5 ? atoi(argv[5]) : 3;
  std::vector<std::string> specs = {"id=BlockBasedTable"};
  {
    std::string models = argc > 6 ? argv[6] : "pla,pra";
    for (size_t at = 0; at <= models.size();) {
      size_t comma = models.find(',', at);
      if (comma == std::string::npos) comma = models.size();
      specs.push_back("id=DoblixTable;model=" + models.substr(at, comma - at));
      at = comma + 1;
    }
  }
  std::vector<uint64_t> keys = ReadSosd(argv[1]);
  // Tables spread over the dataset: every stride-th key, consecutive in a table.
  const size_t want = tables * entries;
  if (keys.size() < want) {  // e.g. WIKI: 5M keys, 3.03M distinct
    fprintf(stderr,
            "error: %s: %zu tables x %zu entries need %zu distinct keys; the dataset has %zu\n",
            argv[1], tables, entries, want, keys.size());
    return 2;
  }
  if (keys.size() > want) {
    std::vector<uint64_t> picked;
    for (size_t i = 0; i < want; i++) picked.push_back(keys[i * (keys.size() / want)]);
    keys.swap(picked);
  }
  std::map<std::string, Options> factories;
  ConfigOptions cfg;
  cfg.ignore_unsupported_options = false;
  for (const std::string& spec : specs) {
    // DOBLIX_BENCH_ONLY=pla: one factory only (for a profiler).
    const char* only = getenv("DOBLIX_BENCH_ONLY");
    if (only != nullptr && strstr(spec.c_str(), only) == nullptr) continue;
    Options opt;
    opt.compression = kNoCompression;
    Status s = TableFactory::CreateFromString(cfg, spec, &opt.table_factory);
    if (!s.ok() || opt.table_factory == nullptr) {
      fprintf(stderr, "error: table factory %s: %s\n", spec.c_str(), s.ToString().c_str());
      return 1;
    }
    factories[spec] = opt;
  }
  char tmpl[] = "/tmp/doblix_build_bench_XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  std::map<std::string, Cost> costs;
  for (int r = 0; r < rounds; r++) {
    // Alternate the order so neither factory always runs on a warmer machine.
    std::vector<std::string> order;
    for (auto& f : factories) order.push_back(f.first);
    if (r % 2 == 1) std::reverse(order.begin(), order.end());
    for (const std::string& spec : order) {
      Round(spec == "id=BlockBasedTable" ? "block" : "doblix", factories[spec], keys, width,
            tables, entries, dir, &costs[spec]);
    }
  }
  rmdir(dir.c_str());
  Cost base = costs.count("id=BlockBasedTable") ? costs["id=BlockBasedTable"] : costs.begin()->second;
  printf("%s, %s keys, %zu tables x %zu entries, %d rounds (thread CPU seconds, summed)\n",
         argv[1], encoding.c_str(), tables, entries, rounds);
  for (auto& [spec, c] : costs) {
    printf("%-28s write %7.3f s (x%.2f)  read %7.3f s (x%.2f)  seek %6.0f ns (x%.2f)  "
           "file MiB %7.1f  mean block %6.0f B",
           spec.c_str(), c.write_cpu, c.write_cpu / base.write_cpu, c.read_cpu,
           c.read_cpu / base.read_cpu, c.seek_cpu / c.seeks * 1e9, c.seek_cpu / base.seek_cpu,
           c.bytes / 1048576.0, c.data_blocks > 0 ? double(c.data_bytes) / c.data_blocks : 0.0);
    if (c.train_us + c.serialize_us > 0) {
      printf("  train %.3f s  serialize %.3f s", c.train_us / 1e6, c.serialize_us / 1e6);
    }
    printf("\n");
  }
  return 0;
}

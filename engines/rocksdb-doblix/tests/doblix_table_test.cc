// Round-trip, model-bound and corruption tests of the DobLIX table through
// RocksDB's public API, against std::map as the oracle and against the
// block-based table on the same operations; the agent hearing scans. Built by
// engines/rocksdb-doblix/run_tests.sh against the engine's librocksdb.a.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/perf_level.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/object_registry.h"

#include "check.h"
using namespace ROCKSDB_NAMESPACE;

namespace {

using doblix_test::failures;

std::shared_ptr<TableFactory> Factory(const std::string& spec) {
  ConfigOptions cfg;
  cfg.ignore_unsupported_options = false;
  std::shared_ptr<TableFactory> f;
  Status s = TableFactory::CreateFromString(cfg, spec, &f);
  if (!s.ok() || f == nullptr) {
    fprintf(stderr, "cannot create table factory '%s': %s\n", spec.c_str(), s.ToString().c_str());
    exit(1);
  }
  return f;
}

// A new, empty database at `dir` with `opt` (whatever was there removed).
std::unique_ptr<DB> OpenEmpty(const Options& opt, const std::string& dir,
                              const std::string& label) {
  DestroyDB(dir, opt);
  DB* raw = nullptr;
  CHECK(DB::Open(opt, dir, &raw).ok(), "%s open", label.c_str());
  if (raw == nullptr) exit(1);  // nothing to test without it
  return std::unique_ptr<DB>(raw);
}

// Keys of several shapes: 8-byte big-endian integers (with runs near 0 and
// 2^64-1), long keys sharing a prefix, short variable strings, and 64-byte
// keys sharing long parts at several depths (the string index's children).
std::string RandomKey(std::mt19937_64& rng, int shape) {
  std::string k;
  uint64_t v = rng();
  switch (shape) {
    case 0: {
      uint64_t r = rng() % 4;
      if (r == 0) v %= 300;
      if (r == 1) v = ~uint64_t{0} - v % 300;
      for (int i = 7; i >= 0; i--) k.push_back(static_cast<char>(v >> (8 * i)));
      break;
    }
    case 1:
      k = "user:profile:000000000000:" + std::to_string(v % 5000);
      k.resize(64, 'x');
      break;
    case 2:
      k.assign(1 + rng() % 12, 'a');
      for (char& c : k) c = static_cast<char>('a' + rng() % 3);
      break;
    default: {
      // tenant / region / a long constant part / id: a table spanning
      // several regions has runs of hundreds of keys sharing 8 bytes.
      static const char* kTenants[] = {"alpha", "beta", "gamma"};
      char tail[48];
      snprintf(tail, sizeof(tail), "%02d/constant-part/%05d/v", static_cast<int>(v % 30),
               static_cast<int>((v >> 8) % 1000));
      k = std::string("org/") + kTenants[rng() % 3] + "/" + tail;
      k.resize(64, '#');
    }
  }
  return k;
}

void CompareIterators(DB* db, const std::map<std::string, std::string>& oracle,
                      std::mt19937_64& rng, int shape, const std::string& label) {
  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  // Full scans both ways.
  auto o = oracle.begin();
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++o) {
    CHECK(o != oracle.end() && it->key() == o->first && it->value() == o->second, "%s scan",
          label.c_str());
    if (o == oracle.end()) break;
  }
  CHECK(o == oracle.end() && it->status().ok(), "%s scan end", label.c_str());
  auto r = oracle.rbegin();
  for (it->SeekToLast(); it->Valid(); it->Prev(), ++r) {
    CHECK(r != oracle.rend() && it->key() == r->first, "%s reverse scan", label.c_str());
    if (r == oracle.rend()) break;
  }
  CHECK(r == oracle.rend(), "%s reverse scan end", label.c_str());
  // Seeks and SeekForPrevs of random, present and edge keys.
  std::vector<std::string> targets = {"", std::string(1, '\0'), std::string(8, '\xff'),
                                      std::string(9, '\xff')};
  for (int i = 0; i < 400; i++) targets.push_back(RandomKey(rng, shape));
  int n = 0;
  for (auto& kv : oracle) {
    if (n++ % 2 == 0) targets.push_back(kv.first);
  }
  for (const std::string& t : targets) {
    it->Seek(t);
    auto lb = oracle.lower_bound(t);
    CHECK(it->Valid() == (lb != oracle.end()) && (!it->Valid() || it->key() == lb->first),
          "%s Seek", label.c_str());
    if (it->Valid() && lb != oracle.end()) {
      it->Next();
      ++lb;
      CHECK(it->Valid() == (lb != oracle.end()) && (!it->Valid() || it->key() == lb->first),
            "%s Seek+Next", label.c_str());
    }
    it->SeekForPrev(t);
    auto ub = oracle.upper_bound(t);
    bool has = ub != oracle.begin();
    if (has) --ub;
    CHECK(it->Valid() == has && (!has || it->key() == ub->first),
          "%s SeekForPrev(%s): got %s, expected %s", label.c_str(), Slice(t).ToString(true).c_str(),
          it->Valid() ? it->key().ToString(true).c_str() : "end",
          has ? Slice(ub->first).ToString(true).c_str() : "begin");
    if (it->Valid() && has) {
      it->Prev();
      bool has2 = ub != oracle.begin();
      if (has2) --ub;
      CHECK(it->Valid() == has2 && (!has2 || it->key() == ub->first), "%s SeekForPrev+Prev",
            label.c_str());
    }
  }
  CHECK(it->status().ok(), "%s iterator status %s", label.c_str(),
        it->status().ToString().c_str());
}

// Random puts (overwrites), deletes, single deletes and range deletes with
// flushes and compactions; every Get and iterator answer is checked.
void RoundTrip(const std::string& spec, int shape, uint64_t seed) {
  std::string label = spec + " shape " + std::to_string(shape);
  std::string dir = "/tmp/doblix_table_test_" + std::to_string(getpid());
  Options opt;
  opt.create_if_missing = true;
  opt.write_buffer_size = 64 << 10;
  opt.target_file_size_base = 128 << 10;
  opt.table_factory = Factory(spec);
  // Long string keys run with a prefix extractor: without prefix filters
  // prefix-mode seeks must give the total-order answers, as the block-based
  // table's do (run this test with id=BlockBasedTable to see).
  if (shape == 1) opt.prefix_extractor.reset(NewFixedPrefixTransform(13));
  DestroyDB(dir, opt);
  DB* raw = nullptr;
  Status s = DB::Open(opt, dir, &raw);
  CHECK(s.ok(), "%s open: %s", label.c_str(), s.ToString().c_str());
  if (!s.ok()) return;
  std::unique_ptr<DB> db(raw);
  std::map<std::string, std::string> oracle;
  std::mt19937_64 rng(seed);
  const SequenceNumber kOps = 30000;
  for (SequenceNumber i = 0; i < kOps; i++) {
    std::string k = RandomKey(rng, shape);
    uint64_t op = rng() % 100;
    if (op < 75) {
      std::string v(rng() % 200, static_cast<char>('A' + i % 26));
      v += std::to_string(i);
      s = db->Put(WriteOptions(), k, v);
      oracle[k] = v;
    } else if (op < 95) {
      s = db->Delete(WriteOptions(), k);
      oracle.erase(k);
    } else if (!oracle.empty() && getenv("NO_DELRANGE") == nullptr) {
      std::string e = RandomKey(rng, shape);
      if (e < k) std::swap(e, k);
      if (shape == 3) {
        // Narrow ranges (up to 3 keys), so long runs survive to the end.
        auto it = oracle.lower_bound(k);
        for (int n = 0; n < 3 && it != oracle.end(); n++) ++it;
        e = it == oracle.end() ? e : it->first;
      }
      s = db->DeleteRange(WriteOptions(), db->DefaultColumnFamily(), k, e);
      oracle.erase(oracle.lower_bound(k), oracle.lower_bound(e));
    }
    CHECK(s.ok(), "%s write: %s", label.c_str(), s.ToString().c_str());
    if (i % 10000 == 9999) {
      db->Flush(FlushOptions());
      if (i == kOps - 1) db->CompactRange(CompactRangeOptions(), nullptr, nullptr);
    }
  }
  // Point lookups: every present key, random and edge absent keys.
  std::string v;
  for (auto& kv : oracle) {
    s = db->Get(ReadOptions(), kv.first, &v);
    CHECK(s.ok() && v == kv.second, "%s Get present %s: %s", label.c_str(),
          Slice(kv.first).ToString(true).c_str(), s.ToString().c_str());
  }
  for (int i = 0; i < 3000; i++) {
    std::string k = RandomKey(rng, shape);
    if (i % 3 == 0) k.push_back('\0');
    s = db->Get(ReadOptions(), k, &v);
    auto f = oracle.find(k);
    CHECK((f == oracle.end()) == s.IsNotFound() && (f == oracle.end() || v == f->second),
          "%s Get random: %s", label.c_str(), s.ToString().c_str());
  }
  CompareIterators(db.get(), oracle, rng, shape, label);
  if (shape == 3 && (spec.find("pla") != std::string::npos || spec.find("pra") != std::string::npos)) {
    // These keys share 8-byte chunks in long runs: the string index must
    // have grown child nodes, and the lookups above went through them.
    TablePropertiesCollection props;
    db->GetPropertiesOfAllTables(&props);
    uint64_t most = 0;
    for (auto& p : props) {
      auto n = p.second->user_collected_properties.find("doblix.index_nodes");
      if (n != p.second->user_collected_properties.end()) {
        most = std::max<uint64_t>(most, std::stoull(n->second));
      }
    }
    CHECK(most > 1, "%s: no table with child nodes in its string index", label.c_str());
  }
  // Reopen reads the tables from their files again.
  db.reset();
  s = DB::Open(opt, dir, &raw);
  CHECK(s.ok(), "%s reopen: %s", label.c_str(), s.ToString().c_str());
  db.reset(raw);
  CompareIterators(db.get(), oracle, rng, shape, label + " reopened");
  s = db->VerifyChecksum();
  CHECK(s.ok(), "%s VerifyChecksum: %s", label.c_str(), s.ToString().c_str());
  db.reset();
  DestroyDB(dir, opt);
}

// Flips one byte of the only table at `where` (data or model block) and
// requires every answer afterwards to be an error or the right value:
// a damaged table gives a Status error, never a wrong answer.
void Corruption(const std::string& spec, bool in_model) {
  std::string label = spec + (in_model ? " corrupt model" : " corrupt data");
  std::string dir = "/tmp/doblix_corrupt_test_" + std::to_string(getpid());
  Options opt;
  opt.create_if_missing = true;
  opt.table_factory = Factory(spec);
  std::unique_ptr<DB> db = OpenEmpty(opt, dir, label);
  DB* raw = nullptr;
  std::map<std::string, std::string> oracle;
  for (int i = 0; i < 5000; i++) {
    std::string k = "key" + std::to_string(i * 7919 % 100000);
    oracle[k] = std::string(50, static_cast<char>('a' + i % 26));
    db->Put(WriteOptions(), k, oracle[k]);
  }
  db->Flush(FlushOptions());
  TablePropertiesCollection props;
  CHECK(db->GetPropertiesOfAllTables(&props).ok() && props.size() == 1, "%s one table",
        label.c_str());
  std::string file = props.begin()->first;
  uint64_t at = in_model ? props.begin()->second->data_size + props.begin()->second->index_size / 2
                         : props.begin()->second->data_size / 2;
  db.reset();
  FILE* f = fopen(file.c_str(), "r+b");
  CHECK(f != nullptr, "%s open %s", label.c_str(), file.c_str());
  fseek(f, static_cast<long>(at), SEEK_SET);
  int c = fgetc(f);
  fseek(f, static_cast<long>(at), SEEK_SET);
  fputc(c ^ 0x5a, f);
  fclose(f);
  Status s = DB::Open(opt, dir, &raw);
  int errors = 0;
  if (!s.ok()) {
    CHECK(s.IsCorruption(), "%s reopen gave %s", label.c_str(), s.ToString().c_str());
    errors++;
  } else {
    db.reset(raw);
    std::string v;
    for (auto& kv : oracle) {
      s = db->Get(ReadOptions(), kv.first, &v);
      if (s.ok()) {
        CHECK(v == kv.second, "%s wrong value for %s", label.c_str(), kv.first.c_str());
      } else {
        CHECK(s.IsCorruption(), "%s Get gave %s", label.c_str(), s.ToString().c_str());
        errors++;
      }
    }
    db.reset();
  }
  CHECK(errors > 0, "%s went unnoticed", label.c_str());
  DestroyDB(dir, opt);
}

// Evenly spaced 8-byte big-endian keys i * 1000 and 50-byte values.
std::string SpacedKey(uint64_t i) {
  std::string k;
  for (int b = 7; b >= 0; b--) k.push_back(static_cast<char>((i * 1000) >> (8 * b)));
  return k;
}

// One flushed table of `n` SpacedKey entries under `spec` at `dir`.
std::unique_ptr<DB> OneTable(const std::string& spec, const std::string& dir, int n,
                             Options* opt) {
  opt->create_if_missing = true;
  opt->table_factory = Factory(spec);
  std::unique_ptr<DB> db = OpenEmpty(*opt, dir, spec);
  for (int i = 0; i < n; i++) db->Put(WriteOptions(), SpacedKey(i), std::string(50, 'v'));
  CHECK(db->Flush(FlushOptions()).ok(), "%s flush", spec.c_str());
  return db;
}

// TridentKV's own block sizing: a key's block is its predicted byte offset
// over the block size, so on keys an RMI fits exactly (evenly spaced) the
// blocks are about `max_block_size` bytes, and every key is found.
void TridentBlockSizing() {
  const std::string spec = "id=DoblixTable;model=tridentkv;max_block_size=1024";
  std::string dir = "/tmp/doblix_trident_test_" + std::to_string(getpid());
  Options opt;
  const int n = 20000;
  std::unique_ptr<DB> db = OneTable(spec, dir, n, &opt);
  auto key = SpacedKey;
  TablePropertiesCollection props;
  CHECK(db->GetPropertiesOfAllTables(&props).ok() && props.size() == 1, "%s one table",
        spec.c_str());
  if (props.size() == 1) {
    const TableProperties& p = *props.begin()->second;
    const double mean = static_cast<double>(p.data_size) / p.num_data_blocks;
    CHECK(mean > 700 && mean < 1600, "%s mean block %.0f bytes, expected about 1024", spec.c_str(),
          mean);
  }
  std::string v;
  for (int i = 0; i < n; i += 7) {
    CHECK(db->Get(ReadOptions(), key(i), &v).ok(), "%s key %d not found", spec.c_str(), i);
  }
  db.reset();
  // A table of range deletions only has no blocks and no RMI, and opens.
  db = OpenEmpty(opt, dir, spec);
  db->DeleteRange(WriteOptions(), db->DefaultColumnFamily(), key(0), key(10));
  CHECK(db->Flush(FlushOptions()).ok(), "%s flush of range deletions only", spec.c_str());
  CHECK(db->Get(ReadOptions(), key(1), &v).IsNotFound(), "%s range deletions only: Get",
        spec.c_str());
  db.reset();
  DestroyDB(dir, opt);
}

// Bourbon-style loads every block its PLR's error window spans (Fig. 2a):
// with 1 KiB blocks of 13 entries and δ = 8 (a window of about 18
// positions) every lookup loads two blocks or three, and the step counters
// say so.
void BourbonLoadsWindow() {
  const std::string spec = "id=DoblixTable;model=bourbon;error=8;max_block_size=1024";
  std::string dir = "/tmp/doblix_bourbon_test_" + std::to_string(getpid());
  Options opt;
  std::unique_ptr<DB> db = OneTable(spec, dir, 20000, &opt);
  const auto* steps = static_cast<const uint64_t*>(
      opt.table_factory->GetOptionsPtr("DoblixStepNanos"));
  CHECK(steps != nullptr, "%s: the factory gives its step counters", spec.c_str());
  if (steps == nullptr) return;
  const uint64_t lookups0 = steps[2], blocks0 = steps[3];
  SetPerfLevel(PerfLevel::kEnableTimeExceptForMutex);
  std::string v;
  for (int i = 0; i < 20000; i += 3) {
    CHECK(db->Get(ReadOptions(), SpacedKey(i), &v).ok(), "%s key %d not found", spec.c_str(), i);
  }
  SetPerfLevel(PerfLevel::kDisable);
  const double lookups = static_cast<double>(steps[2] - lookups0);
  const double per_lookup = (steps[3] - blocks0) / (lookups > 0 ? lookups : 1);
  CHECK(lookups >= 6000 && per_lookup >= 2.0 && per_lookup <= 3.0,
        "%s: %.0f lookups loaded %.2f blocks each, expected two to three",
        spec.c_str(), lookups, per_lookup);
  db.reset();
  DestroyDB(dir, opt);
}

// TridentKV keeps RocksDB's index block beside its RMI (its
// table/block_based_table_builder.cc): on the same 8-byte keys its index is
// larger than the block-based table's, whose RocksDB 7.8.3 index block
// (format_version 5) stores user keys and delta-encoded handles.
void TridentIndexLargest() {
  std::string dir = "/tmp/doblix_trident_index_test_" + std::to_string(getpid());
  uint64_t index[2] = {0, 0}, blocks[2] = {0, 0};
  const std::string specs[2] = {"id=DoblixTable;model=tridentkv", "id=BlockBasedTable"};
  for (int t = 0; t < 2; t++) {
    Options opt;
    std::unique_ptr<DB> db = OneTable(specs[t], dir, 50000, &opt);
    TablePropertiesCollection props;
    CHECK(db->GetPropertiesOfAllTables(&props).ok() && props.size() == 1, "%s one table",
          specs[t].c_str());
    for (auto& p : props) {
      index[t] = p.second->index_size;
      blocks[t] = p.second->num_data_blocks;
    }
    std::string v;
    for (int i = 0; i < 50000; i += 11) {
      CHECK(db->Get(ReadOptions(), SpacedKey(i), &v).ok(), "%s key %d not found",
            specs[t].c_str(), i);
    }
    db.reset();
    DestroyDB(dir, opt);
  }
  CHECK(index[0] > index[1],
        "tridentkv-style index %llu bytes (%llu blocks), block-based %llu (%llu blocks)",
        (unsigned long long)index[0], (unsigned long long)blocks[0],
        (unsigned long long)index[1], (unsigned long long)blocks[1]);
}

// The filter (filter_policy) is checked before the model: absent keys are
// answered without reading a block, present keys all found; without the
// policy every absent key reads its block. A damaged filter block fails
// the open.
void FilterUsed(const std::string& spec) {
  std::string label = spec + " filter";
  std::string dir = "/tmp/doblix_filter_test_" + std::to_string(getpid());
  uint64_t absent_reads[2] = {0, 0};
  for (int with_filter = 0; with_filter < 2; with_filter++) {
    Options opt;
    opt.create_if_missing = true;
    opt.table_factory = Factory(spec + (with_filter ? ";filter_policy=bloomfilter:10:false" : ""));
    DestroyDB(dir, opt);
    DB* raw = nullptr;
    CHECK(DB::Open(opt, dir, &raw).ok(), "%s open", label.c_str());
    std::unique_ptr<DB> db(raw);
    for (int i = 0; i < 5000; i++) {
      db->Put(WriteOptions(), "key" + std::to_string(i * 2), std::string(50, 'v'));
    }
    db->Flush(FlushOptions());
    TablePropertiesCollection props;
    db->GetPropertiesOfAllTables(&props);
    CHECK(props.size() == 1 && (props.begin()->second->filter_size > 0) == (with_filter == 1),
          "%s filter_size %llu", label.c_str(),
          props.empty() ? 0ull : (unsigned long long)props.begin()->second->filter_size);
    ReadOptions ro;
    ro.fill_cache = false;  // every block a lookup needs is read
    SetPerfLevel(PerfLevel::kEnableCount);
    get_perf_context()->Reset();
    std::string v;
    for (int i = 0; i < 2000; i++) {
      Status s = db->Get(ro, "key" + std::to_string(i * 2 + 1), &v);
      CHECK(s.IsNotFound(), "%s absent key found: %s", label.c_str(), s.ToString().c_str());
    }
    absent_reads[with_filter] = get_perf_context()->block_read_count;
    if (with_filter) {
      CHECK(get_perf_context()->bloom_sst_miss_count > 1900, "%s filter rejected only %llu of 2000",
            label.c_str(), (unsigned long long)get_perf_context()->bloom_sst_miss_count);
    }
    get_perf_context()->Reset();
    for (int i = 0; i < 2000; i++) {
      Status s = db->Get(ro, "key" + std::to_string(i * 2), &v);
      CHECK(s.ok(), "%s present key: %s", label.c_str(), s.ToString().c_str());
    }
    CHECK(!with_filter || get_perf_context()->bloom_sst_hit_count == 2000, "%s filter hits %llu",
          label.c_str(), (unsigned long long)get_perf_context()->bloom_sst_hit_count);
    SetPerfLevel(PerfLevel::kDisable);
    db.reset();
    if (with_filter) {
      // Damage the filter block: it follows the data blocks, the model and
      // the (empty: count and checksum, 5 bytes) range-deletion block.
      const TableProperties& p = *props.begin()->second;
      long at = static_cast<long>(p.data_size + p.index_size + 5 + p.filter_size / 2);
      FILE* f = fopen(props.begin()->first.c_str(), "r+b");
      CHECK(f != nullptr, "%s open %s", label.c_str(), props.begin()->first.c_str());
      fseek(f, at, SEEK_SET);
      int c = fgetc(f);
      fseek(f, at, SEEK_SET);
      fputc(c ^ 0x5a, f);
      fclose(f);
      Status s = DB::Open(opt, dir, &raw);
      if (s.ok()) {
        db.reset(raw);
        s = db->Get(ReadOptions(), "key2", &v);
        db.reset();
      }
      CHECK(s.IsCorruption(), "%s damaged filter gave %s", label.c_str(), s.ToString().c_str());
    }
  }
  CHECK(absent_reads[1] * 10 < absent_reads[0], "%s absent-key block reads %llu with filter, %llu without",
        label.c_str(), (unsigned long long)absent_reads[1], (unsigned long long)absent_reads[0]);
  DestroyDB(dir, Options());
}

// Range scans are reads for the agent as point lookups are: a workload of
// scans alone gives the agent's steps a read count and a latency. Every
// step with reads, scans' or gets', also says how many block bytes a read
// loaded.
void AgentHearsScans() {
  const std::string label = "agent scans";
  std::string dir = "/tmp/doblix_agent_scan_test_" + std::to_string(getpid());
  Options opt;
  opt.create_if_missing = true;
  opt.disable_auto_compactions = true;
  opt.table_factory = Factory("id=DoblixTable;model=agent;agent_period=1");
  DestroyDB(dir, opt);
  DB* raw = nullptr;
  CHECK(DB::Open(opt, dir, &raw).ok(), "%s open", label.c_str());
  std::unique_ptr<DB> db(raw);
  std::mt19937_64 rng(5);
  for (int table = 0; table < 4; table++) {
    for (int i = 0; i < 2000; i++) {
      db->Put(WriteOptions(), RandomKey(rng, 0), std::string(40, 'v'));
    }
    db->Flush(FlushOptions());  // one new table: one agent step
    if (table % 2 == 1) {  // the next step's reads: gets only
      std::string v;
      for (int get = 0; get < 200; get++) db->Get(ReadOptions(), RandomKey(rng, 0), &v);
      continue;
    }
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    for (int scan = 0; scan < 50; scan++) {
      it->Seek(RandomKey(rng, 0));
      for (int n = 0; n < 10 && it->Valid(); n++) it->Next();
    }
    CHECK(it->status().ok(), "%s scan: %s", label.c_str(), it->status().ToString().c_str());
  }
  const auto* episodes = static_cast<const std::function<std::string()>*>(
      opt.table_factory->GetOptionsPtr("DoblixAgentEpisodes"));
  CHECK(episodes != nullptr, "%s: the factory gives its episodes", label.c_str());
  if (episodes != nullptr) {
    std::string json = (*episodes)();
    const std::string bytes_field = "\"block_bytes_per_read\":";
    uint64_t reads = 0;
    int steps_with_reads = 0;
    for (size_t at = json.find("\"reads\":"); at != std::string::npos;
         at = json.find("\"reads\":", at + 1)) {
      const uint64_t n = strtoull(json.c_str() + at + 8, nullptr, 10);
      reads += n;
      const size_t b = json.find(bytes_field, at);
      const double bytes = b == std::string::npos ? -1 : strtod(json.c_str() + b + bytes_field.size(), nullptr);
      // A read loads at least one block (more than its 4-byte checksum
      // trailer), and far less than a table's 2000 entries.
      CHECK(n == 0 || (bytes > 4 && bytes < 1e5),
            "%s: %llu reads loaded %.1f block bytes each: %s", label.c_str(),
            (unsigned long long)n, bytes, json.c_str());
      steps_with_reads += n > 0;
    }
    CHECK(reads > 0, "%s: no reads in the agent's steps: %s", label.c_str(), json.c_str());
    CHECK(steps_with_reads >= 3, "%s: %d steps with reads (scans, gets, scans): %s", label.c_str(),
          steps_with_reads, json.c_str());
  }
  db.reset();
  DestroyDB(dir, opt);
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seed = argc > 1 ? strtoull(argv[1], nullptr, 10) : 1;
  std::vector<std::string> specs = {"id=DoblixTable;model=pla;error=8;max_block_size=1024",
                                    "id=DoblixTable;model=pra;max_block_size=4096",
                                    "id=DoblixTable;model=pla;error=64;max_block_size=16384",
                                    "id=DoblixTable;model=tridentkv",
                                    "id=DoblixTable;model=tridentkv;rmi_leaves=3",
                                    "id=DoblixTable;model=bourbon;error=8;max_block_size=1024",
                                    "id=DoblixTable;model=agent;agent_period=1",
                                    "id=DoblixTable;filter_policy=bloomfilter:10:false"};
  // The test's own check: the block-based table must pass it too.
  if (argc > 2) specs = {argv[2]};
  for (const std::string& spec : specs) {
    for (int shape = 0; shape < 4; shape++) RoundTrip(spec, shape, seed + shape);
  }
  if (argc <= 2) {
    for (bool in_model : {false, true}) Corruption("id=DoblixTable", in_model);
    FilterUsed("id=DoblixTable;model=pla");
    FilterUsed("id=DoblixTable;model=pra");
    AgentHearsScans();
    TridentBlockSizing();
    TridentIndexLargest();
    BourbonLoadsWindow();
  }
  if (failures != 0) {
    fprintf(stderr, "%d failures (seed %llu)\n", failures, (unsigned long long)seed);
    return 1;
  }
  printf("doblix_table_test: all passed (seed %llu)\n", (unsigned long long)seed);
  return 0;
}

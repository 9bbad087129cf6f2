// The corruption sweep of the DobLIX table (issue 54 item 3), as
// leveldb-learned's LearnedTableTest.CorruptionSweepOfEveryFormat: one
// flushed table per configuration (PLA with a filter, PRA, TridentKV with
// its index block, Bourbon's PLR; each with a range deletion), flipped at
// every stride-th byte, at the first and last byte of its data, model and
// filter regions and at every byte of its last 128 (metaindex and footer),
// and truncated at every stride-th byte. After each damage the database is
// reopened as RocksDB opens it (paranoid checks, every table opened) and
// every key is read with checksums verified (Get, then a full scan): each
// read is right or a Corruption naming the table, never a wrong value, a
// missing key, a crash or a hang; a failed open is a Corruption naming it
// too (a truncated table may also be RocksDB's IOError, as for its own
// tables). Built and run by engines/rocksdb-doblix/run_tests.sh;
// DOBLIX_SWEEP_STRIDE sets the stride (default 4093; the long run: 257)
// and makes the tail every byte (default every 8th).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"

#include "check.h"
using namespace ROCKSDB_NAMESPACE;

namespace {

using doblix_test::failures;

std::string KeyOf(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "key%06d", i * 37);
  return buf;
}

std::string ValueOf(int i) { return "value-" + std::to_string(i) + std::string(i % 40, 'x'); }

constexpr int kKeys = 3000;
constexpr int kDeletedFrom = 1000, kDeletedTo = 1010;  // DeleteRange [from, to)

bool Live(int i) { return i < kDeletedFrom || i >= kDeletedTo; }

Options OptionsFor(const std::string& spec) {
  Options opt;
  opt.create_if_missing = true;
  opt.paranoid_checks = true;
  ConfigOptions cfg;
  cfg.ignore_unsupported_options = false;
  Status s = TableFactory::CreateFromString(cfg, spec, &opt.table_factory);
  if (!s.ok()) {
    fprintf(stderr, "cannot create table factory '%s': %s\n", spec.c_str(), s.ToString().c_str());
    exit(1);
  }
  return opt;
}

bool ReadFile(const std::string& path, std::string* out) {
  return ReadFileToString(Env::Default(), path, out).ok();
}

bool WriteFile(const std::string& path, const Slice& data) {
  return WriteStringToFile(Env::Default(), data, path, /*should_sync=*/false).ok();
}

// A refusal: a Corruption naming the table (its file number), or with
// `truncated` RocksDB's IOError naming it.
bool Refusal(const Status& s, const std::string& table, bool truncated) {
  return (s.IsCorruption() || (truncated && s.IsIOError())) &&
         s.ToString().find(table) != std::string::npos;
}

// Reopens the database and reads every key and a scan; returns the reads
// refused (a failed open counts one), or -1 after a wrong answer.
int CheckedReads(const Options& opt, const std::string& dir, const std::string& table,
                 bool truncated, const std::string& label) {
  DB* raw = nullptr;
  Status s = DB::Open(opt, dir, &raw);
  if (!s.ok()) {
    CHECK(Refusal(s, table, truncated), "%s: open gave %s", label.c_str(), s.ToString().c_str());
    return Refusal(s, table, truncated) ? 1 : -1;
  }
  std::unique_ptr<DB> db(raw);
  ReadOptions ro;
  ro.verify_checksums = true;
  int refused = 0;
  for (int i = 0; i < kKeys; i++) {
    std::string v;
    s = db->Get(ro, KeyOf(i), &v);
    if (!s.ok() && !s.IsNotFound()) {
      CHECK(Refusal(s, table, truncated), "%s: Get %d gave %s", label.c_str(), i,
            s.ToString().c_str());
      if (!Refusal(s, table, truncated)) return -1;
      refused++;
      continue;
    }
    const bool right = Live(i) ? s.ok() && v == ValueOf(i) : s.IsNotFound();
    CHECK(right, "%s: Get %d gave %s '%s'", label.c_str(), i, s.ToString().c_str(),
          v.substr(0, 30).c_str());
    if (!right) return -1;
  }
  std::unique_ptr<Iterator> it(db->NewIterator(ro));
  int i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
    while (!Live(i)) i++;
    const bool right = i < kKeys && it->key() == KeyOf(i) && it->value() == ValueOf(i);
    CHECK(right, "%s: scan entry %d is %s", label.c_str(), i, it->key().ToString(true).c_str());
    if (!right) return -1;
  }
  if (it->status().ok()) {
    CHECK(i == kKeys, "%s: scan ended at %d without an error", label.c_str(), i);
    if (i != kKeys) return -1;
  } else {
    CHECK(Refusal(it->status(), table, truncated), "%s: scan gave %s", label.c_str(),
          it->status().ToString().c_str());
    if (!Refusal(it->status(), table, truncated)) return -1;
    refused++;
  }
  return refused;
}

void Sweep(const std::string& spec, uint64_t stride, uint64_t tail_step) {
  const std::string dir = "/tmp/doblix_sweep_test_" + std::to_string(getpid());
  Options opt = OptionsFor(spec);
  DestroyDB(dir, opt);
  std::string table;
  TableProperties props;
  {
    DB* raw = nullptr;
    CHECK(DB::Open(opt, dir, &raw).ok(), "%s open", spec.c_str());
    if (raw == nullptr) return;
    std::unique_ptr<DB> db(raw);
    for (int i = 0; i < kKeys; i++) db->Put(WriteOptions(), KeyOf(i), ValueOf(i));
    db->DeleteRange(WriteOptions(), db->DefaultColumnFamily(), KeyOf(kDeletedFrom), KeyOf(kDeletedTo));
    CHECK(db->Flush(FlushOptions()).ok(), "%s flush", spec.c_str());
    TablePropertiesCollection all;
    CHECK(db->GetPropertiesOfAllTables(&all).ok() && all.size() == 1, "%s one table", spec.c_str());
    if (all.size() != 1) return;
    table = all.begin()->first;
    props = *all.begin()->second;
  }
  std::string pristine;
  CHECK(ReadFile(table, &pristine), "%s read %s", spec.c_str(), table.c_str());
  const std::string name = table.substr(table.rfind('/') + 1);  // "000009.sst"
  const std::string number = name.substr(0, name.find('.'));
  // Flips: every stride-th byte, both ends of the data, model (+ TridentKV's
  // index) and filter regions, and the tail.
  std::vector<uint64_t> flips;
  for (uint64_t at = 0; at < pristine.size(); at += stride) flips.push_back(at);
  const uint64_t model_end = props.data_size + props.index_size;
  for (uint64_t at : {uint64_t{0}, props.data_size - 1, props.data_size, model_end - 1, model_end,
                      model_end + props.filter_size - 1}) {
    if (at < pristine.size()) flips.push_back(at);
  }
  for (uint64_t at = pristine.size() > 128 ? pristine.size() - 128 : 0; at < pristine.size();
       at += tail_step) {
    flips.push_back(at);
  }
  size_t damaged = 0, refused = 0, unchanged = 0;
  for (uint64_t at : flips) {
    std::string data = pristine;
    data[at] ^= 0x5a;
    CHECK(WriteFile(table, data), "%s write", spec.c_str());
    const std::string label = spec + ": flip at " + std::to_string(at) + " of " +
                              std::to_string(pristine.size());
    const int r = CheckedReads(opt, dir, number, false, label);
    if (r < 0) break;
    damaged++;
    (r > 0 ? refused : unchanged)++;
  }
  for (uint64_t at = 1; at < pristine.size() && failures == 0; at += stride) {
    CHECK(WriteFile(table, Slice(pristine.data(), at)), "%s write", spec.c_str());
    const std::string label = spec + ": truncated to " + std::to_string(at);
    const int r = CheckedReads(opt, dir, number, true, label);
    CHECK(r != 0, "%s: every read right", label.c_str());
    if (r <= 0) break;
    damaged++;
    refused++;
  }
  CHECK(WriteFile(table, pristine), "%s write", spec.c_str());
  CHECK(CheckedReads(opt, dir, number, false, spec + ": pristine") == 0, "%s: pristine refused",
        spec.c_str());
  printf("sweep %s: %zu damaged copies of a %zu-byte table, %zu refused, %zu read right\n",
         spec.c_str(), damaged, pristine.size(), refused, unchanged);
  DestroyDB(dir, opt);
}

}  // namespace

int main() {
  const char* env_stride = getenv("DOBLIX_SWEEP_STRIDE");
  const uint64_t stride = env_stride ? std::max(1, atoi(env_stride)) : 4093;
  const uint64_t tail_step = env_stride ? 1 : 8;
  for (const char* spec : {"id=DoblixTable;model=pla;error=8;max_block_size=1024;"
                           "filter_policy=bloomfilter:10:false",
                           "id=DoblixTable;model=pra;max_block_size=2048",
                           "id=DoblixTable;model=tridentkv;max_block_size=4096",
                           "id=DoblixTable;model=bourbon;error=8;max_block_size=1024"}) {
    Sweep(spec, stride, tail_step);
  }
  if (failures != 0) {
    fprintf(stderr, "%d failures\n", failures);
    return 1;
  }
  printf("doblix_sweep_test: all passed (stride %llu)\n", static_cast<unsigned long long>(stride));
  return 0;
}

// The crash test's workload and check, for LevelDB's and RocksDB's API
// alike (crash_tool.cc, rocksdb_crash_tool.cc; engines/crashtest.py drives
// them): `Ns` is the engine's namespace (leveldb or rocksdb), whose DB,
// WriteBatch, WriteOptions, ReadOptions, Iterator and Status look the same.
#ifndef LSMREPRO_CRASHTEST_CRASH_WORKLOAD_H_
#define LSMREPRO_CRASHTEST_CRASH_WORKLOAD_H_

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>

namespace crash {

inline std::string KeyOf(uint64_t k) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(k));
  return buf;
}

// Must match engines/crashtest.py's value_of().
inline std::string ValueOf(uint64_t k, uint64_t op) {
  std::string v = std::to_string(k) + ":" + std::to_string(op) + ":";
  v.append(op % 300, static_cast<char>('a' + op % 26));
  return v;
}

inline void Report(const std::string& line) {
  std::string l = line + "\n";
  if (::write(1, l.data(), l.size()) != static_cast<ssize_t>(l.size())) std::exit(3);
}

// Puts and deletes forever from op `first`, reporting each op before ("B")
// and after it returned ("A"); the driver SIGKILLs the process. Every 16th
// op is synced. Returns only on an error.
template <typename DB, typename WriteBatch, typename WriteOptions, typename Status>
Status Load(DB* db, uint64_t seed, uint64_t first) {
  std::mt19937_64 rng(seed);
  for (uint64_t op = first;; op++) {
    uint64_t k = rng() % 3000;
    // P: put k; D: delete k; W: a batch putting k and k + 100000 (both or
    // neither may survive).
    char kind = op % 5 == 0 ? 'W' : rng() % 8 == 0 ? 'D' : 'P';
    WriteOptions wo;
    wo.sync = op % 16 == 0;
    std::string line = std::string(1, kind) + " " + KeyOf(k) + " " + std::to_string(op);
    Report("B " + line);
    Status s;
    if (kind == 'W') {
      WriteBatch batch;
      batch.Put(KeyOf(k), ValueOf(k, op));
      batch.Put(KeyOf(k + 100000), ValueOf(k + 100000, op));
      s = db->Write(wo, &batch);
    } else if (kind == 'D') {
      s = db->Delete(wo, KeyOf(k));
    } else {
      s = db->Put(wo, KeyOf(k), ValueOf(k, op));
    }
    if (!s.ok()) return s;
    Report("A " + line);
  }
}

// Every entry as "key value" lines, read by the iterator and by Get with
// checksums verified; Corruption when the two disagree.
template <typename DB, typename ReadOptions, typename Iterator, typename Status>
Status ReadAll(DB* db, std::string* out) {
  ReadOptions ro;
  ro.verify_checksums = true;
  std::unique_ptr<Iterator> it(db->NewIterator(ro));
  out->clear();
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string value;
    Status s = db->Get(ro, it->key(), &value);
    if (!s.ok()) return s;
    if (value != it->value().ToString()) {
      return Status::Corruption("Get and the iterator disagree on " + it->key().ToString(),
                                "Get '" + value.substr(0, 40) + "', iterator '" +
                                    it->value().ToString().substr(0, 40) + "'");
    }
    *out += it->key().ToString() + " " + value + "\n";
  }
  return it->status();
}

// The dump's last step: the entries before and after the full compaction
// must be the same; then printed (exit 0), else 1.
inline int PrintIfUnchanged(const std::string& before, const std::string& after) {
  if (before != after) {
    std::fprintf(stderr, "crash tool: a full compaction changed the entries\n");
    return 1;
  }
  std::fwrite(before.data(), 1, before.size(), stdout);
  return 0;
}

}  // namespace crash

#endif  // LSMREPRO_CRASHTEST_CRASH_WORKLOAD_H_

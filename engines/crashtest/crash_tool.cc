// The LevelDB family's crash test, two halves (engines/crashtest.py drives
// them); SPEC is the table format of the engine built in (crash_format.h):
//
//   crash_tool load DIR SEED FIRST [SPEC]   puts and deletes forever,
//                                    reporting each op on stdout before ("B")
//                                    and after it returned ("A"); the driver
//                                    SIGKILLs it.
//   crash_tool dump DIR [SPEC]       reopens DIR (no repair), prints every
//                                    entry (iterator and Get agree, checksums
//                                    verified), then compacts everything and
//                                    checks the same entries come back.
//
// An op is acknowledged once its Put/Delete returned OK (every op: the WAL
// and value log are write()n before it returns, so a process kill loses
// none; every 16th op also asks for sync, the only guarantee a machine
// crash would keep). Values are a function of (key, op number), so the
// driver knows what each acknowledged op must have left behind.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>

#include "crash_format.h"
#include "leveldb/db.h"
#include "leveldb/write_batch.h"

namespace {

std::string KeyOf(uint64_t k) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(k));
  return buf;
}

// Must match crash_test.py's value_of().
std::string ValueOf(uint64_t k, uint64_t op) {
  std::string v = std::to_string(k) + ":" + std::to_string(op) + ":";
  v.append(op % 300, static_cast<char>('a' + op % 26));
  return v;
}

void Report(const std::string& line) {
  std::string l = line + "\n";
  if (::write(1, l.data(), l.size()) != static_cast<ssize_t>(l.size())) std::exit(3);
}

int Fail(const leveldb::Status& s) {
  std::fprintf(stderr, "crash_tool: %s\n", s.ToString().c_str());
  return 1;
}

// The database with its format; the format outlives the DB it serves.
struct Db {
  std::unique_ptr<CrashFormat> format;
  std::unique_ptr<leveldb::DB> db;
  ~Db() {
    if (db != nullptr && format != nullptr) format->Closing();
    db.reset();
  }
};

leveldb::Status OpenDb(const char* dir, const std::string& spec, Db* out) {
  std::string err;
  out->format = NewCrashFormat(spec, &err);
  if (out->format == nullptr) return leveldb::Status::InvalidArgument(err);
  leveldb::Options options;
  options.create_if_missing = true;
  options.paranoid_checks = true;  // a table or log that fails its checksum is an error
  options.write_buffer_size = 64 << 10;  // many flushes and compactions
  options.max_file_size = 64 << 10;
  if (!out->format->Configure(dir, &options, &err)) return leveldb::Status::InvalidArgument(err);
  leveldb::DB* db = nullptr;
  leveldb::Status s = leveldb::DB::Open(options, dir, &db);
  out->db.reset(db);
  if (s.ok()) out->format->Opened(db);
  return s;
}

// Every entry, read by the iterator and by Get, checksums verified.
leveldb::Status ReadAll(leveldb::DB* db, std::string* out) {
  leveldb::ReadOptions ro;
  ro.verify_checksums = true;
  std::unique_ptr<leveldb::Iterator> it(db->NewIterator(ro));
  out->clear();
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string value;
    leveldb::Status s = db->Get(ro, it->key(), &value);
    if (!s.ok()) return s;
    if (value != it->value().ToString()) {
      return leveldb::Status::Corruption("Get and the iterator disagree on", it->key());
    }
    *out += it->key().ToString() + " " + value + "\n";
  }
  return it->status();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string spec = argc == 6 || (argc == 4 && std::string(argv[1]) == "dump") ? argv[argc - 1] : "";
  if ((argc == 5 || argc == 6) && std::string(argv[1]) == "load") {
    Db d;
    leveldb::Status s = OpenDb(argv[2], spec, &d);
    if (!s.ok()) return Fail(s);
    leveldb::DB* db = d.db.get();
    std::mt19937_64 rng(std::strtoull(argv[3], nullptr, 10));
    for (uint64_t op = std::strtoull(argv[4], nullptr, 10);; op++) {
      uint64_t k = rng() % 3000;
      // P: put k; D: delete k; W: a batch putting k and k + 100000 (both
      // or neither may survive).
      char kind = op % 5 == 0 ? 'W' : rng() % 8 == 0 ? 'D' : 'P';
      leveldb::WriteOptions wo;
      wo.sync = op % 16 == 0;
      std::string line = std::string(1, kind) + " " + KeyOf(k) + " " + std::to_string(op);
      Report("B " + line);
      if (kind == 'W') {
        leveldb::WriteBatch batch;
        batch.Put(KeyOf(k), ValueOf(k, op));
        batch.Put(KeyOf(k + 100000), ValueOf(k + 100000, op));
        s = db->Write(wo, &batch);
      } else if (kind == 'D') {
        s = db->Delete(wo, KeyOf(k));
      } else {
        s = db->Put(wo, KeyOf(k), ValueOf(k, op));
      }
      if (!s.ok()) return Fail(s);
      Report("A " + line);
    }
  }
  if (argc == 3 || (argc == 4 && std::string(argv[1]) == "dump")) {
    Db d;
    leveldb::Status s = OpenDb(argv[2], spec, &d);
    if (!s.ok()) return Fail(s);
    d.format->LearnNow();
    std::string before, after;
    s = ReadAll(d.db.get(), &before);
    if (!s.ok()) return Fail(s);
    // Compaction continues: everything compacted (paranoid checks read
    // every input), no background error (a null batch returns it), and
    // the same entries after.
    d.db->CompactRange(nullptr, nullptr);
    s = d.db->Write(leveldb::WriteOptions(), nullptr);
    if (!s.ok()) return Fail(s);
    d.format->LearnNow();
    s = ReadAll(d.db.get(), &after);
    if (!s.ok()) return Fail(s);
    if (before != after) {
      std::fprintf(stderr, "crash_tool: a full compaction changed the entries\n");
      return 1;
    }
    std::fwrite(before.data(), 1, before.size(), stdout);
    return 0;
  }
  std::fprintf(stderr, "usage: crash_tool load DIR SEED FIRST_OP [SPEC] | crash_tool dump DIR [SPEC]\n");
  return 2;
}

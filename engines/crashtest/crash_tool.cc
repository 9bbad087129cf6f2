// The wisckey crash test's two halves (engines/crashtest.py
// drives them):
//
//   crash_tool load DIR SEED FIRST   puts and deletes forever, reporting each
//                                    op on stdout before ("B") and after it
//                                    returned ("A"); the driver SIGKILLs it.
//   crash_tool dump DIR              reopens DIR and prints every entry.
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

std::unique_ptr<leveldb::DB> OpenDb(const char* dir, leveldb::Status* s) {
  leveldb::Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 64 << 10;  // many flushes and compactions
  options.max_file_size = 64 << 10;
  leveldb::DB* db = nullptr;
  *s = leveldb::DB::Open(options, dir, &db);
  return std::unique_ptr<leveldb::DB>(db);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::string(argv[1]) == "load") {
    leveldb::Status s;
    auto db = OpenDb(argv[2], &s);
    if (!s.ok()) return Fail(s);
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
  if (argc == 3 && std::string(argv[1]) == "dump") {
    leveldb::Status s;
    auto db = OpenDb(argv[2], &s);
    if (!s.ok()) return Fail(s);
    leveldb::ReadOptions ro;
    ro.verify_checksums = true;
    std::unique_ptr<leveldb::Iterator> it(db->NewIterator(ro));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      std::string value;
      s = db->Get(ro, it->key(), &value);
      if (!s.ok()) return Fail(s);
      if (value != it->value().ToString()) {
        std::fprintf(stderr, "crash_tool: Get and the iterator disagree\n");
        return 1;
      }
      std::printf("%s %s\n", it->key().ToString().c_str(), value.c_str());
    }
    if (!it->status().ok()) return Fail(it->status());
    return 0;
  }
  std::fprintf(stderr, "usage: crash_tool load DIR SEED FIRST_OP | crash_tool dump DIR\n");
  return 2;
}

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
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "crash_format.h"
#include "crash_workload.h"
#include "leveldb/db.h"
#include "leveldb/write_batch.h"

namespace {

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

}  // namespace

int main(int argc, char** argv) {
  const std::string spec = argc == 6 || (argc == 4 && std::string(argv[1]) == "dump") ? argv[argc - 1] : "";
  if ((argc == 5 || argc == 6) && std::string(argv[1]) == "load") {
    Db d;
    leveldb::Status s = OpenDb(argv[2], spec, &d);
    if (!s.ok()) return Fail(s);
    return Fail(crash::Load<leveldb::DB, leveldb::WriteBatch, leveldb::WriteOptions, leveldb::Status>(
        d.db.get(), std::strtoull(argv[3], nullptr, 10), std::strtoull(argv[4], nullptr, 10)));
  }
  if (argc == 3 || (argc == 4 && std::string(argv[1]) == "dump")) {
    Db d;
    leveldb::Status s = OpenDb(argv[2], spec, &d);
    if (!s.ok()) return Fail(s);
    d.format->LearnNow();
    std::string before, after;
    s = crash::ReadAll<leveldb::DB, leveldb::ReadOptions, leveldb::Iterator, leveldb::Status>(d.db.get(), &before);
    if (!s.ok()) return Fail(s);
    // Compaction continues: everything compacted (paranoid checks read
    // every input), no background error (a null batch returns it), and
    // the same entries after.
    d.db->CompactRange(nullptr, nullptr);
    s = d.db->Write(leveldb::WriteOptions(), nullptr);
    if (!s.ok()) return Fail(s);
    d.format->LearnNow();
    s = crash::ReadAll<leveldb::DB, leveldb::ReadOptions, leveldb::Iterator, leveldb::Status>(d.db.get(), &after);
    if (!s.ok()) return Fail(s);
    return crash::PrintIfUnchanged(before, after);
  }
  std::fprintf(stderr, "usage: crash_tool load DIR SEED FIRST_OP [SPEC] | crash_tool dump DIR [SPEC]\n");
  return 2;
}

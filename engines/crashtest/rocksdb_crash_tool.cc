// The crash test's tool for RocksDB with the DobLIX table plugin
// (rocksdb-doblix; engines/crashtest.py drives it), with crash_tool.cc's
// protocol:
//
//   rocksdb_crash_tool load DIR SEED FIRST SPEC   crash::Load until SIGKILLed
//   rocksdb_crash_tool dump DIR SPEC              reopen (no repair), print
//                                                 every entry, compact all,
//                                                 check the same come back
//
// SPEC is the DobLIX table's options as an OPTIONS file writes them
// ("model=pla;error=8;max_block_size=1024", "model=agent;agent_period=1":
// the agent retunes at every new table) or "block" for RocksDB's own table.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "crash_workload.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"

namespace {

int Fail(const rocksdb::Status& s) {
  std::fprintf(stderr, "rocksdb_crash_tool: %s\n", s.ToString().c_str());
  return 1;
}

rocksdb::Status OpenDb(const char* dir, const std::string& spec, std::unique_ptr<rocksdb::DB>* out) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.paranoid_checks = true;
  options.write_buffer_size = 64 << 10;  // many flushes and compactions
  options.target_file_size_base = 64 << 10;
  options.max_bytes_for_level_base = 256 << 10;
  options.max_background_jobs = 2;
  if (spec == "block") {
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory());
  } else {
    rocksdb::ConfigOptions cfg;
    cfg.ignore_unsupported_options = false;
    std::shared_ptr<rocksdb::TableFactory> doblix;
    rocksdb::Status s = rocksdb::TableFactory::CreateFromString(cfg, "id=DoblixTable;" + spec, &doblix);
    if (!s.ok()) return s;
    if (doblix == nullptr) return rocksdb::Status::InvalidArgument("DoblixTable not registered");
    options.table_factory = doblix;
  }
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, dir, &db);
  out->reset(db);
  return s;
}

rocksdb::Status ReadAll(rocksdb::DB* db, std::string* out) {
  return crash::ReadAll<rocksdb::DB, rocksdb::ReadOptions, rocksdb::Iterator, rocksdb::Status>(db, out);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (argc == 6 && cmd == "load") {
    std::unique_ptr<rocksdb::DB> db;
    rocksdb::Status s = OpenDb(argv[2], argv[5], &db);
    if (!s.ok()) return Fail(s);
    return Fail(crash::Load<rocksdb::DB, rocksdb::WriteBatch, rocksdb::WriteOptions, rocksdb::Status>(
        db.get(), std::strtoull(argv[3], nullptr, 10), std::strtoull(argv[4], nullptr, 10)));
  }
  if (argc == 4 && cmd == "dump") {
    std::unique_ptr<rocksdb::DB> db;
    rocksdb::Status s = OpenDb(argv[2], argv[3], &db);
    if (!s.ok()) return Fail(s);
    std::string before, after;
    s = ReadAll(db.get(), &before);
    if (!s.ok()) return Fail(s);
    // Compaction continues: everything compacted, no background error, the
    // same entries after.
    s = db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr);
    if (!s.ok()) return Fail(s);
    uint64_t errors = 0;
    if (!db->GetIntProperty("rocksdb.background-errors", &errors) || errors != 0) {
      std::fprintf(stderr, "rocksdb_crash_tool: %llu background errors\n",
                   static_cast<unsigned long long>(errors));
      return 1;
    }
    s = ReadAll(db.get(), &after);
    if (!s.ok()) return Fail(s);
    return crash::PrintIfUnchanged(before, after);
  }
  std::fprintf(stderr, "usage: rocksdb_crash_tool load DIR SEED FIRST_OP SPEC | dump DIR SPEC\n");
  return 2;
}

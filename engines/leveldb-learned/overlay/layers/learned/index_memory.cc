#include "layers/learned/index_memory.h"

#include <memory>

#include "db/dbformat.h"
#include "db/filename.h"
#include "layers/learned/learned_table_format.h"
#include "leveldb/env.h"

namespace leveldb {

Status MeasureLiveIndexMemory(const LearnedTableFormat& format, const Options& db_options,
                              const std::string& dbname,
                              const std::map<uint64_t, uint64_t>& live, LiveIndexMemory* out) {
  *out = LiveIndexMemory();
  const std::map<uint64_t, size_t> open = format.OpenTableIndexBytes();
  // The table cache opens tables with the database's sanitized options:
  // internal-key comparator and filter policy (db_impl.cc SanitizeOptions).
  Options o = db_options;
  InternalKeyComparator icmp(db_options.comparator);
  InternalFilterPolicy ipolicy(db_options.filter_policy);
  o.comparator = &icmp;
  o.filter_policy = db_options.filter_policy != nullptr ? &ipolicy : nullptr;
  o.block_cache = nullptr;  // nothing is read through it at open
  Env* env = o.env != nullptr ? o.env : Env::Default();
  for (const auto& [number, size] : live) {
    auto it = open.find(number);
    if (it != open.end()) {
      out->per_table[number] = it->second;
      out->total += it->second;
      out->tables_open++;
      continue;
    }
    RandomAccessFile* raw = nullptr;
    Status s = env->NewRandomAccessFile(TableFileName(dbname, number), &raw);
    if (!s.ok()) s = env->NewRandomAccessFile(SSTTableFileName(dbname, number), &raw);
    if (!s.ok()) return s;
    std::unique_ptr<RandomAccessFile> file(raw);
    TableFileInfo info;
    info.number = number;
    TableReader* reader = nullptr;
    s = format.Open(o, file.get(), size, info, &reader);
    if (!s.ok()) return s;
    const size_t bytes = reader->IndexMemoryBytes();
    delete reader;
    out->per_table[number] = bytes;
    out->total += bytes;
    out->tables_measured++;
  }
  return Status::OK();
}

}  // namespace leveldb

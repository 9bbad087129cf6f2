// The table format a crash test opens its database with, from a spec on
// crash_tool's command line; one implementation per engine family, picked
// by CMake's CRASH_FORMAT (format_plain.cc: LevelDB's own tables, wisckey;
// format_learned.cc: leveldb-learned; format_bourbon.cc: bourbon).
#ifndef LSMREPRO_CRASHTEST_CRASH_FORMAT_H_
#define LSMREPRO_CRASHTEST_CRASH_FORMAT_H_

#include <memory>
#include <string>

#include "leveldb/db.h"
#include "leveldb/options.h"

class CrashFormat {
 public:
  virtual ~CrashFormat() = default;
  // Before DB::Open: the table format and hooks into *options.
  virtual bool Configure(const std::string& dir, leveldb::Options* options, std::string* err) = 0;
  // After DB::Open (background learners start here).
  virtual void Opened(leveldb::DB* /*db*/) {}
  // Before the check reads the reopened database: whatever the format
  // learns, learned now, so the check's reads take its learned paths.
  virtual void LearnNow() {}
  // Before the DB is closed.
  virtual void Closing() {}
};

// Null and *err when the spec is not one of this family's.
std::unique_ptr<CrashFormat> NewCrashFormat(const std::string& spec, std::string* err);

#endif  // LSMREPRO_CRASHTEST_CRASH_FORMAT_H_

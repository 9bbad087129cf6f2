// The JSON-lines run log (the contract: engines/driver/log_schema.yaml). Records
// go to `<path>.tmp`; Finish() appends the `end` record and renames the file
// into place, so a killed run never leaves a log that looks complete.
#ifndef LSMBENCH_RUN_LOG_H_
#define LSMBENCH_RUN_LOG_H_

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "histogram.h"

namespace lsmbench {

// From log_schema.yaml's run.schema_version, through CMakeLists.txt.
constexpr int kLogSchemaVersion = LSMBENCH_LOG_SCHEMA_VERSION;

class RunLog {
 public:
  RunLog() = default;
  ~RunLog();
  RunLog(const RunLog&) = delete;
  RunLog& operator=(const RunLog&) = delete;

  bool Open(const std::string& path, std::string* err);
  // Writes one record; `type` becomes its "type" field.
  void Write(const std::string& type, nlohmann::json record);
  // Appends {"type":"end","status":status, ...fields} and renames into
  // place.
  bool Finish(const std::string& status, std::string* err,
              nlohmann::json fields = nlohmann::json::object());

  // A `latency` record body for one histogram.
  static nlohmann::json Latency(const std::string& op, const std::string& subset,
                                const Histogram& h);

 private:
  std::string path_, tmp_;
  FILE* f_ = nullptr;
};

}  // namespace lsmbench

#endif  // LSMBENCH_RUN_LOG_H_

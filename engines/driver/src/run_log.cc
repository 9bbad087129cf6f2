#include "run_log.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace lsmbench {

RunLog::~RunLog() {
  if (f_ != nullptr) {
    std::fclose(f_);
    std::remove(tmp_.c_str());
  }
}

bool RunLog::Open(const std::string& path, std::string* err) {
  path_ = path;
  tmp_ = path + ".tmp";
  f_ = std::fopen(tmp_.c_str(), "w");
  if (f_ == nullptr) {
    *err = tmp_ + ": cannot create: " + std::strerror(errno);
    return false;
  }
  return true;
}

void RunLog::Write(const std::string& type, nlohmann::json record) {
  record["type"] = type;
  std::string line = record.dump() + "\n";
  std::fwrite(line.data(), 1, line.size(), f_);
}

bool RunLog::Finish(const std::string& status, std::string* err, nlohmann::json fields) {
  fields["status"] = status;
  Write("end", std::move(fields));
  bool ok = std::fflush(f_) == 0 && fsync(fileno(f_)) == 0;
  ok = std::fclose(f_) == 0 && ok;
  f_ = nullptr;
  if (!ok || std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    *err = path_ + ": cannot write the log: " + std::strerror(errno);
    std::remove(tmp_.c_str());
    return false;
  }
  return true;
}

nlohmann::json RunLog::Latency(const std::string& op, const std::string& subset,
                               const Histogram& h) {
  nlohmann::json buckets = nlohmann::json::array();
  for (const Histogram::Bucket& b : h.NonEmpty()) {
    buckets.push_back({b.low, b.high, b.count});
  }
  return {{"op", op},
          {"subset", subset},
          {"unit", "ns"},
          {"count", h.count()},
          {"mean", h.mean()},
          {"min", h.min()},
          {"p50", h.Percentile(50)},
          {"p90", h.Percentile(90)},
          {"p99", h.Percentile(99)},
          {"p999", h.Percentile(99.9)},
          {"max", h.max()},
          {"tail5_mean", h.TailMean(0.05)},
          {"buckets", buckets}};
}

}  // namespace lsmbench

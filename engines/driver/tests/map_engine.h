// A std::map behind the Engine interface, for the driver's own tests.
#ifndef LSMBENCH_TESTS_MAP_ENGINE_H_
#define LSMBENCH_TESTS_MAP_ENGINE_H_

#include <map>
#include <string>

#include "engine.h"

namespace lsmbench {

// A std::map behind the Engine interface: the reference the verifier's
// expectations are tested against, not a benchmark engine.
class MapEngine : public Engine {
 public:
  std::string Name() const override { return kEngineId; }
  std::vector<OptionSpec> OptionSpecs() const override { return {}; }
  bool Open(const std::string&, const OptionSet&, std::string*) override { return true; }
  bool Put(std::string_view k, std::string_view v, std::string*) override {
    data_[std::string(k)] = std::string(v);
    return true;
  }
  bool Delete(std::string_view k, std::string*) override {
    data_.erase(std::string(k));
    return true;
  }
  bool Get(std::string_view k, std::string* v, bool* found, std::string*) override {
    auto it = data_.find(std::string(k));
    *found = it != data_.end();
    if (*found) *v = it->second;
    return true;
  }
  bool Scan(std::string_view k, size_t n, std::vector<KV>* out, std::string*) override {
    out->clear();
    for (auto it = data_.lower_bound(std::string(k)); it != data_.end() && out->size() < n; ++it) {
      out->emplace_back(it->first, it->second);
    }
    return true;
  }
  bool Settle(bool, std::string*) override { return true; }
  nlohmann::json Stats() override {
    return {{"index_bytes", 0}, {"files_per_level", nlohmann::json::array()}, {"compaction_seconds", 0.0}};
  }
  void Close() override {}

  std::map<std::string, std::string> data_;
};

}  // namespace lsmbench

#endif  // LSMBENCH_TESTS_MAP_ENGINE_H_

#include "gen/keyset.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace gen {

double Params::Real(const std::string& key, double def) {
  used_.insert(key);
  auto it = values_.find(key);
  if (it == values_.end()) return def;
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(it->second.c_str(), &end);
  if (errno != 0 || *end != '\0' || it->second.empty() || !std::isfinite(v)) {
    if (error_.empty()) error_ = key + ": expected a number, got '" + it->second + "'";
    return def;
  }
  return v;
}

uint64_t Params::Count(const std::string& key, uint64_t def) {
  used_.insert(key);
  auto it = values_.find(key);
  if (it == values_.end()) return def;
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(it->second.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || it->second.empty() || it->second[0] == '-') {
    if (error_.empty()) error_ = key + ": expected an integer >= 0, got '" + it->second + "'";
    return def;
  }
  return v;
}

std::string Params::Unused() const {
  std::string names;
  for (const auto& [k, v] : values_) {
    if (!used_.count(k)) names += (names.empty() ? "" : ", ") + k;
  }
  return names;
}

bool FillDistinct(uint64_t n, const std::function<uint64_t()>& draw, Keys* out, int max_rounds) {
  Keys& keys = *out;
  keys.clear();
  keys.reserve(n + n / 8);
  for (int round = 0; round < max_rounds && keys.size() < n; round++) {
    uint64_t missing = n - keys.size();
    for (uint64_t i = 0; i < missing; i++) keys.push_back(draw());
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  }
  // A round draws only what is missing, so it never overshoots n.
  return keys.size() == n;
}

}  // namespace gen

// Knob parsing shared by every index: integer or floating knobs by name,
// rejecting unknown names and malformed values with a Status naming them.
//
// Usage:
//   Status Configure(const Options& o) {
//     return detail::ParseKnobs(o, "pgm", {{"epsilon", &eps_, 1, 1 << 30}});
//   }
#ifndef LIDX_DETAIL_OPTIONS_H_
#define LIDX_DETAIL_OPTIONS_H_

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <string_view>

#include "lidx/index.h"

namespace lidx {
namespace detail {

struct Knob {
  const char* name;
  uint64_t* value;
  uint64_t min;
  uint64_t max;
};

struct DoubleKnob {
  const char* name;
  double* value;
  double min;
  double max;
};

inline Status ParseKnobs(const Options& opts, std::string_view id,
                         std::initializer_list<Knob> knobs,
                         std::initializer_list<DoubleKnob> dknobs = {}) {
  for (const auto& [name, text] : opts) {
    bool known = false;
    for (const Knob& k : knobs) {
      if (name != k.name) continue;
      known = true;
      errno = 0;
      char* end = nullptr;
      unsigned long long v = std::strtoull(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || errno != 0 || text[0] == '-' ||
          v < k.min || v > k.max) {
        return Status::Error(std::string(id) + ": knob '" + name +
                             "' wants an integer in [" + std::to_string(k.min) +
                             ", " + std::to_string(k.max) + "], got '" + text +
                             "'");
      }
      *k.value = v;
    }
    for (const DoubleKnob& k : dknobs) {
      if (name != k.name) continue;
      known = true;
      char* end = nullptr;
      double v = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !(v >= k.min && v <= k.max)) {
        return Status::Error(std::string(id) + ": knob '" + name +
                             "' wants a number in [" + std::to_string(k.min) +
                             ", " + std::to_string(k.max) + "], got '" + text +
                             "'");
      }
      *k.value = v;
    }
    if (!known) {
      std::string names;
      for (const Knob& k : knobs) names += std::string(" ") + k.name;
      for (const DoubleKnob& k : dknobs) names += std::string(" ") + k.name;
      return Status::Error(std::string(id) + ": unknown knob '" + name +
                           "' (knows:" + (names.empty() ? " none" : names) +
                           ")");
    }
  }
  return Status::OK();
}

}  // namespace detail
}  // namespace lidx

#endif  // LIDX_DETAIL_OPTIONS_H_

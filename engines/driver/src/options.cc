#include "options.h"

#include <cerrno>
#include <cstdlib>
#include <stdexcept>

namespace lsmbench {

namespace {

const char* TypeName(OptionSpec::Type t) {
  switch (t) {
    case OptionSpec::Type::kInt:
      return "an integer";
    case OptionSpec::Type::kDouble:
      return "a number";
    case OptionSpec::Type::kBool:
      return "true or false";
    case OptionSpec::Type::kString:
      return "a string";
  }
  return "?";
}

bool ParseInt(const std::string& s, int64_t* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = v;
  return true;
}

bool ParseDouble(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (errno != 0 || *end != '\0') return false;
  *out = v;
  return true;
}

// A bound as written in an error: 1, 0.5, or -inf when there is none.
std::string Number(const std::optional<double>& v) {
  if (!v) return "-inf";
  std::string s = std::to_string(*v);
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

OptionSet::OptionSet(std::vector<OptionSpec> specs) : specs_(std::move(specs)) {
  for (const OptionSpec& s : specs_) values_[s.name] = s.default_value;
}

const OptionSpec* OptionSet::Find(const std::string& name) const {
  for (const OptionSpec& s : specs_) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

bool OptionSet::Check(const OptionSpec& spec, const std::string& value,
                      std::string* err) {
  bool ok = true;
  int64_t i = 0;
  double d = 0;
  switch (spec.type) {
    case OptionSpec::Type::kInt:
      ok = ParseInt(value, &i);
      break;
    case OptionSpec::Type::kDouble:
      ok = ParseDouble(value, &d);
      break;
    case OptionSpec::Type::kBool:
      ok = value == "true" || value == "false";
      break;
    case OptionSpec::Type::kString:
      if (!spec.choices.empty()) {
        ok = false;
        for (const std::string& c : spec.choices) ok = ok || c == value;
        if (!ok) {
          std::string list;
          for (const std::string& c : spec.choices) list += (list.empty() ? "" : "|") + c;
          *err = "engine option '" + spec.name + "': expected one of " + list +
                 ", got '" + value + "'";
          return false;
        }
      }
      break;
  }
  if (!ok) {
    *err = "engine option '" + spec.name + "': expected " +
           TypeName(spec.type) + ", got '" + value + "'";
    return false;
  }
  double v = spec.type == OptionSpec::Type::kInt ? static_cast<double>(i) : d;
  bool numeric = spec.type == OptionSpec::Type::kInt || spec.type == OptionSpec::Type::kDouble;
  if (numeric && ((spec.min && v < *spec.min) || (spec.max && v > *spec.max))) {
    *err = "engine option '" + spec.name + "': expected " + TypeName(spec.type) + " " +
           (spec.max ? "in [" + Number(spec.min) + ", " + Number(spec.max) + "]"
                     : ">= " + Number(spec.min)) +
           ", got '" + value + "'";
    return false;
  }
  return true;
}

bool OptionSet::Parse(const std::vector<std::string>& items, std::string* err) {
  for (const std::string& item : items) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      *err = "engine option '" + item + "': expected key=value";
      return false;
    }
    std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    const OptionSpec* spec = Find(key);
    if (spec == nullptr) {
      std::string known;
      for (const OptionSpec& s : specs_) known += (known.empty() ? "" : ", ") + s.name;
      *err = "engine option '" + key + "': unknown; known options: " +
             (known.empty() ? "(none)" : known);
      return false;
    }
    if (!Check(*spec, value, err)) return false;
    values_[key] = value;
    set_.insert(key);
  }
  return true;
}

const std::string& OptionSet::Raw(const std::string& name,
                                  OptionSpec::Type t) const {
  const OptionSpec* spec = Find(name);
  if (spec == nullptr || spec->type != t) {
    // A programming error in an adapter, not bad input.
    throw std::logic_error("option '" + name + "' not declared with this type");
  }
  return values_.at(name);
}

int64_t OptionSet::Int(const std::string& name) const {
  int64_t v = 0;
  ParseInt(Raw(name, OptionSpec::Type::kInt), &v);
  return v;
}

double OptionSet::Double(const std::string& name) const {
  double v = 0;
  ParseDouble(Raw(name, OptionSpec::Type::kDouble), &v);
  return v;
}

bool OptionSet::Bool(const std::string& name) const {
  return Raw(name, OptionSpec::Type::kBool) == "true";
}

const std::string& OptionSet::Str(const std::string& name) const {
  return Raw(name, OptionSpec::Type::kString);
}

nlohmann::json OptionSet::ToJson() const {
  nlohmann::json out = nlohmann::json::object();
  for (const OptionSpec& s : specs_) {
    switch (s.type) {
      case OptionSpec::Type::kInt:
        out[s.name] = Int(s.name);
        break;
      case OptionSpec::Type::kDouble:
        out[s.name] = Double(s.name);
        break;
      case OptionSpec::Type::kBool:
        out[s.name] = Bool(s.name);
        break;
      case OptionSpec::Type::kString:
        out[s.name] = Str(s.name);
        break;
    }
  }
  return out;
}

}  // namespace lsmbench

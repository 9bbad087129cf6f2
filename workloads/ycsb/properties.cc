#include "ycsb/properties.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace ycsb {
namespace {

enum class Kind { kCount, kPositive, kProportion, kFraction, kReal, kBool, kEnum, kText };

struct Spec {
  const char* name;
  Kind kind;
  const char* choices;  // for kEnum: '|'-separated
};

// CoreWorkload's and Client's property names in YCSB 0.17. Properties that
// only steer Java-side measurement or DB bindings are accepted (workload
// files carry them) but have no effect on the op stream.
const Spec kSpecs[] = {
    {"recordcount", Kind::kCount, nullptr},
    {"operationcount", Kind::kCount, nullptr},
    {"insertstart", Kind::kCount, nullptr},
    {"insertcount", Kind::kCount, nullptr},
    {"readproportion", Kind::kProportion, nullptr},
    {"updateproportion", Kind::kProportion, nullptr},
    {"scanproportion", Kind::kProportion, nullptr},
    {"insertproportion", Kind::kProportion, nullptr},
    {"readmodifywriteproportion", Kind::kProportion, nullptr},
    {"requestdistribution", Kind::kEnum, "uniform|zipfian|latest|hotspot|sequential|exponential"},
    {"zipfianconstant", Kind::kFraction, nullptr},
    {"insertorder", Kind::kEnum, "hashed|ordered"},
    {"minscanlength", Kind::kPositive, nullptr},
    {"maxscanlength", Kind::kPositive, nullptr},
    {"scanlengthdistribution", Kind::kEnum, "uniform|zipfian"},
    {"fieldcount", Kind::kPositive, nullptr},
    {"fieldlength", Kind::kPositive, nullptr},
    {"minfieldlength", Kind::kPositive, nullptr},
    {"fieldlengthdistribution", Kind::kEnum, "constant|uniform|zipfian"},
    {"hotspotdatafraction", Kind::kProportion, nullptr},
    {"hotspotopnfraction", Kind::kProportion, nullptr},
    {"exponential.percentile", Kind::kReal, nullptr},
    {"exponential.frac", Kind::kReal, nullptr},
    {"zeropadding", Kind::kPositive, nullptr},
    {"readallfields", Kind::kBool, nullptr},
    {"writeallfields", Kind::kBool, nullptr},
    {"readallfieldsbyname", Kind::kBool, nullptr},
    {"dataintegrity", Kind::kBool, nullptr},
    {"fieldnameprefix", Kind::kText, nullptr},
    {"table", Kind::kText, nullptr},
    {"workload", Kind::kText, nullptr},
    // Client: stop the run phase after this many seconds (0: no limit);
    // it does not change the op stream, lsmbench's runner applies it.
    {"maxexecutiontime", Kind::kCount, nullptr},
};

const Spec* Find(const std::string& key) {
  for (const Spec& s : kSpecs) {
    if (key == s.name) return &s;
  }
  return nullptr;
}

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\f\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\f\r");
  return s.substr(b, e - b + 1);
}

bool ParseInt(const std::string& v, int64_t* out) {
  if (v.empty()) return false;
  errno = 0;
  char* end = nullptr;
  long long x = std::strtoll(v.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = x;
  return true;
}

bool ParseReal(const std::string& v, double* out) {
  if (v.empty()) return false;
  errno = 0;
  char* end = nullptr;
  double x = std::strtod(v.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(x)) return false;
  *out = x;
  return true;
}

// Empty when `value` fits `spec`, else what was expected.
std::string Check(const Spec& spec, const std::string& value) {
  int64_t i = 0;
  double d = 0;
  switch (spec.kind) {
    case Kind::kCount:
      return ParseInt(value, &i) && i >= 0 ? "" : "an integer >= 0";
    case Kind::kPositive:
      return ParseInt(value, &i) && i >= 1 ? "" : "an integer >= 1";
    case Kind::kProportion:
      return ParseReal(value, &d) && d >= 0 && d <= 1 ? "" : "a number in [0, 1]";
    case Kind::kFraction:
      return ParseReal(value, &d) && d > 0 && d < 1 ? "" : "a number in (0, 1)";
    case Kind::kReal:
      return ParseReal(value, &d) && d > 0 ? "" : "a number > 0";
    case Kind::kBool:
      return value == "true" || value == "false" ? "" : "true or false";
    case Kind::kEnum: {
      std::string choices = spec.choices;
      std::stringstream ss(choices);
      std::string c;
      while (std::getline(ss, c, '|')) {
        if (c == value) return "";
      }
      std::string pretty = choices;
      for (char& ch : pretty) {
        if (ch == '|') ch = ',';
      }
      return "one of {" + pretty + "}";
    }
    case Kind::kText:
      return "";
  }
  return "";
}

}  // namespace

std::vector<std::string> Properties::KnownNames() {
  std::vector<std::string> names;
  for (const Spec& s : kSpecs) names.push_back(s.name);
  return names;
}

bool Properties::Set(const std::string& key, const std::string& value,
                     const std::string& where, std::string* err) {
  const Spec* spec = Find(key);
  if (spec == nullptr) {
    *err = where + ": " + key + ": unknown property (expected a YCSB CoreWorkload property)";
    return false;
  }
  std::string expected = Check(*spec, value);
  if (!expected.empty()) {
    *err = where + ": " + key + ": expected " + expected + ", got '" + value + "'";
    return false;
  }
  values_[key] = value;
  where_[key] = where;
  return true;
}

bool Properties::LoadString(const std::string& text, const std::string& source,
                            std::string* err) {
  std::stringstream in(text);
  std::string raw;
  int lineno = 0;
  while (std::getline(in, raw)) {
    lineno++;
    int start_line = lineno;
    std::string line = Trim(raw);
    if (line.empty() || line[0] == '#' || line[0] == '!') continue;
    // A trailing backslash continues the logical line on the next one.
    while (!line.empty() && line.back() == '\\') {
      line.pop_back();
      std::string next;
      if (!std::getline(in, next)) break;
      lineno++;
      line += Trim(next);
    }
    size_t sep = line.find_first_of("=:");
    std::string where = source + ":" + std::to_string(start_line);
    if (sep == std::string::npos) {
      size_t ws = line.find_first_of(" \t");
      if (ws == std::string::npos) {
        *err = where + ": " + line + ": expected 'key=value', got a key without a value";
        return false;
      }
      sep = ws;
    }
    std::string key = Trim(line.substr(0, sep));
    std::string value = Trim(line.substr(sep + 1));
    if (key.empty()) {
      *err = where + ": '" + line + "': expected 'key=value', got no key";
      return false;
    }
    if (!Set(key, value, where, err)) return false;
  }
  return true;
}

bool Properties::LoadFile(const std::string& path, std::string* err) {
  std::ifstream f(path);
  if (!f) {
    *err = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  return LoadString(ss.str(), path, err);
}

bool Properties::SetOverride(const std::string& assignment, std::string* err) {
  size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    *err = "-p: '" + assignment + "': expected key=value";
    return false;
  }
  return Set(Trim(assignment.substr(0, eq)), Trim(assignment.substr(eq + 1)), "-p", err);
}

std::string Properties::Get(const std::string& key, const std::string& def) const {
  auto it = values_.find(key);
  return it == values_.end() ? def : it->second;
}

int64_t Properties::GetInt(const std::string& key, int64_t def) const {
  auto it = values_.find(key);
  if (it == values_.end()) return def;
  int64_t v = def;
  ParseInt(it->second, &v);
  return v;
}

double Properties::GetDouble(const std::string& key, double def) const {
  auto it = values_.find(key);
  if (it == values_.end()) return def;
  double v = def;
  ParseReal(it->second, &v);
  return v;
}

std::string Properties::Where(const std::string& key) const {
  auto it = where_.find(key);
  return it == where_.end() ? "<default>" : it->second;
}

}  // namespace ycsb

// Typed `key=value` options. Each engine adapter declares the options it
// understands with a type and a default; anything else is an error that
// names the key and lists the known ones, because a silently ignored
// option is a benchmark of the wrong configuration.
#ifndef LSMBENCH_OPTIONS_H_
#define LSMBENCH_OPTIONS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lsmbench {

struct OptionSpec {
  enum class Type { kInt, kDouble, kBool, kString };
  std::string name;
  Type type;
  std::string default_value;
  std::string help;
  std::vector<std::string> choices;  // for kString; empty means any
  // For kInt and kDouble: the smallest and largest value that means
  // something (a PLA error bound of 0, an agent stepping every 0 tables).
  std::optional<double> min, max;
};

class OptionSet {
 public:
  OptionSet() = default;
  explicit OptionSet(std::vector<OptionSpec> specs);

  // Applies "key=value" items in order (a later one overrides an earlier
  // one). Returns false and sets *err on an unknown key, a missing '=', or
  // a value of the wrong type or outside its choices.
  bool Parse(const std::vector<std::string>& items, std::string* err);

  int64_t Int(const std::string& name) const;
  double Double(const std::string& name) const;
  bool Bool(const std::string& name) const;
  const std::string& Str(const std::string& name) const;
  // Whether `name` was given (not left at its default).
  bool IsSet(const std::string& name) const { return set_.count(name) > 0; }

  // Every option with its effective value, typed, for the run record.
  nlohmann::json ToJson() const;
  const std::vector<OptionSpec>& specs() const { return specs_; }

 private:
  const OptionSpec* Find(const std::string& name) const;
  const std::string& Raw(const std::string& name, OptionSpec::Type t) const;
  static bool Check(const OptionSpec& spec, const std::string& value,
                    std::string* err);

  std::vector<OptionSpec> specs_;
  std::map<std::string, std::string> values_;
  std::set<std::string> set_;
};

}  // namespace lsmbench

#endif  // LSMBENCH_OPTIONS_H_

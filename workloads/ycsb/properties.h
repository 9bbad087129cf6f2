// YCSB workload properties: the Java property-file syntax of workloada..f
// (`key=value`, `key: value`, `#`/`!` comments, `\` line continuation) plus
// `-p key=value` overrides. Only properties YCSB's CoreWorkload (and its
// Client's recordcount/operationcount) knows are accepted, each checked
// against its type when set, so a typo fails loudly instead of silently
// running YCSB's default. Every error is one line:
//   "<file>:<line>: <property>: expected <what>, got '<value>'".
//
//   ycsb::Properties p;
//   std::string err;
//   if (!p.LoadFile("workloads/ycsb/workloada", &err) ||
//       !p.SetOverride("recordcount=100000", &err)) die(err);
#ifndef WORKLOADS_YCSB_PROPERTIES_H_
#define WORKLOADS_YCSB_PROPERTIES_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ycsb {

class Properties {
 public:
  // Reads a property file; later keys override earlier ones, as in Java.
  bool LoadFile(const std::string& path, std::string* err);
  // Parses the text of a property file whose name (for errors) is `source`.
  bool LoadString(const std::string& text, const std::string& source, std::string* err);
  // A `-p key=value` override.
  bool SetOverride(const std::string& assignment, std::string* err);
  // Sets one property after checking that it is known and well-formed;
  // `where` names its origin in errors ("workloada:12", "-p").
  bool Set(const std::string& key, const std::string& value, const std::string& where,
           std::string* err);

  bool Has(const std::string& key) const { return values_.count(key) > 0; }
  std::string Get(const std::string& key, const std::string& def) const;
  // Typed getters; values were validated by Set, so these cannot fail.
  int64_t GetInt(const std::string& key, int64_t def) const;
  double GetDouble(const std::string& key, double def) const;
  // Origin of a property for error messages ("<default>" when unset).
  std::string Where(const std::string& key) const;

  const std::map<std::string, std::string>& values() const { return values_; }
  // Every property name this parser accepts.
  static std::vector<std::string> KnownNames();

 private:
  std::map<std::string, std::string> values_;
  std::map<std::string, std::string> where_;
};

}  // namespace ycsb

#endif  // WORKLOADS_YCSB_PROPERTIES_H_

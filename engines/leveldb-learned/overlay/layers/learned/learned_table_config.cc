#include "layers/learned/learned_table_config.h"

#include <cstdlib>

#include "lidx/registry.h"
#include "lidx/string_index.h"

namespace leveldb {

namespace {

bool ParseUint(const std::string& key, const std::string& v, uint64_t min, uint64_t* out,
               std::string* err) {
  char* end = nullptr;
  const uint64_t x = std::strtoull(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || v[0] == '-' || x < min) {
    *err = key + ": an integer >= " + std::to_string(min) + " expected, got '" + v + "'";
    return false;
  }
  *out = x;
  return true;
}

bool ParseBool(const std::string& key, const std::string& v, bool* out, std::string* err) {
  if (v != "true" && v != "false") {
    *err = key + ": true or false expected, got '" + v + "'";
    return false;
  }
  *out = v == "true";
  return true;
}

bool OneOf(const std::string& key, const std::string& v, const std::vector<std::string>& allowed,
           std::string* err) {
  for (const std::string& a : allowed) {
    if (a == v) return true;
  }
  std::string list;
  for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
  *err = key + ": one of " + list + " expected, got '" + v + "'";
  return false;
}

bool IsTableIndex(const std::string& id) {
  const lidx::IndexInfo* info = lidx::FindIndexInfo(id);
  return info != nullptr && info->table;
}

}  // namespace

const std::vector<std::string>& LearnedTableOptionKeys() {
  static const std::vector<std::string> kKeys = {
      "index",         "position_boundary",   "keep_keys",        "retrain",
      "slr",           "slr_segments",        "slr_error_threshold", "slr_max_segments",
      "slr_min_pairs", "slr_last_mile",       "index_knobs",      "rmi_leaves"};
  return kKeys;
}

bool SetLearnedTableOption(const std::string& k, const std::string& v, LearnedTableConfig* c,
                           std::string* err) {
  if (k == "index") {
    c->index = v;
    if (v == "native" || IsTableIndex(v)) return true;
    *err = "index: one of " + lidx::JoinIds([](const lidx::IndexInfo& i) { return i.table; }) +
           " or native expected, got '" + v + "'";
    return false;
  }
  if (k == "position_boundary") return ParseUint(k, v, 2, &c->position_boundary, err);
  if (k == "keep_keys") return ParseBool(k, v, &c->keep_keys, err);
  if (k == "retrain") return ParseBool(k, v, &c->retrain, err);
  if (k == "slr") {
    if (!OneOf(k, v, {"off", "binary", "eq", "ea", "eq-bad"}, err)) return false;
    // seed 003 Fig. 8's fourth mechanism as one value of `slr`, so a
    // figure's grid can list it beside the others.
    c->slr = v == "eq-bad" ? "eq" : v;
    if (v == "eq-bad") c->knobs["bad_segments"] = "1";
    return true;
  }
  if (k == "slr_last_mile") {
    if (!OneOf(k, v, {"paper", "linear", "binary", "exponential"}, err)) return false;
    c->slr_last_mile = v == "paper" ? "" : v;
    return true;
  }
  if (k == "slr_segments") return ParseUint(k, v, 1, &c->slr_segments, err);
  if (k == "slr_error_threshold") return ParseUint(k, v, 0, &c->slr_error_threshold, err);
  if (k == "slr_max_segments") return ParseUint(k, v, 1, &c->slr_max_segments, err);
  if (k == "slr_min_pairs") return ParseUint(k, v, 0, &c->slr_min_pairs, err);
  if (k == "rmi_leaves") return ParseUint(k, v, 0, &c->rmi_leaves, err);
  if (k == "index_knobs") {
    lidx::Options o;
    if (!lidx::ParseKnobList(v, &o, err)) {
      *err = "index_knobs " + *err;
      return false;
    }
    for (const auto& kv : o) c->knobs[kv.first] = kv.second;
    return true;
  }
  if (k.compare(0, 5, "knob.") == 0 && k.size() > 5) {
    c->knobs[k.substr(5)] = v;
    return true;
  }
  std::string keys;
  for (const std::string& known : LearnedTableOptionKeys()) keys += known + ", ";
  *err = "learned table option '" + k + "' unknown (knows " + keys + "knob.NAME)";
  return false;
}

bool ParseLearnedTableConfig(const std::string& spec, LearnedTableConfig* c,
                             std::string* err) {
  size_t pos = 0;
  while (pos < spec.size()) {
    size_t comma = spec.find(',', pos);
    if (comma == std::string::npos) comma = spec.size();
    const std::string item = spec.substr(pos, comma - pos);
    pos = comma + 1;
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    if (eq == std::string::npos) {
      *err = "learned table spec item '" + item + "': expected key=value";
      return false;
    }
    if (!SetLearnedTableOption(item.substr(0, eq), item.substr(eq + 1), c, err)) return false;
  }
  return true;
}

bool IsStringIndex(const std::string& id) {
  for (const std::string& s : lidx::RegisteredStringIds()) {
    if (s == id) return true;
  }
  return false;
}

std::vector<std::string> TableIndexIds() {
  std::vector<std::string> ids;
  for (const lidx::IndexInfo& i : lidx::Infos()) {
    if (i.table) ids.emplace_back(i.id);
  }
  return ids;
}

std::string BoundaryKnobNames() {
  std::string out;
  for (const lidx::IndexInfo& i : lidx::Infos()) {
    if (!i.table) continue;
    out += (out.empty() ? "" : ", ") + std::string(i.id) + ": " +
           (i.knob.empty() ? std::string("none") : std::string(i.knob));
  }
  return out;
}

std::map<std::string, std::string> TableIndexKnobs(const LearnedTableConfig& c, uint64_t n) {
  const lidx::IndexInfo* info = lidx::FindIndexInfo(c.index);
  lidx::Options o = info ? lidx::BoundaryKnobs(*info, c.position_boundary, n) : lidx::Options();
  if (info != nullptr && info->boundary == lidx::BoundaryKind::kLeaves && c.rmi_leaves > 0) {
    o[std::string(info->knob)] = std::to_string(c.rmi_leaves);
  }
  for (const auto& kv : c.knobs) o[kv.first] = kv.second;
  return o;
}

std::map<std::string, std::string> SlrKnobs(const LearnedTableConfig& c) {
  // min_pairs 2: lidx models any two keys or more; which data blocks get a
  // model is slr_min_pairs', the builder's choice.
  lidx::Options o{{"error_threshold", std::to_string(c.slr_error_threshold)},
                  {"min_pairs", "2"}};
  if (!c.slr_last_mile.empty()) o["last_mile"] = c.slr_last_mile;
  if (c.slr == "eq") {
    o["segments"] = std::to_string(c.slr_segments);
  } else {
    o["max_segments"] = std::to_string(c.slr_max_segments);
  }
  for (const auto& kv : c.knobs) o[kv.first] = kv.second;
  return o;
}

bool CheckLearnedTableConfig(const LearnedTableConfig& c, std::string* err) {
  if (c.retrain && c.index == "native") {
    *err = "retrain trains a learned index over each table's keys: it needs a learned index, "
           "not index=native";
    return false;
  }
  if (c.index == "native") {
    if (c.slr != "eq" && c.slr != "ea") return true;
    return lidx::MakeIndex<uint64_t>("slr-" + c.slr, SlrKnobs(c), err) != nullptr;
  }
  if (c.slr != "off") {
    *err = "slr=" + c.slr + " searches LevelDB's own index block: it needs index=native, not '" +
           c.index + "'";
    return false;
  }
  if (c.index == kFencePointers) {
    // LevelDB's own table (fp_table.h): no lidx model, no packed entries.
    if (c.keep_keys || !c.knobs.empty()) {
      *err = std::string("index=fp writes LevelDB's own tables (a data block every "
                         "position_boundary entries): ") +
             (c.keep_keys ? "keep_keys" : "index_knobs") + " does not apply";
      return false;
    }
    return true;
  }
  if (!IsTableIndex(c.index)) {
    *err = "index '" + c.index + "' is not one of the table indexes (" +
           lidx::JoinIds([](const lidx::IndexInfo& i) { return i.table; }) + ")";
    return false;
  }
  // The knobs, as a table of 1000 keys would get them.
  if (IsStringIndex(c.index)) {
    return lidx::MakeStringIndex(c.index, TableIndexKnobs(c, 1000), err) != nullptr;
  }
  return lidx::MakeIndex<uint64_t>(c.index, TableIndexKnobs(c, 1000), err) != nullptr;
}

}  // namespace leveldb

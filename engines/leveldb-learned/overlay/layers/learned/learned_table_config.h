// The learned table's configuration and its one parser (engines/
// leveldb-learned). Both ways in go through SetLearnedTableOption: the
// lsmbench adapter (`-o key=value`) and LEVELDB_TABLE_FORMAT's spec
// ("index=pgm,position_boundary=16,knob.epsilon_recursive=4") for LevelDB's
// upstream tests. Which indexes a table takes, and how `position_boundary`
// becomes their knobs, is lidx's registry (lidx/registry.h), not this file.
// Depends on lidx and the standard library only (no LevelDB), so a test can
// compile it against a registry with a throwaway index.
//
// Usage:
//   LearnedTableConfig c;  std::string err;
//   if (!SetLearnedTableOption("index", "rmi", &c, &err) ||
//       !CheckLearnedTableConfig(c, &err)) die(err);
//   lidx::Options knobs = TableIndexKnobs(c, n);
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_CONFIG_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_CONFIG_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace leveldb {

// `index` value of fence pointers as the paper built them: LevelDB's own
// table with a data block every position_boundary entries (fp_table.h),
// not lidx's `fp` index.
inline constexpr const char* kFencePointers = "fp";

struct LearnedTableConfig {
  std::string index = "pgm";  // a table index of lidx's registry, or "native"
  uint64_t position_boundary = 16;  // width of the predicted position range
  bool keep_keys = false;     // packed entries + mapped keys/offsets in memory
  std::map<std::string, std::string> knobs;  // extra lidx knobs (override)
  // index=rmi: second-level models a table, fixed, as the paper's artifact
  // sets them (LearnedIndexInLSM `--rmisize`, default 1024); 0: n /
  // position_boundary (lidx BoundaryKind::kLeaves). Other indexes have no
  // second level and ignore it, so one figure's runs can all carry it.
  uint64_t rmi_leaves = 0;
  // Tables this format did not build (a loaded database) are searched with
  // a model of this configuration trained over their keys, not with the
  // model stored in the file: the entries' layout does not depend on the
  // index, only on keep_keys (checked against each table's footer), so one
  // load serves every index and boundary. Train them before the lookups
  // with LearnedTableFormat::Retrain.
  bool retrain = false;
  // index = "native": LevelDB's own table layout, searched as `slr` says:
  // off (LevelDB's code), binary (our reader, counting comparisons), eq or
  // ea (SLR models, slr_model.h).
  std::string slr = "off";
  uint64_t slr_segments = 20;         // slr-eq segments
  uint64_t slr_error_threshold = 100; // worst error before a split / bad segment
  uint64_t slr_max_segments = 20;     // slr-ea segment budget
  uint64_t slr_min_pairs = 32;        // data blocks with fewer entries: no model
  std::string slr_last_mile;          // linear|binary|exponential; "" = paper's
};

// Sets one option: index, position_boundary, keep_keys, retrain, slr
// (off|binary|eq|ea|eq-bad), slr_segments, slr_error_threshold,
// slr_max_segments, slr_min_pairs, slr_last_mile (paper|linear|binary|
// exponential), rmi_leaves, index_knobs ("name:value;..."), knob.NAME. False and *err
// (naming the option and what it expects) on an unknown key or bad value.
bool SetLearnedTableOption(const std::string& key, const std::string& value,
                           LearnedTableConfig* c, std::string* err);

// The option keys SetLearnedTableOption knows (knob.NAME aside).
const std::vector<std::string>& LearnedTableOptionKeys();

// Parses "index=pgm,position_boundary=16,keep_keys=true,knob.epsilon_recursive=4"
// (comma-separated SetLearnedTableOption items).
bool ParseLearnedTableConfig(const std::string& spec, LearnedTableConfig* c,
                             std::string* err);

// The whole configuration's consistency: a table index of the registry (or
// native), slr only with native and retrain not, knobs the index accepts.
bool CheckLearnedTableConfig(const LearnedTableConfig& c, std::string* err);

// The registry's table indexes (lidx IndexInfo::table), in its order.
std::vector<std::string> TableIndexIds();

// Whether `id` is a string-native index (lidx string_index.h: trained on
// the raw key strings, not on mapped integers).
bool IsStringIndex(const std::string& id);

// "fp: entries, plr: delta, ..., alex: none": the knob position_boundary
// sets for each table index (for --list-options).
std::string BoundaryKnobNames();

// c.index's knobs on a table of n keys: the registry's boundary mapping
// (lidx::BoundaryKnobs), then c.knobs over them.
std::map<std::string, std::string> TableIndexKnobs(const LearnedTableConfig& c, uint64_t n);

// The knobs of c's SLR models (slr=eq|ea, lidx slr.h): c's slr_* options,
// then c.knobs over them (`bad_segments:1` is the paper's "equal-size SLR
// search with bad segments", fig. 8).
std::map<std::string, std::string> SlrKnobs(const LearnedTableConfig& c);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_CONFIG_H_

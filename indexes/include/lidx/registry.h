// The registry: THE list of index ids, each with the metadata engines and
// studies need, and its factory. MakeIndex<K>() builds one by id,
// RegisteredIds()/Infos() list them; nothing else needs to know the concrete
// index types, and nothing else lists the ids: the learned LevelDB engine
// (its option choices, knobs, errors), engines/difftest.yaml's `{table_index}`
// groups, paper/lsm_eval.py and the study grids and claims that name a
// family (`index: {family: clustered}`) read this list (Python through
// indexes/registry.json, written by `lidx_list --json` and checked equal to
// it by ctest `lidx_manifest_test`).
//
// Adding an index: the class needs a default constructor and
//   Status Configure(const Options& o);   // rejects unknown knobs by name
// Include its header in your section below and add one Entry line to your
// section of Entries(): id, label, family, table, exact, and how the
// position boundary maps to its knobs (IndexInfo below). Then regenerate
// indexes/registry.json (indexes/README.md, "Adding an index", the one
// recipe). Ids are
// lower-case and stable (they appear in serialized indexes and in result
// files).
//
// Usage:
//   std::string err;
//   auto idx = lidx::MakeIndex<uint64_t>("rs", {{"epsilon", "16"}}, &err);
//   for (const std::string& id : lidx::RegisteredIds()) ...
//   const lidx::IndexInfo* info = lidx::FindIndexInfo("pgm");
//   lidx::Options knobs = lidx::BoundaryKnobs(*info, /*boundary=*/16, /*n=*/keys);
#ifndef LIDX_REGISTRY_H_
#define LIDX_REGISTRY_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lidx/index.h"

// The EDBT evaluation's indexes (seed 000)
#include "lidx/fp.h"
#include "lidx/ft.h"
#include "lidx/pgm.h"
#include "lidx/plex.h"
#include "lidx/plr.h"
#include "lidx/rmi.h"
#include "lidx/rs.h"
// SLR (seed 003), LITS (string-native, string_index.h)
#include "lidx/lits_index.h"
#include "lidx/slr.h"
#include "lidx/string_registry.h"
// Updatable, unclustered indexes (seed 000)
#include "lidx/alex.h"
#include "lidx/lipp.h"
#include "lidx/dili.h"

namespace lidx {

// How seed 000 §4.2's `position_boundary` (the width of the predicted
// position range) becomes an index's knobs.
enum class BoundaryKind {
  kNone,     // exact: the bound is one position whatever the boundary
  kEntries,  // `knob` = boundary (fp: entries per block)
  kError,    // `knob` = boundary / 2 (error-bounded fitters: bound 2e+2 wide)
  kLeaves,   // `knob` = n / boundary, the bound as it comes (rmi)
  kLeavesHeld,  // `knob` = n / boundary, then sized until the mean bound
                // holds the boundary (rmi-sized; the engine's rmi_leaves.cc)
};

// What an engine or a study needs to know of an index, besides its class.
struct IndexInfo {
  std::string_view id;
  std::string_view label;   // as the papers write it ("PGM")
  std::string_view family;  // clustered | unclustered (seed 000 §3) | other
  bool table;               // a learned table's index (engines/leveldb-learned)
  bool exact;               // Index::Exact() (checked by harness_test)
  BoundaryKind boundary;
  std::string_view knob;    // the knob `boundary` sets ("" for kNone)
  std::string_view fixed;   // knobs set with it, "name:value;..." (paper defaults)
  // A study names indexes by family (`index: {family: clustered}`,
  // paper/README.md "Indexes by family"): a family's members are its table
  // indexes that are not a variant; `learned: true` leaves out the baseline.
  bool learned = true;          // false: the fence-pointer baseline (seed 000 §2)
  std::string_view variant_of = "";  // our variant of another index, reached by its id only
};

namespace registry_detail {

template <typename K>
using Factory = std::unique_ptr<Index<K>> (*)(const Options&, std::string*);

template <typename T, typename K>
std::unique_ptr<Index<K>> Construct(const Options& opts, std::string* err) {
  auto idx = std::make_unique<T>();
  Status s = idx->Configure(opts);
  if (!s.ok()) {
    if (err) *err = s.message();
    return nullptr;
  }
  return idx;
}

template <typename K>
struct Entry {
  IndexInfo info;
  Factory<K> make;
};

constexpr auto kErr = BoundaryKind::kError;
constexpr auto kNoKnob = BoundaryKind::kNone;  // exact, or not a table index

template <typename K>
const std::vector<Entry<K>>& Entries() {
  static const std::vector<Entry<K>> kEntries = {
      // seed 000, clustered (§4.2: error = boundary / 2; PGM's recursive
      // epsilon 4, RS's radix bits 1 as the paper's defaults)
      {{"fp", "FP", "clustered", true, false, BoundaryKind::kEntries, "entries", "",
        /*learned=*/false},
       &Construct<FenceIndex<K>, K>},
      {{"plr", "PLR", "clustered", true, false, kErr, "delta", ""}, &Construct<PlrIndex<K>, K>},
      {{"ft", "FT", "clustered", true, false, kErr, "error", ""},
       &Construct<FitingTreeIndex<K>, K>},
      {{"pgm", "PGM", "clustered", true, false, kErr, "epsilon", "epsilon_recursive:4"},
       &Construct<PgmIndex<K>, K>},
      {{"rs", "RS", "clustered", true, false, kErr, "epsilon", "radix_bits:1"},
       &Construct<RadixSplineIndex<K>, K>},
      {{"plex", "PLEX", "clustered", true, false, kErr, "epsilon", ""},
       &Construct<PlexIndex<K>, K>},
      // RMI as seed 000 §4.2 has it ("a two-level model tree. To vary the
      // position boundary, we adjust the size of the second level"), in its
      // artifact's configuration (LearnedIndexInLSM mod/learned_index.cpp:
      // RmiLAbs<uint64_t, LinearSpline, LinearRegression>(keys, layer2_size)):
      // n / boundary leaves under a linear-spline root, each leaf's error
      // as it comes. rmi-sized: our RMI that holds the boundary (radix or
      // spline root, leaves sized to a mean bound within it).
      {{"rmi", "RMI", "clustered", true, false, BoundaryKind::kLeaves, "leaves",
        "root:linear_spline"},
       &Construct<RmiIndex<K>, K>},
      {{"rmi-sized", "RMI-sized", "clustered", true, false, BoundaryKind::kLeavesHeld, "leaves",
        "", /*learned=*/true, /*variant_of=*/"rmi"},
       &Construct<SizedRmiIndex<K>, K>},
      // seed 003 (over LevelDB's own index block, not tables)
      {{"slr-eq", "SLR-EQ", "other", false, false, kNoKnob, "", ""}, &Construct<SlrEq<K>, K>},
      {{"slr-ea", "SLR-EA", "other", false, false, kNoKnob, "", ""}, &Construct<SlrEa<K>, K>},
      // seed 000, unclustered
      {{"alex", "ALEX", "unclustered", true, true, kNoKnob, "", ""}, &Construct<AlexIndex<K>, K>},
      {{"lipp", "LIPP", "unclustered", true, true, kNoKnob, "", ""}, &Construct<LippIndex<K>, K>},
      {{"dili", "DILI", "unclustered", true, true, kNoKnob, "", ""}, &Construct<DiliIndex<K>, K>},
      // LITS (string-native, string_index.h; here over 8-byte mapped keys)
      {{"lits", "LITS", "unclustered", true, true, kNoKnob, "", ""}, &Construct<LitsIndex<K>, K>},
#ifdef LIDX_EXTRA_ENTRIES
      // A test build's throwaway indexes (tests/test_add_index.py follows
      // indexes/README.md's "Adding an index" with one).
      LIDX_EXTRA_ENTRIES
#endif
  };
  return kEntries;
}

}  // namespace registry_detail

// Every registered index's metadata, in registration order.
inline std::vector<IndexInfo> Infos() {
  std::vector<IndexInfo> out;
  for (const auto& e : registry_detail::Entries<uint64_t>()) out.push_back(e.info);
  return out;
}

// Null for an unknown id.
inline const IndexInfo* FindIndexInfo(std::string_view id) {
  for (const auto& e : registry_detail::Entries<uint64_t>()) {
    if (e.info.id == id) return &e.info;
  }
  return nullptr;
}

// The ids of `Infos()` passing `keep`, joined by `sep` (for error texts).
template <typename Pred>
std::string JoinIds(Pred keep, std::string_view sep = " ") {
  std::string out;
  for (const IndexInfo& i : Infos()) {
    if (!keep(i)) continue;
    if (!out.empty()) out += sep;
    out += i.id;
  }
  return out;
}

// "name:value;name:value" into *o (later names override); false and *err on
// an item without a name or a colon.
inline bool ParseKnobList(std::string_view text, Options* o, std::string* err) {
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find(';', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(pos, end - pos);
    size_t colon = item.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      if (err) *err = "'" + std::string(text) + "': expected name:value;name:value";
      return false;
    }
    (*o)[std::string(item.substr(0, colon))] = std::string(item.substr(colon + 1));
    pos = end + 1;
  }
  return true;
}

// The knobs that make `boundary` the width of `info`'s predicted range on a
// table of n keys (IndexInfo::boundary), with its fixed knobs.
inline Options BoundaryKnobs(const IndexInfo& info, uint64_t boundary, uint64_t n) {
  Options o;
  ParseKnobList(info.fixed, &o, nullptr);
  const uint64_t b = boundary < 1 ? 1 : boundary;
  switch (info.boundary) {
    case BoundaryKind::kNone:
      break;
    case BoundaryKind::kEntries:
      o[std::string(info.knob)] = std::to_string(b);
      break;
    case BoundaryKind::kError:
      o[std::string(info.knob)] = std::to_string(b / 2 < 1 ? 1 : b / 2);
      break;
    case BoundaryKind::kLeaves:
    case BoundaryKind::kLeavesHeld:
      o[std::string(info.knob)] = std::to_string(n / b < 1 ? 1 : n / b);
      break;
  }
  return o;
}

template <typename K>
std::unique_ptr<Index<K>> MakeIndex(std::string_view id, const Options& opts,
                                    std::string* err) {
  for (const auto& e : registry_detail::Entries<K>()) {
    if (e.info.id == id) return e.make(opts, err);
  }
  if (err) {
    *err = "lidx: unknown index id '" + std::string(id) + "' (known: " +
           JoinIds([](const IndexInfo&) { return true; }, ",") + ")";
  }
  return nullptr;
}

// Every registered integer-key index id, in registration order.
inline std::vector<std::string> RegisteredIds() {
  std::vector<std::string> ids;
  for (const auto& e : registry_detail::Entries<uint64_t>()) {
    ids.emplace_back(e.info.id);
  }
  return ids;
}

}  // namespace lidx

#endif  // LIDX_REGISTRY_H_

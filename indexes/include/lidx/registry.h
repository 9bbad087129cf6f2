// The registry: index id -> factory. MakeIndex<K>() and RegisteredIds() are
// what engines, the property tests and the benchmark use; nothing else needs
// to know the concrete index types.
//
// Adding an index: the class needs a default constructor and
//   Status Configure(const Options& o);   // rejects unknown knobs by name
// Include its header in your section below and add one line to your section
// of Entries(). Ids are lower-case and stable (they appear in serialized
// indexes and in result files).
//
// Usage:
//   std::string err;
//   auto idx = lidx::MakeIndex<uint64_t>("rs", {{"epsilon", "16"}}, &err);
//   for (const std::string& id : lidx::RegisteredIds()) ...
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
// SLR (seed 003); lits is string-native (string_index.h)
#include "lidx/lits.h"
#include "lidx/slr.h"
// Updatable, unclustered indexes (seed 000)
#include "lidx/alex.h"
#include "lidx/lipp.h"
#include "lidx/dili.h"

namespace lidx {
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
const std::vector<std::pair<std::string_view, Factory<K>>>& Entries() {
  static const std::vector<std::pair<std::string_view, Factory<K>>> kEntries = {
      // seed 000, clustered
      {"fp", &Construct<FenceIndex<K>, K>},
      {"plr", &Construct<PlrIndex<K>, K>},
      {"ft", &Construct<FitingTreeIndex<K>, K>},
      {"pgm", &Construct<PgmIndex<K>, K>},
      {"rs", &Construct<RadixSplineIndex<K>, K>},
      {"plex", &Construct<PlexIndex<K>, K>},
      {"rmi", &Construct<RmiIndex<K>, K>},
      // seed 003, and LITS
      {"slr-eq", &Construct<SlrEq<K>, K>},
      {"slr-ea", &Construct<SlrEa<K>, K>},
      {"lits", &Construct<LitsIndex<K>, K>},
      // seed 000, unclustered
      {"alex", &Construct<AlexIndex<K>, K>},
      {"lipp", &Construct<LippIndex<K>, K>},
      {"dili", &Construct<DiliIndex<K>, K>},
  };
  return kEntries;
}

}  // namespace registry_detail

template <typename K>
std::unique_ptr<Index<K>> MakeIndex(std::string_view id, const Options& opts,
                                    std::string* err) {
  for (const auto& [name, factory] : registry_detail::Entries<K>()) {
    if (name == id) return factory(opts, err);
  }
  if (err) {
    std::string known;
    for (const auto& e : registry_detail::Entries<K>()) {
      known += known.empty() ? "" : ",";
      known += e.first;
    }
    *err = "lidx: unknown index id '" + std::string(id) + "' (known: " +
           known + ")";
  }
  return nullptr;
}

// Every registered integer-key index id, in registration order.
inline std::vector<std::string> RegisteredIds() {
  std::vector<std::string> ids;
  for (const auto& e : registry_detail::Entries<uint64_t>()) {
    ids.emplace_back(e.first);
  }
  return ids;
}

}  // namespace lidx

#endif  // LIDX_REGISTRY_H_

// One model of an SLR table (seed 003 §4.2; layout: slr_table_footer.h):
// lidx's slr-eq or slr-ea over the restart points of one block, the index
// block's or a data block's, keyed by each restart's user key after the
// table's common prefix (MapAfterPrefix). The builder trains it here, the
// model area (slr_model_area.h) stores it, the reader searches with it.
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_SLR_MODEL_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_SLR_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "layers/learned/learned_model.h"
#include "layers/learned/learned_table_config.h"
#include "layers/learned/slr_restarts.h"
#include "leveldb/slice.h"
#include "lidx/key_map.h"
#include "lidx/slr.h"

namespace leveldb {

// Equal-size or error-aware: one of the two is set. Concrete types, not
// lidx::Index: Search also says which last mile to use for that lookup.
struct SlrModel {
  std::unique_ptr<lidx::SlrEq<uint64_t>> eq;
  std::unique_ptr<lidx::SlrEa<uint64_t>> ea;

  // c's model (c.slr: eq or ea, SlrKnobs) trained over the restart keys of
  // `r`; false and *err when a knob is refused or the build fails.
  static bool Train(const LearnedTableConfig& c, const Restarts& r, const std::string& prefix,
                    SlrModel* m, std::string* err);

  lidx::Bound Search(uint64_t q, lidx::LastMileKind* kind) const {
    return eq ? eq->Search(q, kind) : ea->Search(q, kind);
  }
  bool UsesModel() const { return eq ? eq->UsesModel() : ea->UsesModel(); }
  size_t Segments() const { return eq ? eq->Segments() : ea->Segments(); }
  size_t MemoryBytes() const { return eq ? eq->MemoryBytes() : ea->MemoryBytes(); }
  void Serialize(std::string* out) const;
  // Either kind, as the blob's header says.
  lidx::Status Deserialize(std::string_view blob);
};

// Mapped user key after the table's common prefix: order-preserving over
// all keys (those not sharing the prefix sort below or above every one).
inline uint64_t MapAfterPrefix(const Slice& ikey, const std::string& prefix) {
  Slice u = UserKeyOf(ikey);
  if (!u.starts_with(prefix)) return Slice(prefix).compare(u) > 0 ? 0 : ~0ull;
  return lidx::MapKey<uint64_t>(
      std::string_view(u.data() + prefix.size(), u.size() - prefix.size()));
}

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_SLR_MODEL_H_

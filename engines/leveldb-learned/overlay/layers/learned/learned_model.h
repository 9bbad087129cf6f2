// A learned table's model and its training (engines/leveldb-learned): an
// integer index of lidx over the mapped user keys (common prefix removed),
// or a string-native one over the keys themselves. The builder, retraining
// on open and the level models train through here, so a table's model is
// the same whichever trained it; RMI's leaf count is sized here too
// (rmi_leaves.h).
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_MODEL_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_MODEL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "layers/learned/learned_table_config.h"
#include "leveldb/slice.h"
#include "lidx/index.h"
#include "lidx/key_map.h"
#include "lidx/string_index.h"

namespace leveldb {

// One model: an integer index over mapped keys, or a string index.
struct Model {
  std::unique_ptr<lidx::Index<uint64_t>> ints;
  std::unique_ptr<lidx::StringIndex> strings;
  // How ints' keys were mapped (lidx key_map.h): chosen from the keys when
  // trained, the footer's kFlagDecimalKeys when loaded.
  lidx::KeyMap key_map = lidx::KeyMap::kBytes;

  // An untrained model of c's index with its knobs for n keys; false and
  // *err when the index or a knob is unknown.
  static bool Make(const LearnedTableConfig& c, uint64_t n, Model* m, std::string* err);
  size_t MemoryBytes() const;
  uint64_t Segments() const;
};

// What a reader searches with: the stored model, or one trained on open
// (retrain), shared by every reader of the table.
struct TableModel {
  std::string prefix;          // the user keys' common prefix
  Model model;
  std::vector<uint64_t> keys;  // keep_keys, integer index: the mapped keys
};

// Trains c's index over a table's user keys with their common prefix
// removed (`keys`, in order); an integer index gets the keys mapped by the
// map they choose (lidx::ChooseKeyMap: decimal for digit keys, as the
// paper's artifact reads them), left in *mapped. *trainings: the models trained (1, or 2 for RMI's sizing).
lidx::Status TrainModel(const LearnedTableConfig& c, const std::vector<std::string_view>& keys,
                        Model* model, std::vector<uint64_t>* mapped, uint64_t* trainings,
                        std::string* err);

// For level models: c's integer index trained over `mapped` (sorted) as a
// table's model is (*out null and *err set when it cannot be).
lidx::Status TrainLearnedIndex(const LearnedTableConfig& c, const std::vector<uint64_t>& mapped,
                               std::unique_ptr<lidx::Index<uint64_t>>* out, std::string* err);

// "index 'X' cannot be built on table 000005.ldb (200000 entries)".
std::string CannotBuild(const LearnedTableConfig& c, uint64_t number, uint64_t n);

// An internal key's user key.
inline Slice UserKeyOf(const Slice& ikey) {
  return Slice(ikey.data(), ikey.size() >= 8 ? ikey.size() - 8 : 0);
}
std::string CommonPrefix(const Slice& first, const Slice& last);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_MODEL_H_

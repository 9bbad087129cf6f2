#include "layers/learned/learned_model.h"

#include "layers/learned/learned_table_footer.h"
#include "layers/learned/rmi_leaves.h"
#include "lidx/key_map.h"
#include "lidx/registry.h"

namespace leveldb {

bool Model::Make(const LearnedTableConfig& c, uint64_t n, Model* m, std::string* err) {
  if (IsStringIndex(c.index)) {
    m->strings = lidx::MakeStringIndex(c.index, TableIndexKnobs(c, n), err);
    return m->strings != nullptr;
  }
  const lidx::IndexInfo* info = lidx::FindIndexInfo(c.index);
  if (info != nullptr && !info->table) {
    *err = "index '" + c.index + "' is not one of the table indexes (" +
           lidx::JoinIds([](const lidx::IndexInfo& i) { return i.table; }) + ")";
    return false;
  }
  m->ints = lidx::MakeIndex<uint64_t>(c.index, TableIndexKnobs(c, n), err);
  return m->ints != nullptr;
}

size_t Model::MemoryBytes() const {
  return ints ? ints->MemoryBytes() : strings ? strings->MemoryBytes() : 0;
}

uint64_t Model::Segments() const {
  return ints ? ints->Stats().segments : strings ? strings->Stats().segments : 0;
}

std::string CommonPrefix(const Slice& first, const Slice& last) {
  size_t p = 0;
  while (p < first.size() && p < last.size() && first[p] == last[p]) p++;
  return std::string(first.data(), p);
}

std::string CannotBuild(const LearnedTableConfig& c, uint64_t number, uint64_t n) {
  return "index '" + c.index + "' cannot be built on table " + LearnedTableName(number) + " (" +
         std::to_string(n) + " entries)";
}

namespace {

// rmi-sized's leaves are sized to the boundary unless the knobs fix them
// (rmi keeps n / boundary, as the paper's).
bool SizesRmiLeaves(const LearnedTableConfig& c) {
  const lidx::IndexInfo* info = lidx::FindIndexInfo(c.index);
  return info != nullptr && info->boundary == lidx::BoundaryKind::kLeavesHeld &&
         c.knobs.count(std::string(info->knob)) == 0;
}

}  // namespace

lidx::Status TrainModel(const LearnedTableConfig& c, const std::vector<std::string_view>& keys,
                        Model* model, std::vector<uint64_t>* mapped, uint64_t* trainings,
                        std::string* err) {
  const uint64_t n = keys.size();
  *trainings = 1;
  if (!Model::Make(c, n, model, err)) return lidx::Status::Error(*err);
  if (model->strings) return model->strings->Build(keys.data(), n, nullptr);
  model->key_map = lidx::ChooseKeyMap(keys);
  mapped->resize(n);
  for (uint64_t i = 0; i < n; i++) (*mapped)[i] = lidx::MapKey(model->key_map, keys[i]);
  lidx::Status s = model->ints->Build(mapped->data(), n, nullptr);
  if (s.ok() && SizesRmiLeaves(c)) s = SizeRmiLeaves(c, *mapped, &model->ints, trainings, err);
  return s;
}

lidx::Status TrainLearnedIndex(const LearnedTableConfig& c, const std::vector<uint64_t>& mapped,
                               std::unique_ptr<lidx::Index<uint64_t>>* out, std::string* err) {
  out->reset();
  Model m;
  if (!Model::Make(c, mapped.size(), &m, err)) return lidx::Status::Error(*err);
  if (m.strings) return lidx::Status::Error("index '" + c.index + "' takes string keys");
  lidx::Status s = m.ints->Build(mapped.data(), mapped.size(), nullptr);
  uint64_t trainings = 1;
  if (s.ok() && SizesRmiLeaves(c)) s = SizeRmiLeaves(c, mapped, &m.ints, &trainings, err);
  if (s.ok()) *out = std::move(m.ints);
  return s;
}

}  // namespace leveldb

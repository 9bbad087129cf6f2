#include "layers/learned/slr_model.h"

#include <vector>

namespace leveldb {

bool SlrModel::Train(const LearnedTableConfig& c, const Restarts& r, const std::string& prefix,
                     SlrModel* m, std::string* err) {
  const lidx::Options o = SlrKnobs(c);
  lidx::Status s;
  if (c.slr == "eq") {
    m->eq = std::make_unique<lidx::SlrEq<uint64_t>>();
    s = m->eq->Configure(o);
  } else {
    m->ea = std::make_unique<lidx::SlrEa<uint64_t>>();
    s = m->ea->Configure(o);
  }
  if (s.ok()) {
    std::vector<uint64_t> mapped(r.count);
    for (uint32_t i = 0; i < r.count; i++) mapped[i] = MapAfterPrefix(r.Key(i), prefix);
    s = m->eq ? m->eq->Build(mapped.data(), mapped.size(), nullptr)
              : m->ea->Build(mapped.data(), mapped.size(), nullptr);
  }
  if (!s.ok()) *err = s.message();
  return s.ok();
}

void SlrModel::Serialize(std::string* out) const {
  if (eq) {
    eq->Serialize(out);
  } else {
    ea->Serialize(out);
  }
}

lidx::Status SlrModel::Deserialize(std::string_view blob) {
  eq = std::make_unique<lidx::SlrEq<uint64_t>>();
  if (eq->Deserialize(blob).ok()) return lidx::Status::OK();
  eq.reset();
  ea = std::make_unique<lidx::SlrEa<uint64_t>>();
  return ea->Deserialize(blob);
}

}  // namespace leveldb

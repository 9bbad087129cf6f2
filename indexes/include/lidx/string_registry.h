// The string indexes by id, as registry.h is for the integer ones.
#ifndef LIDX_STRING_REGISTRY_H_
#define LIDX_STRING_REGISTRY_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lidx/lits.h"
#include "lidx/string_index.h"

namespace lidx {

inline std::unique_ptr<StringIndex> MakeStringIndex(std::string_view id,
                                                    const Options& opts,
                                                    std::string* err) {
  if (id == "lits") {
    auto idx = std::make_unique<Lits>();
    Status s = idx->Configure(opts);
    if (!s.ok()) {
      if (err) *err = s.message();
      return nullptr;
    }
    return idx;
  }
  if (err) {
    *err = "lidx: unknown string index id '" + std::string(id) +
           "' (known: lits)";
  }
  return nullptr;
}

inline std::vector<std::string> RegisteredStringIds() { return {"lits"}; }

}  // namespace lidx

#endif  // LIDX_STRING_REGISTRY_H_

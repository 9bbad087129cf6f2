// Every key-set generator datagen knows, by name. The names are the
// `generator` field of workloads/datasets.yaml.
#ifndef WORKLOADS_GEN_REGISTRY_H_
#define WORKLOADS_GEN_REGISTRY_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gen/keyset.h"

namespace gen {

struct Generator {
  std::string name;
  std::string summary;
  // Empty for generators that are what they are; else the real dataset this
  // one stands in for (the manifest's stand-in flag comes from here).
  std::string stands_in_for;
  // Fills sorted keys; `width` (32 or 64) is the output file's key width.
  std::function<bool(uint64_t n, uint64_t seed, int width, Params* params, Keys* out,
                     std::string* err)>
      run;
};

const std::vector<Generator>& Generators();
const Generator* FindGenerator(const std::string& name);

}  // namespace gen

#endif  // WORKLOADS_GEN_REGISTRY_H_

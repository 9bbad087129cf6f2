// Shared vocabulary of the dataset generators: a generator turns (count,
// seed, params) into a sorted key vector; a Params map carries its knobs.
#ifndef WORKLOADS_GEN_KEYSET_H_
#define WORKLOADS_GEN_KEYSET_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ycsb/random.h"

namespace gen {

using Keys = std::vector<uint64_t>;

// Generator parameters as given on the command line (`--param sigma=2`).
// Reading a parameter marks it used, so a misspelt one is reported instead
// of silently ignored.
class Params {
 public:
  Params() = default;
  explicit Params(std::map<std::string, std::string> v) : values_(std::move(v)) {}
  double Real(const std::string& key, double def);
  uint64_t Count(const std::string& key, uint64_t def);
  // Empty when every parameter was read, else the names of the unread ones.
  std::string Unused() const;
  // First malformed value seen by Real/Count, with what was expected.
  const std::string& error() const { return error_; }
  const std::map<std::string, std::string>& values() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> used_;
  std::string error_;
};

// Draws until `n` distinct keys exist, then returns them sorted. `draw`
// returns one candidate per call. Gives up (returns false) after
// max_rounds refills, which only a key space smaller than n can cause.
bool FillDistinct(uint64_t n, const std::function<uint64_t()>& draw, Keys* out,
                  int max_rounds = 64);

}  // namespace gen

#endif  // WORKLOADS_GEN_KEYSET_H_

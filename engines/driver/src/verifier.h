// Checks every answer an engine gives against what the loaded dataset and
// the run's own writes say it must be. A single wrong answer fails the run:
// a learned index that returns the wrong record is not "fast".
#ifndef LSMBENCH_VERIFIER_H_
#define LSMBENCH_VERIFIER_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine.h"
#include "key_codec.h"
#include "ops.h"

namespace lsmbench {

class Verifier {
 public:
  // `keys`: the loaded keys, sorted and distinct, stored at version 0. Kept
  // by pointer: the caller owns them for the verifier's lifetime.
  Verifier(const std::vector<uint64_t>* keys, size_t value_bytes, const KeyCodec& codec);

  // The version the next put writes, recorded as the key's expected value.
  uint64_t NotePut(uint64_t key);
  // The key is absent from now on (until the next put).
  void NoteDelete(uint64_t key);

  // Each returns false (and remembers the case) on a wrong answer.
  bool CheckGet(const Op& op, bool found, std::string_view value);
  bool CheckScan(const Op& op, const std::vector<KV>& got);

  uint64_t verified() const { return verified_; }
  uint64_t wrong() const { return wrong_; }
  // The `check` record body: lookups verified, wrong answers, the first few
  // wrong answers spelled out.
  nlohmann::json ToJson() const;

 private:
  bool Lookup(uint64_t key, uint64_t* version) const;
  bool Wrong(const Op& op, std::string what);

  const std::vector<uint64_t>* keys_;
  size_t value_bytes_;
  KeyCodec codec_;
  // Keys written during the run: key -> version (inserts and updates), or
  // kDeleted for a key the run deleted.
  static constexpr uint64_t kDeleted = UINT64_MAX;
  std::map<uint64_t, uint64_t> written_;
  uint64_t next_version_ = 1;
  uint64_t verified_ = 0;
  uint64_t wrong_ = 0;
  std::vector<std::string> examples_;
  std::string scratch_;
};

}  // namespace lsmbench

#endif  // LSMBENCH_VERIFIER_H_

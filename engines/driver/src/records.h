// The values lsmbench stores: a deterministic function of (key, version),
// so every answer can be checked without keeping values. Keys become engine
// keys through key_codec.h.
#ifndef LSMBENCH_RECORDS_H_
#define LSMBENCH_RECORDS_H_

#include <cstdint>
#include <cstring>
#include <string>

#include "ycsb/random.h"

namespace lsmbench {

// Value bytes for (key, version): the key and version in the first 16 bytes
// (when they fit) so a wrong answer is readable in the log, then
// pseudo-random filler seeded by both.
inline void MakeValue(uint64_t key, uint64_t version, size_t len, std::string* out) {
  out->resize(len);
  char* p = out->data();
  uint64_t head[2] = {key, version};
  size_t n = len < sizeof(head) ? len : sizeof(head);
  std::memcpy(p, head, n);
  uint64_t state = key * 0x2545f4914f6cdd1dull ^ version;
  for (size_t i = n; i < len; i += 8) {
    uint64_t r = ycsb::SplitMix64(&state);
    std::memcpy(p + i, &r, len - i < 8 ? len - i : 8);
  }
}

}  // namespace lsmbench

#endif  // LSMBENCH_RECORDS_H_

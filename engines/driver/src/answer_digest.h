// A running digest of every answer a run gives (found flags, values, scan
// entries), in op order. Two engines given the same stream agree on every
// answer exactly when their digests match (up to a 2^-64 chance): what the
// differential test (engines/difftest.py) compares across builds.
#ifndef LSMBENCH_ANSWER_DIGEST_H_
#define LSMBENCH_ANSWER_DIGEST_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "engine.h"

namespace lsmbench {

// FNV-1a, 64-bit: stable across compilers and platforms, unlike std::hash.
class AnswerDigest {
 public:
  void Get(bool found, std::string_view value) {
    Byte('G');
    Byte(found ? 1 : 0);
    if (found) Bytes(value);
    answers_++;
  }
  void Scan(const std::vector<KV>& entries) {
    Byte('S');
    Number(entries.size());
    for (const KV& kv : entries) {
      Bytes(kv.first);
      Bytes(kv.second);
    }
    answers_++;
  }
  uint64_t answers() const { return answers_; }
  std::string Hex() const {
    char buf[17];
    std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(h_));
    return buf;
  }

 private:
  void Byte(unsigned char c) { h_ = (h_ ^ c) * 0x100000001b3ull; }
  void Number(uint64_t n) {
    for (int i = 0; i < 8; i++, n >>= 8) Byte(n & 0xff);
  }
  // Length first, so ("ab","c") and ("a","bc") differ.
  void Bytes(std::string_view s) {
    Number(s.size());
    for (char c : s) Byte(static_cast<unsigned char>(c));
  }
  uint64_t h_ = 0xcbf29ce484222325ull;
  uint64_t answers_ = 0;
};

}  // namespace lsmbench

#endif  // LSMBENCH_ANSWER_DIGEST_H_

// CoreWorkload.buildKeyName: "user" + the decimal of the key number (hashed
// with fnvhash64 unless inserts are ordered), left-padded with zeros to
// `zeropadding` digits. Java pads the whole Long.toString, sign included, so
// a negative hash (fnvhash64 of a value whose FNV is Long.MIN_VALUE) would
// come out as "user-9223372036854775808"; we build it the same way.
#ifndef WORKLOADS_YCSB_KEY_NAME_H_
#define WORKLOADS_YCSB_KEY_NAME_H_

#include <cstdint>
#include <string>

#include "ycsb/fnv.h"

namespace ycsb {

inline std::string BuildKeyName(int64_t keynum, int zeropadding, bool ordered) {
  if (!ordered) keynum = FnvHash64(keynum);
  std::string value = std::to_string(keynum);
  std::string key = "user";
  int fill = zeropadding - static_cast<int>(value.size());
  if (fill > 0) key.append(static_cast<size_t>(fill), '0');
  return key + value;
}

}  // namespace ycsb

#endif  // WORKLOADS_YCSB_KEY_NAME_H_

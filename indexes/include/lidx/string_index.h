// lidx::StringIndex: Index<K> for variable-length byte-string keys.
//
// Contract (as index.h, with std::string_view keys ordered bytewise like
// memcmp, a proper prefix sorting first, as LevelDB's BytewiseComparator):
//   * Build() takes keys sorted ascending; duplicates and empty strings are
//     legal, n may be 0. `entry_sizes` as in index.h (may be null).
//   * Search(q) returns a Bound with lo <= LowerBound(keys, q) <= hi <= n for
//     ANY q, where LowerBound is std::lower_bound's position (the first of a
//     duplicated key). Exact indexes (all string indexes so far) return
//     lo == pos == hi == that position.
//   * The index never keeps a pointer to the caller's keys; an index that
//     needs keys to be exact copies them and counts them in MemoryBytes().
//   * Serialize() then Deserialize() answers identically and re-serializes
//     byte-identically; MemoryBytes() counts heap and object bytes.
//
// Indexes: "lits" (lits.h). Build one by id with lidx::MakeStringIndex(),
// defined in string_registry.h.
//
// Usage:
//   std::string err;
//   auto idx = lidx::MakeStringIndex("lits", {}, &err);
//   std::vector<std::string_view> keys = ...;   // sorted
//   lidx::Status s = idx->Build(keys.data(), keys.size(), nullptr);
//   size_t pos = idx->Search("user:42").pos;    // == std::lower_bound's
#ifndef LIDX_STRING_INDEX_H_
#define LIDX_STRING_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lidx/index.h"

namespace lidx {

class StringIndex {
 public:
  virtual ~StringIndex() = default;

  virtual std::string_view Id() const = 0;
  virtual bool Exact() const = 0;

  virtual Status Build(const std::string_view* keys, size_t n,
                       const uint32_t* entry_sizes) = 0;
  virtual Bound Search(std::string_view q) const = 0;

  virtual void Serialize(std::string* out) const = 0;
  virtual Status Deserialize(std::string_view in) = 0;

  virtual size_t MemoryBytes() const = 0;
  virtual BuildStats Stats() const = 0;
};

// Builds a string index by id with its knobs; null and *err set for an
// unknown id or knob. Defined in string_registry.h (include it, or
// lidx/registry.h, where it is used).
inline std::unique_ptr<StringIndex> MakeStringIndex(std::string_view id,
                                                    const Options& opts,
                                                    std::string* err);
// Every string index id.
inline std::vector<std::string> RegisteredStringIds();

}  // namespace lidx

#endif  // LIDX_STRING_INDEX_H_

// lidx: learned indexes behind one interface.
//
// Contract (every index in this library keeps it, and tests/ proves it):
//   * Build() takes keys sorted ascending. Duplicates are legal, n may be 0.
//     `entry_sizes`, when not null, holds the size in bytes of each entry
//     (for an index that cuts segments by bytes; the indexes here ignore
//     it).
//   * Search(q) returns a Bound with lo <= LowerBound(keys, q) <= hi <= n for
//     ANY q, present or absent, where LowerBound is std::lower_bound's position
//     (the first occurrence of a duplicated key). `pos` is the model's
//     prediction, lo <= pos <= hi, where an exponential or linear last mile
//     starts. Exact indexes (Exact() == true) return lo == pos == hi.
//   * The index never keeps a pointer to the caller's keys: the last mile runs
//     over the caller's array (an SSTable's index block, a SOSD array).
//     Indexes that must store keys to be exact (ALEX, LIPP, ...) copy them and
//     count them in MemoryBytes().
//   * Serialize() then Deserialize() gives an index whose Search() answers are
//     identical and whose Serialize() output is byte-identical.
//   * MemoryBytes() counts everything the index holds on the heap and in the
//     object itself.
//
// Usage:
//   std::string err;
//   auto idx = lidx::MakeIndex<uint64_t>("pgm", {{"epsilon", "32"}}, &err);
//   if (!idx) { die(err); }
//   lidx::Status s = idx->Build(keys.data(), keys.size(), nullptr);
//   lidx::Bound b = idx->Search(q);
//   size_t p = lidx::LastMile(keys.data(), b, q, lidx::LastMileKind::kBinary);
//   size_t same = idx->LowerBound(keys.data(), q);
#ifndef LIDX_INDEX_H_
#define LIDX_INDEX_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace lidx {

// 128-bit keys hold the big-endian prefix of byte-string keys longer than 8
// bytes (see key_map.h).
using u128 = unsigned __int128;

// Carries an error message; ok() when empty. Mirrors leveldb::Status's role
// without its dependency: indexes report errors, they never throw.
class Status {
 public:
  Status() = default;
  static Status OK() { return Status(); }
  static Status Error(std::string msg) { return Status(std::move(msg)); }
  bool ok() const { return msg_.empty(); }
  const std::string& message() const { return msg_; }

 private:
  explicit Status(std::string msg) : msg_(std::move(msg)) {}
  std::string msg_;
};

struct Bound {
  size_t lo = 0;
  size_t pos = 0;
  size_t hi = 0;
};

struct BuildStats {
  size_t keys = 0;       // keys given to Build()
  size_t segments = 0;   // leaf models / segments / spline points
  size_t levels = 0;     // model levels above the data (1 for a flat index)
  double build_seconds = 0;
};

// Knob name -> value, as given on a command line ("epsilon=32"). Every index
// rejects a knob it does not know, naming it.
using Options = std::map<std::string, std::string>;

template <typename K>
class Index {
 public:
  virtual ~Index() = default;

  // The registry id ("pgm", "rs", ...).
  virtual std::string_view Id() const = 0;
  virtual bool Exact() const = 0;

  virtual Status Build(const K* keys, size_t n, const uint32_t* entry_sizes) = 0;
  virtual Bound Search(K q) const = 0;
  // lower_bound(q) over `keys`, the array Build() was given: Search() and
  // the binary last mile, unless the index overrides it with a last mile
  // fitted to its bound (pgm.h).
  virtual size_t LowerBound(const K* keys, K q) const;

  // Appends the serialized index to *out.
  virtual void Serialize(std::string* out) const = 0;
  // Replaces this index by the one serialized in `in`; an error names what
  // was malformed (wrong id, version, truncated).
  virtual Status Deserialize(std::string_view in) = 0;

  virtual size_t MemoryBytes() const = 0;
  virtual BuildStats Stats() const = 0;
};

enum class LastMileKind { kBinary, kLinear, kExponential };

// The first position p in [b.lo, b.hi] with keys[p] >= q (b.hi when none in
// [b.lo, b.hi) is). Correct whenever `b` honours the contract above.
template <typename K>
size_t LastMile(const K* keys, const Bound& b, K q, LastMileKind kind) {
  size_t lo = b.lo, hi = b.hi;
  switch (kind) {
    case LastMileKind::kLinear: {
      // Walk from the prediction in whichever direction the key lies.
      size_t p = b.pos;
      if (p < hi && keys[p] < q) {
        while (p < hi && keys[p] < q) ++p;
        return p;
      }
      while (p > lo && !(keys[p - 1] < q)) --p;
      return p;
    }
    case LastMileKind::kExponential: {
      size_t p = b.pos;
      if (p < hi && keys[p] < q) {
        size_t step = 1, l = p + 1;
        while (l + step - 1 < hi && keys[l + step - 1] < q) {
          l += step;
          step <<= 1;
        }
        lo = l;
        hi = std::min(hi, l + step - 1);
      } else {
        size_t step = 1, r = p;
        while (r >= lo + step && !(keys[r - step] < q)) {
          r -= step;
          step <<= 1;
        }
        hi = r;
        lo = r >= lo + step ? r - step + 1 : lo;
      }
      break;
    }
    case LastMileKind::kBinary:
      break;
  }
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (keys[mid] < q) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

template <typename K>
size_t Index<K>::LowerBound(const K* keys, K q) const {
  return LastMile(keys, Search(q), q, LastMileKind::kBinary);
}

// Builds an index by registry id with its knobs; returns null and sets *err
// for an unknown id or knob. Defined in registry.h.
template <typename K>
std::unique_ptr<Index<K>> MakeIndex(std::string_view id, const Options& opts,
                                    std::string* err);

}  // namespace lidx

#endif  // LIDX_INDEX_H_

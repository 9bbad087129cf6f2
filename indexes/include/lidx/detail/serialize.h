// Byte writer/reader shared by every index's Serialize()/Deserialize().
//
// Layout of a serialized index:
//   "LIDX" | u8 id length | id bytes | u32 format version | u8 sizeof(K) | body
// Integers and doubles are written in host byte order (little-endian on every
// machine we target); the files are caches of a build, not an archive format.
//
// Usage (inside an index):
//   void Serialize(std::string* out) const {
//     detail::Writer w(out);
//     w.Header<K>(Id(), kFormatVersion);
//     w.Pod<uint64_t>(n_);
//     w.Vector(segments_);
//   }
//   Status Deserialize(std::string_view in) {
//     detail::Reader r(in);
//     Status s = r.Header<K>(Id(), kFormatVersion);
//     uint64_t n;
//     if (s.ok()) s = r.Pod(&n, "n");
//     if (s.ok()) s = r.Vector(&segments, "segments");
//     if (s.ok()) s = r.Finish();   // rejects trailing bytes
//     ...
//   }
#ifndef LIDX_DETAIL_SERIALIZE_H_
#define LIDX_DETAIL_SERIALIZE_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "lidx/detail/shrink.h"
#include "lidx/index.h"

namespace lidx {
namespace detail {

inline constexpr char kMagic[4] = {'L', 'I', 'D', 'X'};

class Writer {
 public:
  explicit Writer(std::string* out) : out_(out) {}

  template <typename T>
  void Pod(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    out_->append(reinterpret_cast<const char*>(&v), sizeof(T));
  }

  template <typename T>
  void Vector(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    Pod<uint64_t>(v.size());
    if (!v.empty()) {
      out_->append(reinterpret_cast<const char*>(v.data()),
                   v.size() * sizeof(T));
    }
  }

  // Fields in a row, each written as its own type.
  template <typename... T>
  void Pods(const T&... v) {
    (Pod(v), ...);
  }
  template <typename... T>
  void Vectors(const std::vector<T>&... v) {
    (Vector(v), ...);
  }

  void Bytes(std::string_view s) {
    Pod<uint64_t>(s.size());
    out_->append(s.data(), s.size());
  }

  template <typename K>
  void Header(std::string_view id, uint32_t version) {
    out_->append(kMagic, 4);
    Pod<uint8_t>(static_cast<uint8_t>(id.size()));
    out_->append(id.data(), id.size());
    Pod<uint32_t>(version);
    Pod<uint8_t>(static_cast<uint8_t>(sizeof(K)));
  }

  void Stats(const BuildStats& s) {
    Pod<uint64_t>(s.keys);
    Pod<uint64_t>(s.segments);
    Pod<uint64_t>(s.levels);
    Pod<double>(s.build_seconds);
  }

 private:
  std::string* out_;
};

// Every read is bounds-checked; a failed read returns a Status naming the
// field and the offset, and leaves the destination untouched.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}

  size_t remaining() const { return in_.size() - off_; }

  template <typename T>
  Status Pod(T* v, const char* what) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (remaining() < sizeof(T)) return Truncated(what, sizeof(T));
    std::memcpy(v, in_.data() + off_, sizeof(T));
    off_ += sizeof(T);
    return Status::OK();
  }

  template <typename T>
  Status Vector(std::vector<T>* v, const char* what) {
    static_assert(std::is_trivially_copyable_v<T>);
    uint64_t count = 0;
    Status s = Pod(&count, what);
    if (!s.ok()) return s;
    // Division, not multiplication: a corrupt count must not overflow.
    if (count > remaining() / sizeof(T)) {
      return Truncated(what, count * sizeof(T));
    }
    v->resize(count);
    if (count) std::memcpy(v->data(), in_.data() + off_, count * sizeof(T));
    off_ += count * sizeof(T);
    detail::ShrinkToFit(v);
    return Status::OK();
  }

  // Fields in a row, names[i] naming the i-th in an error; stops at the
  // first failure, as a chain of Pod() / Vector() calls does.
  template <size_t N, typename... T>
  Status Pods(const char* const (&names)[N], T*... v) {
    static_assert(N == sizeof...(T), "one name per field");
    Status s;
    size_t i = 0;
    ((s = s.ok() ? Pod(v, names[i]) : s, ++i), ...);
    return s;
  }
  template <size_t N, typename... T>
  Status Vectors(const char* const (&names)[N], std::vector<T>*... v) {
    static_assert(N == sizeof...(T), "one name per field");
    Status s;
    size_t i = 0;
    ((s = s.ok() ? Vector(v, names[i]) : s, ++i), ...);
    return s;
  }

  Status Bytes(std::string* s, const char* what) {
    uint64_t len = 0;
    Status st = Pod(&len, what);
    if (!st.ok()) return st;
    if (len > remaining()) return Truncated(what, len);
    s->assign(in_.data() + off_, len);
    off_ += len;
    return Status::OK();
  }

  // Checks magic, id, version and key width.
  template <typename K>
  Status Header(std::string_view id, uint32_t version) {
    if (remaining() < 4) return Truncated("magic", 4);
    if (std::memcmp(in_.data() + off_, kMagic, 4) != 0) {
      return Status::Error("lidx: bad magic, not a serialized index");
    }
    off_ += 4;
    uint8_t len = 0;
    Status s = Pod(&len, "id length");
    if (!s.ok()) return s;
    if (remaining() < len) return Truncated("id", len);
    std::string_view got(in_.data() + off_, len);
    off_ += len;
    if (got != id) {
      return Status::Error("lidx: serialized index is '" + std::string(got) +
                           "', expected '" + std::string(id) + "'");
    }
    uint32_t v = 0;
    s = Pod(&v, "format version");
    if (!s.ok()) return s;
    if (v != version) {
      return Status::Error("lidx: " + std::string(id) + " format version " +
                           std::to_string(v) + ", expected " +
                           std::to_string(version));
    }
    uint8_t width = 0;
    s = Pod(&width, "key width");
    if (!s.ok()) return s;
    if (width != sizeof(K)) {
      return Status::Error("lidx: " + std::string(id) + " built for " +
                           std::to_string(width) + "-byte keys, expected " +
                           std::to_string(sizeof(K)));
    }
    return Status::OK();
  }

  Status Stats(BuildStats* st) {
    uint64_t keys = 0, segments = 0, levels = 0;
    double secs = 0;
    Status s = Pod(&keys, "stats.keys");
    if (s.ok()) s = Pod(&segments, "stats.segments");
    if (s.ok()) s = Pod(&levels, "stats.levels");
    if (s.ok()) s = Pod(&secs, "stats.build_seconds");
    if (s.ok()) {
      st->keys = keys;
      st->segments = segments;
      st->levels = levels;
      st->build_seconds = secs;
    }
    return s;
  }

  // Call last: trailing bytes mean the input was not what we wrote.
  Status Finish() const {
    if (remaining() != 0) {
      return Status::Error("lidx: " + std::to_string(remaining()) +
                           " trailing bytes after index");
    }
    return Status::OK();
  }

  static Status Corrupt(const std::string& what) {
    return Status::Error("lidx: corrupt index: " + what);
  }

 private:
  Status Truncated(const char* what, uint64_t need) const {
    return Status::Error("lidx: truncated reading " + std::string(what) +
                         " at offset " + std::to_string(off_) + " (need " +
                         std::to_string(need) + " bytes, " +
                         std::to_string(remaining()) + " left)");
  }

  std::string_view in_;
  size_t off_ = 0;
};

// Heap bytes held by a vector (capacity, which is what the allocator sees).
template <typename T>
size_t VectorBytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

}  // namespace detail
}  // namespace lidx

#endif  // LIDX_DETAIL_SERIALIZE_H_

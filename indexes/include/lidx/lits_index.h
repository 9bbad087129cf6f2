// LitsIndex<K>: lits (lits.h) over integer keys, for the integer registry.
#ifndef LIDX_LITS_INDEX_H_
#define LIDX_LITS_INDEX_H_

#include <string>
#include <string_view>
#include <vector>

#include "lidx/detail/serialize.h"
#include "lidx/index.h"
#include "lidx/lits.h"

namespace lidx {

// lits over integer keys, for the integer registry (MakeIndex<K>("lits")):
// each key becomes its sizeof(K)-byte big-endian string, whose bytewise order
// is the numeric order. The EDBT study runs LITS this way on fixed-size keys.
template <typename K>
class LitsIndex final : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 1;

  Status Configure(const Options& o) { return lits_.Configure(o); }

  std::string_view Id() const override { return "lits"; }
  bool Exact() const override { return true; }

  Status Build(const K* keys, size_t n, const uint32_t* sizes) override {
    // Scratch copies, freed before returning: Lits keeps its own copy.
    std::vector<char> buf(n * sizeof(K));
    std::vector<std::string_view> views(n);
    for (size_t i = 0; i < n; ++i) {
      Encode(keys[i], buf.data() + i * sizeof(K));
      views[i] = std::string_view(buf.data() + i * sizeof(K), sizeof(K));
    }
    return lits_.Build(views.data(), n, sizes);
  }

  Bound Search(K q) const override {
    char b[sizeof(K)];
    Encode(q, b);
    return lits_.Search(std::string_view(b, sizeof(K)));
  }

  void Serialize(std::string* out) const override {
    // The outer header carries the key width, which Lits' own does not.
    std::string inner;
    lits_.Serialize(&inner);
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Bytes(inner);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    std::string inner;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) s = r.Bytes(&inner, "lits body");
    if (s.ok()) s = r.Finish();
    if (s.ok()) s = lits_.Deserialize(inner);
    return s;
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) - sizeof(Lits) + lits_.MemoryBytes();
  }
  BuildStats Stats() const override { return lits_.Stats(); }

 private:
  static void Encode(K k, char* out) {
    for (size_t i = 0; i < sizeof(K); ++i) {
      out[i] = static_cast<char>(k >> (8 * (sizeof(K) - 1 - i)));
    }
  }

  Lits lits_;
};

}  // namespace lidx

#endif  // LIDX_LITS_INDEX_H_

// How a dataset's integer keys become engine keys. Every encoding here is
// fixed-width and order-preserving (bytewise order == numeric order), so the
// verifier can reason about scans in numeric order. Names are the
// `key_encoding` values of workloads/datasets.yaml:
//   be64          8-byte big-endian
//   be64_padN     N-8 zero bytes, then be64 (N >= 8; Bourbon's 16-byte keys)
//   decimalN      N-character zero-padded decimal (N >= 20; YCSB-Gen: 24)
#ifndef LSMBENCH_KEY_CODEC_H_
#define LSMBENCH_KEY_CODEC_H_

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace lsmbench {

class KeyCodec {
 public:
  // Parses an encoding name; false and *err for anything else.
  bool Parse(const std::string& name, std::string* err) {
    name_ = name;
    auto width_after = [&](const char* prefix, size_t* w) {
      size_t n = std::strlen(prefix);
      if (name.compare(0, n, prefix) != 0 || name.size() == n) return false;
      char* end = nullptr;
      unsigned long v = std::strtoul(name.c_str() + n, &end, 10);
      if (*end != '\0') return false;
      *w = v;
      return true;
    };
    if (name == "be64") {
      kind_ = Kind::kBe64;
      width_ = 8;
    } else if (width_after("be64_pad", &width_) && width_ >= 8 && width_ <= 4096) {
      kind_ = Kind::kBe64;
    } else if (width_after("decimal", &width_) && width_ >= 20 && width_ <= 4096) {
      kind_ = Kind::kDecimal;
    } else {
      *err = "--key-encoding '" + name + "': expected be64, be64_padN (N >= 8) or decimalN (N >= 20)";
      return false;
    }
    return true;
  }

  const std::string& name() const { return name_; }
  size_t width() const { return width_; }

  // Writes exactly width() bytes to out.
  void Encode(uint64_t k, char* out) const {
    std::memset(out, kind_ == Kind::kDecimal ? '0' : 0, width_);
    char* p = out + width_;
    if (kind_ == Kind::kBe64) {
      for (int i = 0; i < 8; i++, k >>= 8) *--p = static_cast<char>(k & 0xff);
    } else {
      do {
        *--p = static_cast<char>('0' + k % 10);
        k /= 10;
      } while (k != 0);
    }
  }

  // The integer of an engine key; false when it is not one this codec wrote.
  bool Decode(std::string_view s, uint64_t* k) const {
    if (s.size() != width_) return false;
    uint64_t v = 0;
    if (kind_ == Kind::kBe64) {
      for (size_t i = 0; i < width_ - 8; i++) {
        if (s[i] != 0) return false;
      }
      for (size_t i = width_ - 8; i < width_; i++) v = (v << 8) | static_cast<unsigned char>(s[i]);
    } else {
      for (char c : s) {
        if (c < '0' || c > '9') return false;
        uint64_t next = v * 10 + (c - '0');
        if (next / 10 != v) return false;  // overflow
        v = next;
      }
    }
    *k = v;
    return true;
  }

 private:
  enum class Kind { kBe64, kDecimal };
  Kind kind_ = Kind::kBe64;
  size_t width_ = 8;
  std::string name_ = "be64";
};

}  // namespace lsmbench

#endif  // LSMBENCH_KEY_CODEC_H_

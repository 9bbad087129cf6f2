// How a dataset's integer keys become engine keys: every `key_encoding` of
// workloads/datasets.schema.yaml, one implementation each.
//   be64          8-byte big-endian
//   be64_padN     N-8 zero bytes, then be64 (N >= 8; Bourbon's 16-byte keys)
//   decimalN      N-character zero-padded decimal (N >= 20; YCSB-Gen: 24)
//   decimal_var   zero-padded decimal, each key to its own width: the
//                 dataset's `<name>_keylen_uint32` file gives the width of
//                 each of its keys (SetWidths); a key outside the dataset (an
//                 absent probe, a new insert) gets a width in the file's
//                 range drawn from the key's FNV-1a hash, so every key has
//                 exactly one encoding. Never narrower than the key's digits.
//   ycsb_user     YCSB's key names, "user" + fnvhash64(key) in decimal
//                 (workloads/ycsb/key_name.h, shared with the generators).
// The first three are fixed-width and order-preserving (bytewise order ==
// numeric order); the last two are neither, so the verifier orders keys the
// way the engine does, through Less(). Every encoding is one-to-one on the
// keys a run uses (ycsb_user: as long as fnvhash64 does not collide on them,
// which YCSB itself assumes).
#ifndef LSMBENCH_KEY_CODEC_H_
#define LSMBENCH_KEY_CODEC_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ycsb/fnv.h"
#include "ycsb/key_name.h"

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
    } else if (name == "decimal_var") {
      kind_ = Kind::kDecimalVar;
      width_ = 0;  // until SetWidths
    } else if (width_after("decimal", &width_) && width_ >= 20 && width_ <= 4096) {
      kind_ = Kind::kDecimal;
    } else if (name == "ycsb_user") {
      kind_ = Kind::kYcsbUser;
      width_ = 4 + 20;  // "user", '-' and 19 digits at the most
    } else {
      *err = "--key-encoding '" + name +
             "': expected be64, be64_padN (N >= 8), decimalN (N >= 20), decimal_var or ycsb_user";
      return false;
    }
    return true;
  }

  // decimal_var only: the width of each key of the dataset, `keys` sorted
  // (duplicates allowed: the first one's width counts) and `widths` aligned
  // with them, as read from the dataset and its keylen file.
  bool SetWidths(const std::vector<uint64_t>& keys, const std::vector<uint64_t>& widths,
                 std::string* err) {
    if (keys.size() != widths.size() || keys.empty()) {
      *err = "expected one width per dataset key (" + std::to_string(keys.size()) + "), got " +
             std::to_string(widths.size());
      return false;
    }
    auto w = std::make_shared<Widths>();
    w->lo = 255;
    for (size_t i = 0; i < keys.size(); i++) {
      if (widths[i] < 1 || widths[i] > 255) {
        *err = "width of key " + std::to_string(i) + ": expected 1 to 255, got " +
               std::to_string(widths[i]);
        return false;
      }
      if (!w->keys.empty() && w->keys.back() == keys[i]) continue;
      w->keys.push_back(keys[i]);
      w->widths.push_back(static_cast<uint8_t>(widths[i]));
      w->lo = std::min<unsigned>(w->lo, widths[i]);
      w->hi = std::max<unsigned>(w->hi, widths[i]);
    }
    widths_ = std::move(w);
    width_ = std::max<size_t>(widths_->hi, Digits(widths_->keys.back()));
    return true;
  }
  bool needs_widths() const { return kind_ == Kind::kDecimalVar && widths_ == nullptr; }

  const std::string& name() const { return name_; }
  // The longest key this encoding writes for the dataset.
  size_t max_width() const { return width_; }
  bool order_preserving() const { return kind_ == Kind::kBe64 || kind_ == Kind::kDecimal; }

  // The engine key of `k` into *out.
  void Encode(uint64_t k, std::string* out) const {
    switch (kind_) {
      case Kind::kBe64: {
        out->assign(width_, '\0');
        char* p = out->data() + width_;
        for (int i = 0; i < 8; i++, k >>= 8) *--p = static_cast<char>(k & 0xff);
        break;
      }
      case Kind::kDecimal:
        PadDecimal(k, width_, out);
        break;
      case Kind::kDecimalVar:
        PadDecimal(k, WidthOf(k), out);
        break;
      case Kind::kYcsbUser:
        *out = ycsb::BuildKeyName(static_cast<int64_t>(k), 1, /*ordered=*/false);
        break;
    }
  }

  // The integer of an engine key; false when it is not one this codec
  // wrote, or when the encoding cannot be inverted (ycsb_user hashes).
  bool Decode(std::string_view s, uint64_t* k) const {
    uint64_t v = 0;
    if (kind_ == Kind::kYcsbUser) return false;
    if (kind_ == Kind::kBe64) {
      if (s.size() != width_) return false;
      for (size_t i = 0; i < width_ - 8; i++) {
        if (s[i] != 0) return false;
      }
      for (size_t i = width_ - 8; i < width_; i++) v = (v << 8) | static_cast<unsigned char>(s[i]);
    } else {
      if (s.empty() || (kind_ == Kind::kDecimal && s.size() != width_)) return false;
      for (char c : s) {
        if (c < '0' || c > '9') return false;
        uint64_t next = v * 10 + (c - '0');
        if (next / 10 != v) return false;  // overflow
        v = next;
      }
      if (kind_ == Kind::kDecimalVar && s.size() != WidthOf(v)) return false;
    }
    *k = v;
    return true;
  }

  // Whether key a's encoding sorts before key b's: the engine's order.
  bool Less(uint64_t a, uint64_t b) const {
    if (order_preserving()) return a < b;
    std::string ea, eb;
    Encode(a, &ea);
    Encode(b, &eb);
    return ea < eb;
  }

 private:
  enum class Kind { kBe64, kDecimal, kDecimalVar, kYcsbUser };
  struct Widths {
    std::vector<uint64_t> keys;  // sorted, distinct
    std::vector<uint8_t> widths;
    unsigned lo = 0, hi = 0;
  };

  static size_t Digits(uint64_t k) {
    size_t n = 1;
    while (k >= 10) {
      k /= 10;
      n++;
    }
    return n;
  }

  static void PadDecimal(uint64_t k, size_t width, std::string* out) {
    out->assign(width, '0');
    char* p = out->data() + width;
    do {
      *--p = static_cast<char>('0' + k % 10);
      k /= 10;
    } while (k != 0);
  }

  size_t WidthOf(uint64_t k) const {
    const Widths& w = *widths_;
    size_t width;
    auto it = std::lower_bound(w.keys.begin(), w.keys.end(), k);
    if (it != w.keys.end() && *it == k) {
      width = w.widths[it - w.keys.begin()];
    } else {
      unsigned char bytes[8];
      for (int i = 0; i < 8; i++) bytes[i] = static_cast<unsigned char>(k >> (8 * i));
      width = w.lo + ycsb::Fnv1a64(bytes, 8) % (w.hi - w.lo + 1);
    }
    return std::max(width, Digits(k));
  }

  Kind kind_ = Kind::kBe64;
  size_t width_ = 8;
  std::string name_ = "be64";
  std::shared_ptr<const Widths> widths_;  // decimal_var; shared by copies
};

}  // namespace lsmbench

#endif  // LSMBENCH_KEY_CODEC_H_

#include "plugin/doblix/doblix_model.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "plugin/doblix/doblix_format.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {

namespace {
constexpr uint32_t kModelMagic = 0x58424f44;  // "DOBX"

uint32_t FloatBits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof(u));
  return u;
}
float BitsFloat(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof(f));
  return f;
}
}  // namespace

void DoblixModel::EncodeTo(std::string* out) const {
  const size_t start = out->size();
  PutFixed32(out, kModelMagic);
  out->push_back(static_cast<char>(kind));
  PutLengthPrefixedSlice(out, prefix);
  PutVarint64(out, segments.size());
  // Blocks are contiguous from offset 0, so sizes alone place them.
  for (const DoblixSegment& s : segments) {
    PutFixed64(out, s.first_chunk);
    PutVarint32(out, s.size);
    PutVarint32(out, (s.error << 1) | (s.cont ? 1u : 0u));
    PutFixed32(out, FloatBits(s.slope));
    if (kind != DoblixModelKind::kPla) PutFixed32(out, FloatBits(s.intercept));
  }
  if (kind == DoblixModelKind::kRmi) {
    PutFixed64(out, root_x0);
    PutFixed32(out, FloatBits(root_slope));
    PutFixed32(out, FloatBits(root_intercept));
    PutVarint64(out, root_entries);
    PutVarint32(out, static_cast<uint32_t>(leaf_to_block.size()));
    uint32_t prev = 0;
    for (uint32_t b : leaf_to_block) {
      PutVarint32(out, b - prev);
      prev = b;
    }
  }
  PutFixed32(out, crc32c::Mask(crc32c::Value(out->data() + start, out->size() - start)));
}

Status DoblixModel::DecodeFrom(const Slice& block) {
  if (block.size() < 8) return Status::Corruption("doblix model block: truncated");
  const size_t body = block.size() - 4;
  if (crc32c::Unmask(DecodeFixed32(block.data() + body)) !=
      crc32c::Value(block.data(), body)) {
    return Status::Corruption("doblix model block: checksum mismatch");
  }
  Slice in(block.data(), body);
  if (DecodeFixed32(in.data()) != kModelMagic) {
    return Status::Corruption("doblix model block: bad magic");
  }
  in.remove_prefix(4);
  if (in.empty()) return Status::Corruption("doblix model block: no kind");
  uint8_t k = static_cast<uint8_t>(in[0]);
  in.remove_prefix(1);
  if (k != static_cast<uint8_t>(DoblixModelKind::kPla) &&
      k != static_cast<uint8_t>(DoblixModelKind::kPra) &&
      k != static_cast<uint8_t>(DoblixModelKind::kRmi)) {
    return Status::Corruption("doblix model block: unknown model kind " + std::to_string(k));
  }
  kind = static_cast<DoblixModelKind>(k);
  Slice p;
  uint64_t count = 0;
  if (!GetLengthPrefixedSlice(&in, &p)) return Status::Corruption("doblix model block: prefix");
  prefix = p.ToString();
  if (!GetVarint64(&in, &count) || count > in.size()) {
    return Status::Corruption("doblix model block: segment count");
  }
  segments.assign(count, DoblixSegment());
  uint64_t offset = 0;
  for (DoblixSegment& s : segments) {
    uint32_t err_cont = 0, slope = 0, intercept = 0;
    if (in.size() < 8) return Status::Corruption("doblix model block: segment key");
    s.first_chunk = DecodeFixed64(in.data());
    in.remove_prefix(8);
    if (!GetVarint32(&in, &s.size) || !GetVarint32(&in, &err_cont) ||
        !GetFixed32(&in, &slope) ||
        (kind != DoblixModelKind::kPla && !GetFixed32(&in, &intercept))) {
      return Status::Corruption("doblix model block: segment fields");
    }
    s.offset = offset;
    offset += s.size + kDoblixBlockTrailerSize;
    s.error = err_cont >> 1;
    s.cont = (err_cont & 1) != 0;
    s.slope = BitsFloat(slope);
    s.intercept = BitsFloat(intercept);
    if (!std::isfinite(s.slope) || !std::isfinite(s.intercept)) {
      return Status::Corruption("doblix model block: non-finite coefficient");
    }
  }
  if (kind == DoblixModelKind::kRmi) {
    uint32_t slope = 0, intercept = 0, leaves = 0;
    if (in.size() < 8) return Status::Corruption("doblix model block: root");
    root_x0 = DecodeFixed64(in.data());
    in.remove_prefix(8);
    if (!GetFixed32(&in, &slope) || !GetFixed32(&in, &intercept) ||
        !GetVarint64(&in, &root_entries) || !GetVarint32(&in, &leaves) || leaves > in.size() ||
        leaves == 0) {
      return Status::Corruption("doblix model block: root fields");
    }
    root_slope = BitsFloat(slope);
    root_intercept = BitsFloat(intercept);
    if (!std::isfinite(root_slope) || !std::isfinite(root_intercept)) {
      return Status::Corruption("doblix model block: non-finite root");
    }
    leaf_to_block.resize(leaves);
    uint32_t b = 0;
    for (uint32_t& l : leaf_to_block) {
      uint32_t delta = 0;
      if (!GetVarint32(&in, &delta)) return Status::Corruption("doblix model block: leaf table");
      b += delta;
      if (b > segments.size()) return Status::Corruption("doblix model block: leaf's block");
      l = b;
    }
  }
  if (!in.empty()) return Status::Corruption("doblix model block: trailing bytes");
  return Status::OK();
}

uint64_t DoblixModel::ChunkOf(const Slice& user_key) const {
  int side = DoblixPrefixSide(user_key, prefix);
  if (side < 0) return 0;
  if (side > 0) return ~uint64_t{0};
  return DoblixChunk(user_key, prefix.size());
}

uint32_t DoblixModel::LeafOf(uint64_t x) const {
  double pos = x <= root_x0 ? root_intercept
                            : static_cast<double>(root_intercept) +
                                  static_cast<double>(root_slope) * static_cast<double>(x - root_x0);
  double leaves = static_cast<double>(leaf_to_block.size());
  double leaf = std::floor(pos * leaves / static_cast<double>(root_entries == 0 ? 1 : root_entries));
  if (!(leaf > 0)) return 0;
  return leaf >= leaves ? static_cast<uint32_t>(leaves) - 1 : static_cast<uint32_t>(leaf);
}

size_t DoblixModel::FindBlock(uint64_t x) const {
  if (kind == DoblixModelKind::kRmi) return leaf_to_block[LeafOf(x)];
  // The paper's binary search over the segments' first keys (I_IndexBlock).
  auto it = std::upper_bound(segments.begin(), segments.end(), x,
                             [](uint64_t v, const DoblixSegment& s) { return v < s.first_chunk; });
  size_t b = it == segments.begin() ? 0 : static_cast<size_t>(it - segments.begin()) - 1;
  while (b > 0 && segments[b].cont && segments[b].first_chunk == x) b--;
  return b;
}

double DoblixModel::Predict(size_t b, uint64_t x) const {
  const DoblixSegment& s = segments[b];
  if (x <= s.first_chunk) return s.intercept;
  return static_cast<double>(s.intercept) +
         static_cast<double>(s.slope) * static_cast<double>(x - s.first_chunk);
}

void DoblixModel::SearchRange(size_t b, uint64_t x, uint32_t n, uint32_t* lo,
                              uint32_t* hi) const {
  const DoblixSegment& s = segments[b];
  // The lower bound of any key with integer x lies between the positions of
  // x and x+1 (keys sharing 8 bytes share an integer), each within error.
  double l = x <= s.first_chunk ? 0.0 : std::floor(Predict(b, x) - s.error);
  double h = x == ~uint64_t{0} ? n : std::ceil(Predict(b, x + 1) + s.error) + 1;
  *lo = l <= 0 ? 0 : (l >= n ? n : static_cast<uint32_t>(l));
  *hi = h <= 0 ? 0 : (h >= n ? n : static_cast<uint32_t>(h));
  if (*hi < *lo) *hi = *lo;
}

}  // namespace ROCKSDB_NAMESPACE

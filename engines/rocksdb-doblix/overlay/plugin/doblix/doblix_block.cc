#include "plugin/doblix/doblix_block.h"

#include <cassert>
#include <cstring>

#include "db/dbformat.h"
#include "monitoring/perf_context_imp.h"
#include "plugin/doblix/doblix_format.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

void DoblixBlock::Encode(const std::vector<Slice>& keys, const std::vector<Slice>& values,
                         size_t begin, size_t end, std::string* out) {
  const size_t start = out->size();
  Slice first = ExtractUserKey(keys[begin]);
  Slice last = ExtractUserKey(keys[end - 1]);
  // Keys are sorted, so the common prefix of all is that of the first and last.
  const size_t plen = first.difference_offset(last);
  // The block's size first, so it is written through one pointer into one
  // allocation (a table writes every entry once here: appends that check
  // and grow the string per field cost more than the copies).
  size_t body = VarintLength(plen) + plen;
  for (size_t i = begin; i < end; i++) {
    const size_t slen = keys[i].size() - plen;
    body += VarintLength(slen) + VarintLength(values[i].size()) + slen + values[i].size();
  }
  // 16-bit offsets whenever the entries fit in 64 KiB (every block cut at a
  // B_max up to 32 KiB, bar one oversized entry): 2 bytes an entry less,
  // which every flush and compaction writes again.
  const bool narrow = body <= 0xffff;
  const size_t n = end - begin;
  out->resize(start + body + n * (narrow ? 2 : 4) + 4 + kDoblixBlockTrailerSize);
  char* const base = &(*out)[start];
  char* p = EncodeVarint32(base, static_cast<uint32_t>(plen));
  memcpy(p, first.data(), plen);
  p += plen;
  char* offsets = base + body;
  for (size_t i = begin; i < end; i++) {
    const uint32_t at = static_cast<uint32_t>(p - base);
    if (narrow) {
      EncodeFixed16(offsets, static_cast<uint16_t>(at));
      offsets += 2;
    } else {
      EncodeFixed32(offsets, at);
      offsets += 4;
    }
    const size_t slen = keys[i].size() - plen;
    p = EncodeVarint32(p, static_cast<uint32_t>(slen));
    p = EncodeVarint32(p, static_cast<uint32_t>(values[i].size()));
    const char* suffix = keys[i].data() + plen;
    if (values[i].data() == suffix + slen) {
      // The builder keeps each entry's key and value adjacent: one copy.
      memcpy(p, suffix, slen + values[i].size());
    } else {
      memcpy(p, suffix, slen);
      memcpy(p + slen, values[i].data(), values[i].size());
    }
    p += slen + values[i].size();
  }
  EncodeFixed32(offsets, static_cast<uint32_t>(n) | (narrow ? kDoblixNarrowOffsets : 0));
  offsets += 4;
  assert(p == base + body);
  EncodeFixed32(offsets, DoblixChecksum(base, static_cast<size_t>(offsets - base)));
}

Status DoblixBlock::Parse(const Slice& contents, bool verify_checksum, bool check_offsets) {
  if (contents.size() < 4 + kDoblixBlockTrailerSize) {
    return Status::Corruption("doblix data block: too short");
  }
  const size_t body = contents.size() - kDoblixBlockTrailerSize;
  if (verify_checksum) {
    // PerfContext's counter of the block-based table's checksums: both
    // tables' share of a get in one field.
    PERF_TIMER_GUARD(block_checksum_time);
    if (DecodeFixed32(contents.data() + body) != DoblixChecksum(contents.data(), body)) {
      return Status::Corruption("doblix data block: checksum mismatch");
    }
  }
  const uint32_t count = DecodeFixed32(contents.data() + body - 4);
  width_ = (count & kDoblixNarrowOffsets) != 0 ? 2 : 4;
  n_ = count & ~kDoblixNarrowOffsets;
  if (n_ == 0 || static_cast<uint64_t>(n_) * width_ + 4 > body) {
    return Status::Corruption("doblix data block: bad entry count");
  }
  offsets_ = contents.data() + body - 4 - width_ * static_cast<size_t>(n_);
  Slice in(contents.data(), offsets_ - contents.data());
  uint32_t plen = 0;
  if (!GetVarint32(&in, &plen) || plen > in.size()) {
    return Status::Corruption("doblix data block: bad prefix");
  }
  prefix_ = Slice(in.data(), plen);
  data_ = contents.data();
  // Every offset must point inside the entries area.
  const size_t limit = offsets_ - contents.data();
  for (uint32_t i = 0; check_offsets && i < n_; i++) {
    if (Offset(i) >= limit) {
      return Status::Corruption("doblix data block: bad entry offset");
    }
  }
  return Status::OK();
}

void DoblixBlock::Entry(uint32_t i, Slice* suffix, Slice* value) const {
  const char* p = data_ + Offset(i);
  uint32_t slen = 0, vlen = 0;
  p = GetVarint32Ptr(p, offsets_, &slen);
  if (p != nullptr) p = GetVarint32Ptr(p, offsets_, &vlen);
  if (p == nullptr || slen < kNumInternalBytes ||
      static_cast<size_t>(offsets_ - p) < static_cast<size_t>(slen) + vlen) {
    // Unreachable for a block that passed its checksum; an empty key keeps
    // a damaged, unverified block from reading out of bounds.
    *suffix = Slice();
    *value = Slice();
    return;
  }
  *suffix = Slice(p, slen);
  *value = Slice(p + slen, vlen);
}

Slice DoblixBlock::Key(uint32_t i, std::string* buf) const {
  Slice suffix, value;
  Entry(i, &suffix, &value);
  buf->assign(prefix_.data(), prefix_.size());
  buf->append(suffix.data(), suffix.size());
  return Slice(*buf);
}

Slice DoblixBlock::Key(uint32_t i, IterKey* buf) const {
  Slice suffix, value;
  Entry(i, &suffix, &value);
  buf->SetInternalKey(prefix_);
  buf->TrimAppend(prefix_.size(), suffix.data(), suffix.size());
  return buf->GetInternalKey();
}

Slice DoblixBlock::Value(uint32_t i) const {
  Slice suffix, value;
  Entry(i, &suffix, &value);
  return value;
}

int DoblixBlock::CompareEntry(const Slice& target_suffix, uint64_t target_trailer,
                              uint32_t i) const {
  Slice suffix, value;
  Entry(i, &suffix, &value);
  if (suffix.size() < kNumInternalBytes) return -1;
  Slice user(suffix.data(), suffix.size() - kNumInternalBytes);
  int r = target_suffix.compare(user);
  if (r != 0) return r;
  uint64_t trailer = DecodeFixed64(suffix.data() + user.size());
  return target_trailer > trailer ? -1 : (target_trailer < trailer ? 1 : 0);
}

uint32_t DoblixBlock::LowerBound(const Slice& ikey, uint32_t lo, uint32_t hi,
                                 bool* outside) const {
  *outside = false;
  Slice user = ExtractUserKey(ikey);
  int side = DoblixPrefixSide(user, prefix_);
  if (side < 0) {
    *outside = lo != 0;
    return 0;
  }
  if (side > 0) {
    *outside = hi != n_;
    return n_;
  }
  Slice suffix(user.data() + prefix_.size(), user.size() - prefix_.size());
  uint64_t trailer = DecodeFixed64(ikey.data() + user.size());
  uint32_t a = lo, b = hi;
  while (a < b) {
    uint32_t mid = a + (b - a) / 2;
    if (CompareEntry(suffix, trailer, mid) > 0) {
      a = mid + 1;
    } else {
      b = mid;
    }
  }
  // The answer is provably the block's lower bound only if the entry before
  // the range is smaller and the entry at its end is not.
  if ((a == lo && lo > 0 && CompareEntry(suffix, trailer, lo - 1) <= 0) ||
      (a == hi && hi < n_ && CompareEntry(suffix, trailer, hi) > 0)) {
    *outside = true;
  }
  return a;
}

uint32_t DoblixBlock::LowerBound(const Slice& ikey) const {
  bool outside = false;
  return LowerBound(ikey, 0, n_, &outside);
}

}  // namespace ROCKSDB_NAMESPACE

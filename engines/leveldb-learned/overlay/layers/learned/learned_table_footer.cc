#include "layers/learned/learned_table_footer.h"

#include <cstdio>

#include "layers/learned/learned_table_checksums.h"
#include "leveldb/env.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace leveldb {

void LearnedFooter::EncodeTo(std::string* out) const {
  const size_t start = out->size();
  PutFixed64(out, entries_bytes);
  PutFixed64(out, n);
  PutFixed32(out, slot_width);
  PutFixed32(out, flags);
  PutFixed32(out, prefix_len);
  PutFixed32(out, version);
  PutFixed64(out, model_len);
  PutFixed64(out, offsets_len);
  PutFixed64(out, keys_len);
  PutFixed64(out, filter_len);
  PutFixed32(out, meta_crc);
  PutFixed32(out, crc32c::Mask(crc32c::Value(out->data() + start, out->size() - start)));
  PutFixed64(out, kLearnedMagic);
}

Status LearnedFooter::DecodeFrom(const char* p, LearnedFooter* f, bool* ours) {
  *ours = DecodeFixed64(p + 72) == kLearnedMagic;
  if (!*ours) return Status::OK();
  if (crc32c::Unmask(DecodeFixed32(p + 68)) != crc32c::Value(p, 68)) {
    return Status::Corruption("learned table footer checksum mismatch");
  }
  f->entries_bytes = DecodeFixed64(p);
  f->n = DecodeFixed64(p + 8);
  f->slot_width = DecodeFixed32(p + 16);
  f->flags = DecodeFixed32(p + 20);
  f->prefix_len = DecodeFixed32(p + 24);
  f->version = DecodeFixed32(p + 28);
  f->model_len = DecodeFixed64(p + 32);
  f->offsets_len = DecodeFixed64(p + 40);
  f->keys_len = DecodeFixed64(p + 48);
  f->filter_len = DecodeFixed64(p + 56);
  f->meta_crc = DecodeFixed32(p + 64);
  return Status::OK();
}

Status LearnedFooter::Read(RandomAccessFile* file, uint64_t file_size, LearnedFooter* f,
                           bool* ours) {
  *ours = false;
  if (file_size < kLearnedFooterSize) return Status::OK();
  char buf[kLearnedFooterSize];
  Slice in;
  Status s = file->Read(file_size - kLearnedFooterSize, kLearnedFooterSize, &in, buf);
  if (!s.ok()) return s;
  if (in.size() != kLearnedFooterSize) return Status::Corruption("truncated footer");
  return DecodeFrom(in.data(), f, ours);
}

std::string LearnedFooter::MismatchWith(uint64_t file_size) const {
  if (version != kLearnedFormatVersion ||
      meta_offset() + meta_len() + kLearnedFooterSize != file_size ||
      (!keep_keys() && entries_bytes != n * slot_width) ||
      (keep_keys() && offsets_len != 8 * (n + 1)) ||
      (keep_keys() && !string_index() && keys_len != 8 * n)) {
    return "learned table footer does not match the file";
  }
  return "";
}

uint64_t LearnedFooter::meta_offset() const {
  return entries_bytes + DataChecksumsBytes(entries_bytes);
}

std::string LearnedTableName(uint64_t number) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%06llu.ldb", static_cast<unsigned long long>(number));
  return buf;
}

}  // namespace leveldb

#include "layers/learned/slr_table_footer.h"

#include "leveldb/env.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace leveldb {

void SlrFooter::EncodeTo(std::string* out) const {
  const size_t start = out->size();
  PutFixed64(out, native_size);
  PutFixed64(out, area_len);
  PutFixed32(out, area_crc);
  PutFixed32(out, kind);
  PutFixed32(out, 0);
  PutFixed32(out, crc32c::Mask(crc32c::Value(out->data() + start, out->size() - start)));
  PutFixed64(out, kSlrMagic);
}

Status SlrFooter::Read(RandomAccessFile* file, uint64_t file_size, SlrFooter* f, bool* ours) {
  *ours = false;
  if (file_size < kSlrFooterSize) return Status::OK();
  char buf[kSlrFooterSize];
  Slice in;
  Status s = file->Read(file_size - kSlrFooterSize, kSlrFooterSize, &in, buf);
  if (!s.ok()) return s;
  if (in.size() != kSlrFooterSize || DecodeFixed64(in.data() + 32) != kSlrMagic) {
    return Status::OK();
  }
  *ours = true;
  const char* p = in.data();
  if (crc32c::Unmask(DecodeFixed32(p + 28)) != crc32c::Value(p, 28)) {
    return Status::Corruption("slr table footer checksum mismatch");
  }
  f->native_size = DecodeFixed64(p);
  f->area_len = DecodeFixed64(p + 8);
  f->area_crc = DecodeFixed32(p + 16);
  f->kind = DecodeFixed32(p + 20);
  return Status::OK();
}

std::string SlrFooter::MismatchWith(uint64_t file_size) const {
  if (native_size + area_len + kSlrFooterSize != file_size) {
    return "slr table footer does not match the file";
  }
  return "";
}

}  // namespace leveldb

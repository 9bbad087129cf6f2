#include "layers/learned/learned_table_checksums.h"

#include <algorithm>

#include "leveldb/env.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace leveldb {

void AppendDataChecksums(const char* entries, uint64_t n, std::string* out) {
  for (uint64_t at = 0; at < n; at += kDataChunkBytes) {
    const uint64_t len = std::min(kDataChunkBytes, n - at);
    PutFixed32(out, crc32c::Mask(crc32c::Value(entries + at, len)));
  }
}

Status ReadEntries(const DataRegion& r, uint64_t a, uint64_t b, bool verify,
                   std::string* scratch, Slice* out) {
  if (a > b || b > r.entries_bytes) {
    return Status::Corruption(*r.name, "entries read outside the entries region");
  }
  const uint64_t first = a / kDataChunkBytes;
  const uint64_t from = verify ? first * kDataChunkBytes : a;
  const uint64_t to =
      verify ? std::min(r.entries_bytes, (b + kDataChunkBytes - 1) / kDataChunkBytes * kDataChunkBytes)
             : b;
  const uint64_t chunks = verify ? (to - from + kDataChunkBytes - 1) / kDataChunkBytes : 0;
  if (scratch->size() < to - from + 4 * chunks) scratch->resize(to - from + 4 * chunks);
  Slice data;
  Status s = r.file->Read(from, to - from, &data, &(*scratch)[0]);
  if (!s.ok()) return s;
  if (data.size() != to - from) return Status::Corruption(*r.name, "truncated entries");
  if (verify) {
    Slice crcs;
    char* crc_space = &(*scratch)[to - from];
    s = r.file->Read(r.checksums_offset + 4 * first, 4 * chunks, &crcs, crc_space);
    if (!s.ok()) return s;
    if (crcs.size() != 4 * chunks) return Status::Corruption(*r.name, "truncated data checksums");
    for (uint64_t c = 0; c < chunks; c++) {
      const uint64_t at = c * kDataChunkBytes;
      const uint64_t len = std::min(kDataChunkBytes, data.size() - at);
      if (crc32c::Unmask(DecodeFixed32(crcs.data() + 4 * c)) !=
          crc32c::Value(data.data() + at, len)) {
        return Status::Corruption(*r.name, "learned table data checksum mismatch at byte " +
                                               std::to_string(from + at));
      }
    }
  }
  *out = Slice(data.data() + (a - from), b - a);
  return Status::OK();
}

}  // namespace leveldb

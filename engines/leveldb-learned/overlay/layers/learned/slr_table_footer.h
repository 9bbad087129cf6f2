// The SLR table (seed 003 §4.2): LevelDB's own table, unchanged and
// complete, then a model area (slr_model_area.h) and this footer, which
// flags it:
//
//   [LevelDB table: native_size bytes][model area][kSlrFooterSize footer]
//
//   footer  fixed64 native_size, fixed64 area length, fixed32 masked crc32c
//           of the area, fixed32 kind (1 slr-eq, 2 slr-ea), fixed32 0,
//           fixed32 masked crc32c of the 28 bytes before it, fixed64 magic
//
// Builder: slr_table_builder.h; reader: slr_table_reader.h. `slr=binary`
// writes plain LevelDB tables (no area, no footer), read by the same reader.
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_SLR_TABLE_FOOTER_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_SLR_TABLE_FOOTER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "leveldb/status.h"

namespace leveldb {

class RandomAccessFile;

constexpr uint64_t kSlrMagic = 0x736c7274626c3031ull;  // "slrtbl01"
constexpr size_t kSlrFooterSize = 40;

struct SlrFooter {
  uint64_t native_size = 0;  // LevelDB's table [0, native_size)
  uint64_t area_len = 0;     // the model area [native_size, native_size + area_len)
  uint32_t area_crc = 0;     // masked crc32c of the model area
  uint32_t kind = 0;         // 1 slr-eq, 2 slr-ea; not read (the models' blobs say)

  void EncodeTo(std::string* out) const;
  // Reads and decodes the footer of a file of `file_size` bytes; *ours
  // false (and OK) when the file is too short or its tail is not an SLR
  // footer, Corruption when the footer fails its checksum.
  static Status Read(RandomAccessFile* file, uint64_t file_size, SlrFooter* f, bool* ours);
  // Empty when the regions it describes fit `file_size` exactly.
  std::string MismatchWith(uint64_t file_size) const;
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_SLR_TABLE_FOOTER_H_

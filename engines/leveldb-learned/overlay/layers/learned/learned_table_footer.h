// The learned table's footer (layout: learned_table_format.h): every
// region's length, the entry count and slot width, flags, a crc32c over the
// data checksums and meta regions after the entries and its own crc32c,
// then the magic. The data checksums' length follows from the entries'
// (version 2 on).
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_FOOTER_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_FOOTER_H_

#include <cstdint>
#include <string>

#include "leveldb/status.h"

namespace leveldb {

class RandomAccessFile;

constexpr uint64_t kLearnedMagic = 0x6c69647874626c31ull;  // "lidxtbl1"
constexpr size_t kLearnedFooterSize = 80;
constexpr uint32_t kFlagKeepKeys = 1;
constexpr uint32_t kFlagStringIndex = 2;
constexpr uint32_t kFlagDecimalKeys = 4;  // the model's keys mapped by lidx::MapDecimalKey
constexpr uint32_t kLearnedFormatVersion = 3;  // 2: data checksums, 3: kFlagDecimalKeys

struct LearnedFooter {
  uint64_t entries_bytes = 0;  // the entries region [0, entries_bytes)
  uint64_t n = 0;
  uint32_t slot_width = 0;     // 0 when packed (keep_keys)
  uint32_t flags = 0;
  uint32_t prefix_len = 0;
  uint32_t version = kLearnedFormatVersion;
  uint64_t model_len = 0;
  uint64_t offsets_len = 0;
  uint64_t keys_len = 0;
  uint64_t filter_len = 0;     // Options::filter_policy's filter of all keys
  uint32_t meta_crc = 0;       // crc32c of the data checksums and prefix..filter

  bool keep_keys() const { return (flags & kFlagKeepKeys) != 0; }
  bool string_index() const { return (flags & kFlagStringIndex) != 0; }
  bool decimal_keys() const { return (flags & kFlagDecimalKeys) != 0; }
  uint64_t meta_len() const {
    return uint64_t{prefix_len} + model_len + offsets_len + keys_len + filter_len;
  }
  // The data checksums (learned_table_checksums.h) follow the entries, the
  // meta regions them.
  uint64_t checksums_offset() const { return entries_bytes; }
  uint64_t meta_offset() const;

  void EncodeTo(std::string* out) const;
  // *ours false (and OK) on a foreign magic; Corruption on a bad footer.
  static Status DecodeFrom(const char* p, LearnedFooter* f, bool* ours);
  // Reads and decodes the footer of a file of `file_size` bytes; *ours
  // false when the file is too short or not a learned table.
  static Status Read(RandomAccessFile* file, uint64_t file_size, LearnedFooter* f, bool* ours);
  // Empty when the regions it describes fit `file_size` exactly.
  std::string MismatchWith(uint64_t file_size) const;
};

// "000123.ldb", for messages.
std::string LearnedTableName(uint64_t number);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_FOOTER_H_

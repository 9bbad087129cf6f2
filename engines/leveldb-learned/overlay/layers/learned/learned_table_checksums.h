// The learned table's data checksums (layout: learned_table_format.h): a
// crc32c of every kDataChunkBytes of the entries region, as LevelDB keeps
// one per data block, stored right after the entries. A
// lookup reads only the entries of its model's bound; when ReadOptions say
// verify_checksums (and in compactions under paranoid_checks) it reads the
// whole chunks holding them and their crcs, so a flipped byte anywhere in
// the entries is a Corruption naming the table.
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_CHECKSUMS_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_CHECKSUMS_H_

#include <cstdint>
#include <string>

#include "leveldb/slice.h"
#include "leveldb/status.h"

namespace leveldb {

class RandomAccessFile;

constexpr uint64_t kDataChunkBytes = 4096;

// Bytes of the checksums of an entries region of `entries_bytes`.
inline uint64_t DataChecksumsBytes(uint64_t entries_bytes) {
  return 4 * ((entries_bytes + kDataChunkBytes - 1) / kDataChunkBytes);
}

// Appends the masked crc32c of each chunk of entries[0, n) to *out.
void AppendDataChecksums(const char* entries, uint64_t n, std::string* out);

// Where a table's entries and their checksums are.
struct DataRegion {
  RandomAccessFile* file;
  uint64_t entries_bytes;     // entries [0, entries_bytes)
  uint64_t checksums_offset;  // DataChecksumsBytes(entries_bytes) bytes from here
  const std::string* name;    // the table, for messages
};

// Reads entries bytes [a, b) into *out (backed by *scratch); with `verify`,
// the chunks holding them are read whole and checked against their crcs.
Status ReadEntries(const DataRegion& r, uint64_t a, uint64_t b, bool verify,
                   std::string* scratch, Slice* out);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_CHECKSUMS_H_

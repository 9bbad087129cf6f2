// Unit test of DobLIX's data block (plugin/doblix/doblix_block.h): blocks
// whose entries take up to 64 KiB keep 16-bit offsets, larger ones 32-bit;
// every entry reads back and is found by LowerBound either way, offsets in
// the upper half of the 16-bit range included; the narrow block is exactly
// 2 bytes an entry smaller; a block in the version-2 layout (32-bit offsets,
// no flag) still reads; a flipped width flag or entry count is a
// Corruption, never a wrong entry.
// Built by engines/rocksdb-doblix/run_tests.sh against librocksdb.a.
#include <cstdio>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "plugin/doblix/doblix_block.h"
#include "plugin/doblix/doblix_format.h"
#include "util/coding.h"

#include "check.h"
using namespace ROCKSDB_NAMESPACE;

namespace {

using doblix_test::failures;

struct Entries {
  std::vector<std::string> key_store, value_store;
  std::vector<Slice> keys, values;
};

// n entries: 8-byte big-endian user keys from `first` (the block's common
// prefix is their shared leading bytes), `value_bytes`-byte values.
Entries Make(uint32_t n, uint64_t first, size_t value_bytes) {
  Entries e;
  for (uint32_t i = 0; i < n; i++) {
    std::string user;
    PutFixed64(&user, 0);
    uint64_t v = first + 3 * i;
    for (int b = 0; b < 8; b++) user[b] = static_cast<char>(v >> (8 * (7 - b)));
    e.key_store.push_back(InternalKey(user, 1000 + i, kTypeValue).Encode().ToString());
    e.value_store.push_back(std::string(value_bytes, static_cast<char>('a' + i % 26)));
  }
  for (uint32_t i = 0; i < n; i++) {
    e.keys.emplace_back(e.key_store[i]);
    e.values.emplace_back(e.value_store[i]);
  }
  return e;
}

// The bytes before the offsets, as Encode lays them out.
size_t EntriesArea(const Entries& e) {
  std::string tmp;
  DoblixBlock::Encode(e.keys, e.values, 0, e.keys.size(), &tmp);
  uint32_t count = DecodeFixed32(tmp.data() + tmp.size() - 8);
  size_t width = (count & kDoblixNarrowOffsets) ? 2 : 4;
  return tmp.size() - 8 - width * e.keys.size();
}

void ReadsBack(const std::string& label, const Entries& e, const std::string& block) {
  DoblixBlock b;
  Status s = b.Parse(block, /*verify_checksum=*/true);
  CHECK(s.ok(), "%s: parse %s", label.c_str(), s.ToString().c_str());
  if (!s.ok()) return;
  CHECK(b.size() == e.keys.size(), "%s: %u entries, want %zu", label.c_str(), b.size(),
        e.keys.size());
  std::string buf;
  for (uint32_t i = 0; i < b.size() && i < e.keys.size(); i++) {
    CHECK(b.Key(i, &buf) == e.keys[i], "%s: key %u", label.c_str(), i);
    CHECK(b.Value(i) == e.values[i], "%s: value %u", label.c_str(), i);
    CHECK(b.LowerBound(e.keys[i]) == i, "%s: LowerBound of key %u", label.c_str(), i);
  }
}

uint32_t CountWord(const std::string& block) {
  return DecodeFixed32(block.data() + block.size() - kDoblixBlockTrailerSize - 4);
}

void Widths() {
  // About 9 KB: narrow. About 100 KB: wide. Just under 64 KiB: narrow with
  // offsets above 32767 (an unsigned 16-bit read).
  const size_t kEntry = 8 + 8 + 2 + 90;  // key, trailer, lengths, value
  struct Case {
    const char* label;
    uint32_t n;
    bool narrow;
    size_t min_area;  // entries past this many bytes
  } cases[] = {{"small block", 80, true, 0},
               {"large block", 1000, false, 0x10000},
               {"block near 64 KiB", static_cast<uint32_t>(0xffff / kEntry), true, 0x8000}};
  for (const Case& c : cases) {
    Entries e = Make(c.n, 0xfffffffffff00000ull, 90);
    std::string block;
    DoblixBlock::Encode(e.keys, e.values, 0, e.keys.size(), &block);
    bool narrow = (CountWord(block) & kDoblixNarrowOffsets) != 0;
    CHECK(narrow == c.narrow, "%s: narrow %d, want %d (entries %zu bytes)", c.label, narrow,
          c.narrow, EntriesArea(e));
    CHECK(EntriesArea(e) > c.min_area, "%s: entries %zu bytes", c.label, EntriesArea(e));
    CHECK(block.size() == EntriesArea(e) + (narrow ? 2 : 4) * c.n + 4 + kDoblixBlockTrailerSize,
          "%s: %zu bytes", c.label, block.size());
    ReadsBack(c.label, e, block);
  }
}

// The version-2 layout: fixed32 offsets, no flag in the count.
void Version2Layout() {
  Entries e = Make(50, 7, 40);
  std::string narrow;
  DoblixBlock::Encode(e.keys, e.values, 0, e.keys.size(), &narrow);
  const size_t area = EntriesArea(e);
  std::string v2(narrow.data(), area);
  for (uint32_t i = 0; i < e.keys.size(); i++) {
    PutFixed32(&v2, DecodeFixed16(narrow.data() + area + 2 * i));
  }
  PutFixed32(&v2, static_cast<uint32_t>(e.keys.size()));
  PutFixed32(&v2, DoblixChecksum(v2.data(), v2.size()));
  ReadsBack("version-2 block", e, v2);
}

// A damaged width flag or count: the checksum catches it, and with the
// checksum recomputed the offset check does.
void DamagedCount() {
  Entries e = Make(200, 1u << 20, 20);
  std::string block;
  DoblixBlock::Encode(e.keys, e.values, 0, e.keys.size(), &block);
  const size_t at = block.size() - kDoblixBlockTrailerSize - 4;
  for (uint32_t flip : {kDoblixNarrowOffsets, 1u, 0x100u, 0x7f000000u}) {
    std::string bad = block.substr(0, block.size() - kDoblixBlockTrailerSize);
    EncodeFixed32(&bad[at], DecodeFixed32(bad.data() + at) ^ flip);
    std::string checked = bad;
    PutFixed32(&checked, DoblixChecksum(bad.data(), bad.size()));
    std::string stale = bad + block.substr(block.size() - kDoblixBlockTrailerSize);
    DoblixBlock b;
    CHECK(b.Parse(stale, true).IsCorruption(), "flip %08x: the checksum catches it", flip);
    // The offsets, read at the wrong width or place, point past the entries.
    Status s = b.Parse(checked, true);
    CHECK(s.IsCorruption(), "flip %08x: %s", flip, s.ToString().c_str());
  }
}

}  // namespace

int main() {
  Widths();
  Version2Layout();
  DamagedCount();
  if (failures != 0) {
    fprintf(stderr, "doblix_block_test: %d failures\n", failures);
    return 1;
  }
  printf("doblix_block_test: all passed\n");
  return 0;
}

// libFuzzer target of leveldb-learned's table and model readers (issue 54
// item 3): the learned table (fixed slots with a Bloom filter, keep_keys,
// LITS's string model), SLR (eq with a filter, ea) and fp, each opened
// through LearnedTableFormat::Open as a DB's table cache opens it, then
// read by Get, by a full scan and by seeks. Built with ASan and UBSan by
// engines/fuzz.py, which also runs it.
//
// An input is one byte of mode, then a table file:
//   mode & 7   the format, kCases[(mode & 7) % 6]; the seeds are this
//              format's table of Keys(), built at start
//   mode & 8   reseal: the learned footer's meta and own crc32c (or SLR's
//              model-area and footer crc32c) are recomputed over the input,
//              so damaged model, offsets, kept keys, filter and footer
//              fields reach the deserializers and the reader unchecked
//   mode & 16  reads without verify_checksums
// The oracle, every mode: no crash, no hang, no sanitizer report; every
// failed open or read a Corruption naming the table (000005.ldb). With
// checksums verified, a found entry of a seed key has that key's value;
// without reseal, also: every seed key probed is found or a Corruption, no
// absent key is found, and a scan returns only seed entries in order, all
// of them unless it ends in a Corruption. (Each input probes a quarter of
// the keys by Get, the scan reads all.) A breach aborts with "wrong
// answer", which libFuzzer reports as a crash with the input.
//
// regressions/ holds the inputs it found faults with (tests/test_fuzz.py
// runs them). LEARNED_FUZZ_WRITE_SEEDS=DIR writes one seed per format and mode to DIR
// and exits; LEARNED_FUZZ_SELF_TEST=1 makes the mode's verified reads
// unverified while keeping its oracle (the test that the oracle sees a
// wrong value: tests/test_fuzz.py).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "layers/hooks/lookup_trace.h"
#include "layers/hooks/table_format.h"
#include "layers/learned/learned_table_config.h"
#include "layers/learned/learned_table_format.h"
#include "leveldb/cache.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace {

using leveldb::Slice;
using leveldb::Status;

struct Case {
  const char* spec;
  bool filter;
};
const Case kCases[] = {
    {"index=pgm,position_boundary=16", true},   {"index=rmi,position_boundary=16,keep_keys=true", false},
    {"index=lits,position_boundary=16", false}, {"index=native,slr=eq", true},
    {"index=native,slr=ea", false},             {"index=fp,position_boundary=16", false}};
constexpr int kNumCases = sizeof(kCases) / sizeof(kCases[0]);
constexpr uint64_t kTableNumber = 5;
constexpr size_t kProbeStride = 4;
const char* const kTableName = "000005.ldb";

[[noreturn]] void WrongAnswer(const std::string& what) {
  std::fprintf(stderr, "wrong answer: %s\n", what.c_str());
  std::abort();
}

std::string Key(uint64_t k) {
  char buf[8];
  for (int i = 7; i >= 0; i--, k >>= 8) buf[i] = static_cast<char>(k & 0xff);
  return std::string(buf, 8);
}

std::string ValueOf(const std::string& key) {
  uint64_t k = 0;
  for (unsigned char c : key) k = (k << 8) | c;
  return "v" + std::to_string(k);
}

// Sparse keys, a dense run and both ends of the 64-bit space: ~15 KiB of
// learned entries (four data checksum chunks), a few SLR/fp blocks.
std::vector<std::string> Keys() {
  std::vector<uint64_t> k;
  k.push_back(0);
  for (uint64_t i = 0; i < 400; i++) k.push_back(i * i * 7919 + 3);
  for (uint64_t i = 0; i < 200; i++) k.push_back((1ull << 40) + i);
  k.push_back(~0ull);
  std::vector<std::string> out;
  for (uint64_t x : k) out.push_back(Key(x));
  return out;
}

// pread's semantics: a read past the end is short, not an error.
class MemFile : public leveldb::RandomAccessFile {
 public:
  MemFile(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    if (offset >= size_) {
      *result = Slice(scratch, 0);
      return Status::OK();
    }
    n = std::min<uint64_t>(n, size_ - offset);
    std::memcpy(scratch, data_ + offset, n);
    *result = Slice(scratch, n);
    return Status::OK();
  }

 private:
  const uint8_t* const data_;
  const size_t size_;
};

class StringSink : public leveldb::WritableFile {
 public:
  Status Append(const Slice& d) override {
    out.append(d.data(), d.size());
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  std::string out;
};

// One format: its configuration, the options a DB's table cache passes
// (internal key comparator and filter policy), its pristine table.
struct Format {
  std::unique_ptr<leveldb::LearnedTableFormat> format;
  leveldb::Options options;
  std::string table;
};

struct World {
  leveldb::InternalKeyComparator icmp{leveldb::BytewiseComparator()};
  std::unique_ptr<const leveldb::FilterPolicy> bloom{leveldb::NewBloomFilterPolicy(10)};
  leveldb::InternalFilterPolicy ifilter{bloom.get()};
  std::vector<std::string> keys = Keys();
  std::map<std::string, bool> present;  // seed keys, and absent neighbours
  Format formats[kNumCases];
  bool self_test = std::getenv("LEARNED_FUZZ_SELF_TEST") != nullptr;
};
World* world = nullptr;

void BuildFormat(const Case& c, Format* f) {
  leveldb::LearnedTableConfig config;
  std::string err;
  if (!leveldb::ParseLearnedTableConfig(c.spec, &config, &err) ||
      (f->format = leveldb::LearnedTableFormat::Make(config, &err)) == nullptr) {
    std::fprintf(stderr, "fuzzer: bad spec %s: %s\n", c.spec, err.c_str());
    std::exit(2);
  }
  f->options.comparator = &world->icmp;
  f->options.filter_policy = c.filter ? &world->ifilter : nullptr;
  f->options.compression = leveldb::kNoCompression;
  f->options.block_size = 1024;
  f->options.paranoid_checks = true;
  StringSink sink;
  leveldb::TableFileInfo info;
  info.number = kTableNumber;
  std::unique_ptr<leveldb::TableFileBuilder> b(f->format->NewBuilder(f->options, &sink, info));
  leveldb::SequenceNumber seq = 1;
  for (const std::string& k : world->keys) {
    leveldb::InternalKey ikey(k, seq++, leveldb::kTypeValue);
    b->Add(ikey.Encode(), ValueOf(k));
  }
  if (!b->Finish().ok()) {
    std::fprintf(stderr, "fuzzer: building %s failed: %s\n", c.spec, b->status().ToString().c_str());
    std::exit(2);
  }
  f->table = sink.out;
}

// The checksums the reseal mode recomputes.
void Reseal(std::string* t) {
  const size_t n = t->size();
  if (n >= 80 && leveldb::DecodeFixed64(t->data() + n - 8) == 0x6c69647874626c31ull) {  // learned
    char* foot = &(*t)[n - 80];
    const uint64_t entries = leveldb::DecodeFixed64(foot);
    if (entries <= n - 80) {
      leveldb::EncodeFixed32(foot + 64, leveldb::crc32c::Mask(leveldb::crc32c::Value(
                                            t->data() + entries, n - 80 - entries)));
    }
    leveldb::EncodeFixed32(foot + 68, leveldb::crc32c::Mask(leveldb::crc32c::Value(foot, 68)));
  } else if (n >= 40 && leveldb::DecodeFixed64(t->data() + n - 8) == 0x736c7274626c3031ull) {  // SLR
    char* foot = &(*t)[n - 40];
    const uint64_t native = leveldb::DecodeFixed64(foot);
    const uint64_t area = leveldb::DecodeFixed64(foot + 8);
    if (native <= n - 40 && area == n - 40 - native) {
      leveldb::EncodeFixed32(foot + 16, leveldb::crc32c::Mask(leveldb::crc32c::Value(
                                            t->data() + native, area)));
    }
    leveldb::EncodeFixed32(foot + 28, leveldb::crc32c::Mask(leveldb::crc32c::Value(foot, 28)));
  }
}

// A failure must be a Corruption naming the table.
void CheckRefusal(const Status& s, const char* where) {
  if (!s.IsCorruption() || s.ToString().find(kTableName) == std::string::npos) {
    WrongAnswer(std::string(where) + ": not a Corruption naming " + kTableName + ": " + s.ToString());
  }
}

struct GetResult {
  bool found = false;
  std::string user_key, value;
};

void SaveResult(void* arg, const Slice& ikey, const Slice& v) {
  auto* r = static_cast<GetResult*>(arg);
  leveldb::ParsedInternalKey parsed;
  if (!leveldb::ParseInternalKey(ikey, &parsed)) return;  // the DB's Saver: corrupt, not found
  r->found = parsed.type == leveldb::kTypeValue;
  r->user_key = parsed.user_key.ToString();
  r->value = v.ToString();
}

// Reads every `stride`-th probe key from `first`, a scan and seeks; values
// are checked only when checksums are verified (unverified, a flipped value
// byte reads back as LevelDB's own tables read it: as data).
void ReadAll(leveldb::TableReader* reader, bool verify, bool strict, size_t first, size_t stride) {
  leveldb::ReadOptions ro;
  ro.verify_checksums = verify && !world->self_test;
  size_t probe = 0;
  for (const auto& [key, present] : world->present) {
    if (probe++ % stride != first) continue;
    leveldb::LookupKey lk(key, leveldb::kMaxSequenceNumber);
    GetResult r;
    Status s = reader->InternalGet(ro, lk.internal_key(), &r, SaveResult);
    if (!s.ok()) {
      CheckRefusal(s, "get");
      continue;
    }
    const bool hit = r.found && r.user_key == key;
    if (verify && hit && r.value != ValueOf(key)) WrongAnswer("get of a key returned another value: " + r.value);
    if (strict && hit != present) {
      WrongAnswer(std::string(present ? "a present key not found" : "an absent key found"));
    }
  }
  std::unique_ptr<leveldb::Iterator> it(reader->NewIterator(ro));
  std::string last;
  size_t seen = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    leveldb::ParsedInternalKey parsed;
    const bool parsed_ok = leveldb::ParseInternalKey(it->key(), &parsed);
    const std::string user_key = parsed_ok ? parsed.user_key.ToString() : std::string();
    auto known = world->present.find(user_key);
    const bool seed_key = parsed_ok && known != world->present.end() && known->second;
    if (verify && seed_key && it->value() != Slice(ValueOf(user_key))) WrongAnswer("scan returned another value");
    if (strict) {
      if (!seed_key) WrongAnswer("scan returned an unwritten entry");
      if (!last.empty() && world->icmp.Compare(last, it->key()) >= 0) WrongAnswer("scan out of order");
    }
    last = it->key().ToString();
    seen++;
  }
  if (!it->status().ok()) {
    CheckRefusal(it->status(), "scan");
  } else if (strict && seen != world->keys.size()) {
    WrongAnswer("scan ended early without an error: " + std::to_string(seen) + " entries");
  }
  // Seeks to a few keys and what follows them, as the adapter's Scan of 3
  // entries does (a scan of known length: the learned iterator's unit
  // reads, and past the scan's end the entry's key alone, its value read
  // when asked).
  for (size_t i = 0; i < world->keys.size(); i += 97) {
    leveldb::LookupKey lk(world->keys[i], leveldb::kMaxSequenceNumber);
    leveldb::trace::ScopedScanLength length(3);
    it->Seek(lk.internal_key());
    for (int step = 0; step < 3 && it->Valid(); step++) {
      it->value();
      leveldb::trace::ScanReturned();
      it->Next();
    }
    if (it->Valid()) it->value();
    if (!it->status().ok()) CheckRefusal(it->status(), "seek");
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  world = new World;
  for (const std::string& k : world->keys) {
    world->present[k] = true;
    std::string after = k;
    after.push_back('\0');  // between k and the next key
    world->present.emplace(after, false);
  }
  world->present.emplace(std::string(3, 'z'), false);
  for (int c = 0; c < kNumCases; c++) BuildFormat(kCases[c], &world->formats[c]);
  if (const char* dir = std::getenv("LEARNED_FUZZ_WRITE_SEEDS")) {
    for (int c = 0; c < kNumCases; c++) {
      for (int mode : {0, 8, 16}) {
        const std::string path = std::string(dir) + "/seed_" + std::to_string(c) + "_" + std::to_string(mode);
        std::FILE* f = std::fopen(path.c_str(), "wb");
        const char m = static_cast<char>(c | mode);
        if (f == nullptr || std::fwrite(&m, 1, 1, f) != 1 ||
            std::fwrite(world->formats[c].table.data(), 1, world->formats[c].table.size(), f) !=
                world->formats[c].table.size() || std::fclose(f) != 0) {
          std::fprintf(stderr, "fuzzer: cannot write %s\n", path.c_str());
          std::exit(2);
        }
      }
    }
    std::fprintf(stderr, "fuzzer: wrote %d seeds to %s\n", kNumCases * 3, dir);
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const int mode = data[0];
  const Format& f = world->formats[(mode & 7) % kNumCases];
  const bool reseal = mode & 8, verify = !(mode & 16);
  std::string table(reinterpret_cast<const char*>(data + 1), size - 1);
  if (reseal) Reseal(&table);
  // An exact copy on the heap: ASan sees any read past its end.
  std::unique_ptr<uint8_t[]> bytes(new uint8_t[table.size() + 1]);
  std::memcpy(bytes.get(), table.data(), table.size());
  MemFile file(bytes.get(), table.size());
  leveldb::Options options = f.options;
  std::unique_ptr<leveldb::Cache> cache(leveldb::NewLRUCache(1 << 20));
  options.block_cache = cache.get();
  leveldb::TableFileInfo info;
  info.number = kTableNumber;
  leveldb::TableReader* raw = nullptr;
  Status s = f.format->Open(options, &file, table.size(), info, &raw);
  std::unique_ptr<leveldb::TableReader> reader(raw);
  if (table == f.table && !s.ok()) WrongAnswer("the pristine table does not open: " + s.ToString());
  if (!s.ok()) {
    CheckRefusal(s, "open");
    return 0;
  }
  // A quarter of the probe keys per input, which quarter by the input's
  // size and last byte: over the run every key is probed under damage.
  const size_t first = (size + data[size - 1]) % kProbeStride;
  ReadAll(reader.get(), verify, /*strict=*/verify && !reseal, first, kProbeStride);
  return 0;
}

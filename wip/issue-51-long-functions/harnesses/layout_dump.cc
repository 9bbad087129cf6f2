// Tables of several shapes written with LevelDB's TableBuilder (Bourbon's
// layout: one entry per restart point), intact and damaged, each read by
// FileLayout::Read and VerifyIndex; everything the layout says is printed,
// for a before/after comparison of file_layout.cc.
//   layout_dump DIR
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "layers/bourbon/file_layout.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "leveldb/table_builder.h"

using namespace leveldb;

struct Shape {
  const char* name;
  int key_kind;      // 0 fixed 16 digits, 1 variable length, 2 8-byte keys
  int deletions;     // one in N entries a deletion marker (0: none)
  bool filter;
  int restart;       // block_restart_interval
  bool compress;
  size_t block_size;
  int entries;
};

static std::string UserKey(int kind, int i, std::mt19937_64& rng) {
  char buf[40];
  if (kind == 0) {
    std::snprintf(buf, sizeof(buf), "%016d", i * 3);
    return buf;
  }
  if (kind == 1) {
    std::snprintf(buf, sizeof(buf), "%08d", i * 3);
    return std::string(buf) + std::string(rng() % 9, 'k');
  }
  std::string k;
  for (int b = 7; b >= 0; b--) k.push_back(static_cast<char>((uint64_t(i) * 1000003) >> (8 * b)));
  return k;
}

static void Found(void* arg, const Slice& k, const Slice& v) {
  auto* out = static_cast<std::string*>(arg);
  *out = k.ToString() + "=" + v.ToString();
}

static uint64_t Fnv(uint64_t h, const std::string& s) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

static void Report(const std::string& label, const Options& options, const std::string& path,
                   const std::vector<std::string>& user_keys) {
  Env* env = Env::Default();
  uint64_t size = 0;
  env->GetFileSize(path, &size);
  RandomAccessFile* raw = nullptr;
  env->NewRandomAccessFile(path, &raw);
  std::unique_ptr<RandomAccessFile> file(raw);
  Status v = bourbon::FileLayout::VerifyIndex(file.get(), size);
  std::vector<lidx::u128> keys;
  std::unique_ptr<bourbon::FileLayout> layout;
  Status s = bourbon::FileLayout::Read(options, file.get(), size, &keys, &layout);
  std::printf("%s size=%llu verify=[%s] read=[%s]", label.c_str(), (unsigned long long)size,
              v.ToString().c_str(), s.ToString().c_str());
  if (!s.ok()) {
    std::printf(" keys_so_far=%zu\n", keys.size());
    return;
  }
  uint64_t h = 1469598103934665603ull;
  for (lidx::u128 k : keys) {
    h = Fnv(h, std::to_string(uint64_t(k >> 64)) + "," + std::to_string(uint64_t(k)) + ";");
  }
  std::printf(" entries=%llu key_length=%d fixed=%d smallest=%zu:%016llx filter=%zu mem=%zu blocks=%zu keys=%zu:%016llx\n",
              (unsigned long long)layout->entries(), layout->key_length(), layout->fixed_entry_size(),
              layout->smallest().size(), (unsigned long long)Fnv(1469598103934665603ull, layout->smallest()),
              layout->FilterBytes(), layout->MemoryBytes(), layout->num_blocks(), keys.size(),
              (unsigned long long)h);
  uint64_t bh = 1469598103934665603ull;
  for (size_t b = 0; b < layout->num_blocks(); b++) {
    const auto& blk = layout->block(b);
    bh = Fnv(bh, std::to_string(blk.offset) + "," + std::to_string(blk.size) + "," +
                     std::to_string(blk.first) + "," + std::to_string(layout->BlockEnd(b)) + ";");
  }
  for (uint64_t pos = 0; pos < layout->entries(); pos++) bh = Fnv(bh, std::to_string(layout->BlockOf(pos)));
  // Every entry found through Get, with its position as both bounds.
  uint64_t gh = 1469598103934665603ull;
  ReadOptions ro;
  ro.verify_checksums = true;
  for (size_t pos = 0; pos < user_keys.size(); pos += 7) {
    std::string got;
    LookupKey lk(user_keys[pos], kMaxSequenceNumber);
    Status g = layout->Get(0, ro, file.get(), lk.internal_key(), pos > 0 ? pos - 1 : 0, pos + 1,
                           &got, Found);
    gh = Fnv(gh, g.ToString() + got);
    std::string absent = user_keys[pos] + "~";
    LookupKey la(absent, kMaxSequenceNumber);
    got.clear();
    g = layout->Get(0, ro, file.get(), la.internal_key(), pos, pos + 2, &got, Found);
    gh = Fnv(gh, g.ToString() + got);
  }
  std::printf("  blocks %016llx gets %016llx\n", (unsigned long long)bh, (unsigned long long)gh);
}

int main(int argc, char** argv) {
  const std::string dir = argv[1];
  Env* env = Env::Default();
  env->CreateDir(dir);
  const Shape shapes[] = {
      {"fixed", 0, 0, false, 1, false, 4096, 20000},
      {"fixed-filter", 0, 0, true, 1, false, 4096, 20000},
      {"fixed-deletions", 0, 5, false, 1, false, 4096, 20000},
      {"variable", 1, 0, true, 1, false, 1024, 15000},
      {"int8", 2, 0, false, 1, false, 2048, 30000},
      {"one-entry", 0, 0, false, 1, false, 4096, 1},
      {"small-blocks", 1, 7, true, 1, false, 256, 3000},
      {"restart16", 0, 0, false, 16, false, 4096, 5000},
      {"compressed", 0, 0, false, 1, true, 4096, 5000},
      {"empty", 0, 0, false, 1, false, 4096, 0},
  };
  std::unique_ptr<const FilterPolicy> bloom(NewBloomFilterPolicy(10));
  InternalFilterPolicy ifilter(bloom.get());
  InternalKeyComparator icmp(BytewiseComparator());
  for (const Shape& sh : shapes) {
    Options options;
    options.comparator = &icmp;
    options.filter_policy = sh.filter ? &ifilter : nullptr;
    options.block_restart_interval = sh.restart;
    options.compression = sh.compress ? kSnappyCompression : kNoCompression;
    options.block_size = sh.block_size;
    const std::string path = dir + "/" + sh.name + ".ldb";
    WritableFile* wf = nullptr;
    env->NewWritableFile(path, &wf);
    std::unique_ptr<WritableFile> owned(wf);
    TableBuilder builder(options, wf);
    std::mt19937_64 rng(7);
    std::vector<std::string> user_keys;
    for (int i = 0; i < sh.entries; i++) {
      user_keys.push_back(UserKey(sh.key_kind, i, rng));
      std::string ikey;
      const bool del = sh.deletions > 0 && i % sh.deletions == 3;
      AppendInternalKey(&ikey, ParsedInternalKey(user_keys.back(), 100 + i,
                                                  del ? kTypeDeletion : kTypeValue));
      builder.Add(ikey, del ? std::string() : std::string(sh.compress ? 40 : 12, 'a' + i % 26));
    }
    builder.Finish();
    wf->Close();
    Report(sh.name, options, path, user_keys);
    // Damaged copies: a byte flipped at every stride-th position and the
    // file cut there.
    std::string pristine;
    ReadFileToString(env, path, &pristine);
    const size_t stride = pristine.size() / 23 + 1;
    for (size_t at = 0; at < pristine.size(); at += stride) {
      std::string data = pristine;
      data[at] ^= 0x5a;
      WriteStringToFile(env, data, path + ".flip");
      Report(std::string(sh.name) + " flip@" + std::to_string(at), options, path + ".flip", user_keys);
      WriteStringToFile(env, pristine.substr(0, at), path + ".cut");
      Report(std::string(sh.name) + " cut@" + std::to_string(at), options, path + ".cut", user_keys);
    }
    for (size_t back = 1; back <= 60 && back <= pristine.size(); back += 3) {
      std::string data = pristine;
      data[pristine.size() - back] ^= 0x21;
      WriteStringToFile(env, data, path + ".flip");
      Report(std::string(sh.name) + " tailflip-" + std::to_string(back), options, path + ".flip", user_keys);
    }
  }
}

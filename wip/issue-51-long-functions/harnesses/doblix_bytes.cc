// Fixed-seed loads into DobLIX tables of every model and key kind; every
// table file written (flush and compaction outputs) copied to OUT/<case>/.
//   doblix_bytes OUT
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"

using namespace ROCKSDB_NAMESPACE;

static std::string Key(std::mt19937_64& rng, int kind, uint64_t i) {
  std::string k;
  uint64_t v = rng();
  switch (kind) {
    case 0:  // random 8-byte big-endian
      for (int b = 7; b >= 0; b--) k.push_back(static_cast<char>(v >> (8 * b)));
      break;
    case 1:  // dense 8-byte big-endian
      for (int b = 7; b >= 0; b--) k.push_back(static_cast<char>(i >> (8 * b)));
      break;
    case 2:  // long keys sharing a prefix
      k = "user:profile:000000000000:" + std::to_string(v % 50000);
      k.resize(64, 'x');
      break;
    case 3:  // short variable strings
      k.assign(1 + rng() % 12, 'a');
      for (char& c : k) c = static_cast<char>('a' + rng() % 3);
      break;
    case 4: {  // 64-byte keys sharing long parts at several depths
      static const char* kTenants[] = {"alpha", "beta", "gamma"};
      char tail[48];
      snprintf(tail, sizeof(tail), "%02d/constant-part/%05d/v", static_cast<int>(v % 30),
               static_cast<int>((v >> 8) % 1000));
      k = std::string("org/") + kTenants[rng() % 3] + "/" + tail + std::to_string(i % 97);
      k.resize(64, '#');
      break;
    }
    default: {  // 24-byte decimal
      char buf[32];
      snprintf(buf, sizeof(buf), "%024llu", static_cast<unsigned long long>(v % 1000000000000ull));
      k = buf;
    }
  }
  return k;
}

static void CopyTables(Env* env, const std::string& db, const std::string& out) {
  std::vector<std::string> files;
  env->GetChildren(db, &files);
  for (const std::string& f : files) {
    if (f.size() > 4 && f.substr(f.size() - 4) == ".sst") {
      std::string data;
      ReadFileToString(env, db + "/" + f, &data);
      WriteStringToFile(env, data, out + "/" + f);
    }
  }
}

int main(int argc, char** argv) {
  const std::string out = argv[1];
  Env* env = Env::Default();
  env->CreateDirIfMissing(out);
  const char* specs[][2] = {
      {"pla", "id=DoblixTable;model=pla;error=8;max_block_size=1024"},
      {"pla64", "id=DoblixTable;model=pla;error=64;max_block_size=4096"},
      {"pra", "id=DoblixTable;model=pra;max_block_size=2048"},
      {"bourbon", "id=DoblixTable;model=bourbon;error=8;max_block_size=1024"},
      {"tridentkv", "id=DoblixTable;model=tridentkv"},
      {"bloom", "id=DoblixTable;model=pla;error=8;max_block_size=1024;filter_policy=bloomfilter:10:false"},
      {"agent", "id=DoblixTable;model=agent;agent_period=2"},
  };
  for (auto& spec : specs) {
    for (int kind = 0; kind < 6; kind++) {
      const std::string name = std::string(spec[0]) + "-k" + std::to_string(kind);
      const std::string db = out + "/db-" + name;
      const std::string dest = out + "/" + name;
      env->CreateDirIfMissing(dest);
      Options opt;
      opt.create_if_missing = true;
      opt.disable_auto_compactions = true;
      opt.write_buffer_size = 64 << 20;
      opt.target_file_size_base = 256 << 10;
      opt.max_subcompactions = 1;
      opt.compression = kNoCompression;
      ConfigOptions cfg;
      std::shared_ptr<TableFactory> f;
      Status s = TableFactory::CreateFromString(cfg, spec[1], &f);
      if (!s.ok()) {
        fprintf(stderr, "%s: %s\n", spec[1], s.ToString().c_str());
        return 1;
      }
      opt.table_factory = f;
      DestroyDB(db, opt);
      DB* raw = nullptr;
      s = DB::Open(opt, db, &raw);
      if (!s.ok()) {
        fprintf(stderr, "open: %s\n", s.ToString().c_str());
        return 1;
      }
      std::unique_ptr<DB> d(raw);
      std::mt19937_64 rng(1000 + kind);
      std::vector<std::string> written;
      for (int batch = 0; batch < 3; batch++) {
        for (uint64_t i = 0; i < 20000; i++) {
          std::string k = Key(rng, kind, batch * 20000 + i);
          std::string v(rng() % 100, static_cast<char>('a' + i % 26));
          if (!written.empty() && rng() % 10 == 0) {
            d->Delete(WriteOptions(), written[rng() % written.size()]);
          }
          d->Put(WriteOptions(), k, v);
          written.push_back(k);
        }
        if (batch == 1 && written.size() > 2) {
          std::string a = written[5], b = written[6];
          if (b < a) std::swap(a, b);
          if (a < b) d->DeleteRange(WriteOptions(), d->DefaultColumnFamily(), a, b);
        }
        d->Flush(FlushOptions());
        CopyTables(env, db, dest);
      }
      CompactRangeOptions cro;
      cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
      s = d->CompactRange(cro, nullptr, nullptr);
      if (!s.ok()) fprintf(stderr, "%s compact: %s\n", name.c_str(), s.ToString().c_str());
      CopyTables(env, db, dest);
      d.reset();
      DestroyDB(db, opt);
      fprintf(stderr, "%s done\n", name.c_str());
    }
  }
}

// The learned table on its own and inside a DB: every index answers like a
// binary search over the entries, and a damaged model or footer is an
// error, never a wrong answer. Built and run by
// engines/leveldb-hooks/upstream_tests.py beside LevelDB's own tests.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "db/dbformat.h"
#include "layers/learned/learned_table_format.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/options.h"
#include "util/testutil.h"

namespace leveldb {

namespace {

const char* const kIndexes[] = {"fp",   "plr",  "ft",   "pgm", "rs", "plex",
                                "rmi",  "alex", "lipp", "dili", "lits"};

std::string Key(uint64_t k) {
  char buf[8];
  for (int i = 7; i >= 0; i--, k >>= 8) buf[i] = static_cast<char>(k & 0xff);
  return std::string(buf, 8);
}

class LearnedDB {
 public:
  LearnedDB(const std::string& index, bool keep_keys) {
    LearnedTableConfig c;
    c.index = index;
    c.keep_keys = keep_keys;
    std::string err;
    format_ = LearnedTableFormat::Make(c, &err);
    EXPECT_NE(format_, nullptr) << err;
    dir_ = testing::TempDir() + "learned_table_test_" + index;
    options_.create_if_missing = true;
    options_.table_format = format_.get();
    options_.write_buffer_size = 64 << 10;
    options_.max_file_size = 64 << 10;
    DestroyDB(dir_, options_);
  }
  ~LearnedDB() {
    db_.reset();
    DestroyDB(dir_, options_);
  }
  Status Open() {
    db_.reset();
    DB* db = nullptr;
    Status s = DB::Open(options_, dir_, &db);
    db_.reset(db);
    return s;
  }
  void Close() { db_.reset(); }
  DB* db() { return db_.get(); }
  const std::string& dir() const { return dir_; }
  const LearnedTableFormat& format() const { return *format_; }

 private:
  std::unique_ptr<LearnedTableFormat> format_;
  Options options_;
  std::string dir_;
  std::unique_ptr<DB> db_;
};

// Keys with gaps, a dense run and both ends of the 64-bit space.
std::vector<uint64_t> Keys() {
  std::vector<uint64_t> k;
  for (uint64_t i = 0; i < 3000; i++) k.push_back(i * i * 7919 + 3);
  for (uint64_t i = 0; i < 500; i++) k.push_back((1ull << 40) + i);
  k.push_back(0);
  k.push_back(~0ull);
  return k;
}

}  // namespace

TEST(LearnedTableTest, EveryIndexAnswersPresentAbsentAndScans) {
  for (const char* index : kIndexes) {
    for (bool keep_keys : {false, true}) {
      SCOPED_TRACE(std::string(index) + (keep_keys ? " keep_keys" : ""));
      LearnedDB t(index, keep_keys);
      ASSERT_TRUE(t.Open().ok());
      std::vector<uint64_t> keys = Keys();
      for (uint64_t k : keys) {
        ASSERT_TRUE(t.db()->Put(WriteOptions(), Key(k), "v" + std::to_string(k)).ok());
      }
      t.db()->CompactRange(nullptr, nullptr);
      ASSERT_GT(t.format().Stats().tables_built, 0u);
      std::string v;
      for (uint64_t k : keys) {
        ASSERT_TRUE(t.db()->Get(ReadOptions(), Key(k), &v).ok()) << k;
        ASSERT_EQ(v, "v" + std::to_string(k));
        if (k + 1 != 0 && std::find(keys.begin(), keys.end(), k + 1) == keys.end()) {
          ASSERT_TRUE(t.db()->Get(ReadOptions(), Key(k + 1), &v).IsNotFound()) << k + 1;
        }
      }
      // Seek to absent keys lands on the next present one.
      std::unique_ptr<Iterator> it(t.db()->NewIterator(ReadOptions()));
      it->Seek(Key(4));
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(it->key().ToString(), Key(3 + 7919));
      it->Seek(Key((1ull << 40) - 1));
      ASSERT_EQ(it->key().ToString(), Key(1ull << 40));
      int n = 0;
      for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
      ASSERT_EQ(n, static_cast<int>(keys.size()));
    }
  }
}

// Flips one byte of every table's model region (`back` bytes before the
// footer) or footer: reading must then fail with Corruption, never return
// a wrong value or NotFound for a present key.
void CorruptAndCheck(const char* index, bool keep_keys, size_t back) {
  SCOPED_TRACE(std::string(index) + " byte " + std::to_string(back) + " from the end");
  LearnedDB t(index, keep_keys);
  ASSERT_TRUE(t.Open().ok());
  std::vector<uint64_t> keys = Keys();
  for (uint64_t k : keys) ASSERT_TRUE(t.db()->Put(WriteOptions(), Key(k), "v").ok());
  t.db()->CompactRange(nullptr, nullptr);
  t.Close();
  Env* env = Env::Default();
  std::vector<std::string> files;
  ASSERT_TRUE(env->GetChildren(t.dir(), &files).ok());
  int damaged = 0;
  for (const std::string& f : files) {
    if (f.size() < 4 || f.substr(f.size() - 4) != ".ldb") continue;
    std::string path = t.dir() + "/" + f, data;
    ASSERT_TRUE(ReadFileToString(env, path, &data).ok());
    ASSERT_GT(data.size(), back);
    data[data.size() - back] ^= 0x5a;
    ASSERT_TRUE(WriteStringToFile(env, data, path).ok());
    damaged++;
  }
  ASSERT_GT(damaged, 0);
  ASSERT_TRUE(t.Open().ok());
  int corrupt = 0;
  for (uint64_t k : keys) {
    std::string v;
    Status s = t.db()->Get(ReadOptions(), Key(k), &v);
    ASSERT_TRUE(s.IsCorruption() || (s.ok() && v == "v")) << k << ": " << s.ToString();
    corrupt += s.IsCorruption();
  }
  ASSERT_EQ(corrupt, static_cast<int>(keys.size()));
}

TEST(LearnedTableTest, CorruptModelIsAnError) {
  // The footer is the last 80 bytes; the model ends just before it.
  CorruptAndCheck("pgm", false, 80 + 1);   // last model byte
  CorruptAndCheck("pgm", false, 80 + 40);  // inside the model
  CorruptAndCheck("lits", false, 80 + 9);
  CorruptAndCheck("rmi", true, 80 + 1);    // a kept key
}

TEST(LearnedTableTest, CorruptFooterIsAnError) {
  CorruptAndCheck("pgm", false, 80 - 32);  // model length field
  CorruptAndCheck("pgm", false, 80 - 64);  // model checksum field
  CorruptAndCheck("pgm", false, 8);        // magic: then not a table at all
}

}  // namespace leveldb

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

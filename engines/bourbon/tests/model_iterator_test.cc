// A learned table's iterator (ModelIterator) against LevelDB's own iterator
// over the same table file: every Seek target (present and absent user
// keys, every version of a duplicated key, keys 0 and 2^64-1, past both
// ends), then walks forward and back from there, and whole scans in both
// directions must give the same entries. Built and run by
// engines/leveldb-hooks/upstream_tests.py beside LevelDB's own tests.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "db/dbformat.h"
#include "layers/bourbon/bourbon.h"
#include "layers/hooks/table_format.h"
#include "leveldb/cache.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"

namespace leveldb {

namespace {

std::string UserKey(uint64_t k) {
  std::string s(8, '\0');
  for (int i = 7; i >= 0; i--, k >>= 8) s[i] = static_cast<char>(k & 0xff);
  return s;
}

struct Entry {
  uint64_t user;
  SequenceNumber seq;
  ValueType type;
};

// Entries in internal-key order: user keys ascending, newest version first.
std::vector<Entry> MakeEntries(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> users = {0, 1, 2, ~uint64_t{0} - 1, ~uint64_t{0}};
  for (int i = 0; i < 3000; i++) users.push_back(rng() % 1000000 * 4096);
  for (int i = 0; i < 200; i++) users.push_back(500000000 + i);  // dense run
  std::sort(users.begin(), users.end());
  users.erase(std::unique(users.begin(), users.end()), users.end());
  std::vector<Entry> entries;
  SequenceNumber seq = 1000000;
  for (uint64_t u : users) {
    // Some keys carry many versions (one of them a deletion), so a run of
    // one user key spans chunks and blocks.
    const int versions = rng() % 20 == 0 ? 1 + rng() % 60 : 1;
    for (int v = 0; v < versions; v++) {
      const ValueType t = (versions > 1 && v == 1) ? kTypeDeletion : kTypeValue;
      entries.push_back({u, seq - v * 3, t});
    }
    seq -= 200;
  }
  return entries;
}

std::string InternalKeyOf(uint64_t user, SequenceNumber seq, ValueType t) {
  std::string s;
  AppendInternalKey(&s, ParsedInternalKey(UserKey(user), seq, t));
  return s;
}

class ModelIteratorTest : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    env_ = Env::Default();
    fname_ = testing::TempDir() + "model_iterator_test_" +
             std::to_string(GetParam()) + ".ldb";
    options_.comparator = &icmp_;
    options_.block_restart_interval = 1;  // Bourbon's layout
    options_.block_size = 512;            // many blocks
    options_.compression = kNoCompression;
    options_.block_cache = cache_.get();
    if (GetParam() == 1) options_.filter_policy = filter_.get();
    entries_ = MakeEntries(GetParam() + 7);

    WritableFile* out;
    ASSERT_TRUE(env_->NewWritableFile(fname_, &out).ok());
    std::unique_ptr<WritableFile> owned_out(out);
    std::unique_ptr<TableFileBuilder> builder(
        NewNativeTableFileBuilder(options_, out));
    for (const Entry& e : entries_) {
      builder->Add(InternalKeyOf(e.user, e.seq, e.type),
                   "v" + std::to_string(e.user) + "." + std::to_string(e.seq));
    }
    ASSERT_TRUE(builder->Finish().ok());
    ASSERT_TRUE(out->Close().ok());

    uint64_t size;
    ASSERT_TRUE(env_->GetFileSize(fname_, &size).ok());
    ASSERT_TRUE(env_->NewRandomAccessFile(fname_, &file_).ok());
    bourbon::Config config;
    config.learning = bourbon::Learning::kOnOpen;
    config.error_bound = GetParam() == 2 ? 1 : 8;
    bourbon_ = std::make_unique<bourbon::Bourbon>(config, Options(), "");
    TableReader* reader;
    TableFileInfo info;
    info.number = 7;
    ASSERT_TRUE(bourbon_->Open(options_, file_, size, info, &reader).ok());
    learned_.reset(reader);
    ASSERT_TRUE(OpenNativeTableReader(options_, file_, size, &reader).ok());
    native_.reset(reader);
  }

  void TearDown() override {
    learned_.reset();
    native_.reset();
    bourbon_.reset();
    delete file_;
    env_->RemoveFile(fname_);
  }

  // Both iterators where they are, then `steps` moves (Next when forward).
  void ExpectSame(Iterator* want, Iterator* got, int steps, bool forward,
                  const std::string& what) {
    for (int i = 0; i <= steps; i++) {
      ASSERT_EQ(want->Valid(), got->Valid()) << what << " step " << i;
      ASSERT_TRUE(got->status().ok()) << what << got->status().ToString();
      if (!want->Valid()) return;
      ASSERT_EQ(want->key().ToString(), got->key().ToString())
          << what << " step " << i;
      ASSERT_EQ(want->value().ToString(), got->value().ToString())
          << what << " step " << i;
      if (forward) {
        want->Next();
        got->Next();
      } else {
        want->Prev();
        got->Prev();
      }
    }
  }

  void SeekBoth(const std::string& target, const std::string& what) {
    for (bool forward : {true, false}) {
      std::unique_ptr<Iterator> want(native_->NewIterator(ReadOptions()));
      std::unique_ptr<Iterator> got(learned_->NewIterator(ReadOptions()));
      want->Seek(target);
      got->Seek(target);
      ExpectSame(want.get(), got.get(), 70, forward, what);
    }
  }

  InternalKeyComparator icmp_{BytewiseComparator()};
  std::unique_ptr<Cache> cache_{NewLRUCache(1 << 20)};
  std::unique_ptr<const FilterPolicy> filter_{NewBloomFilterPolicy(10)};
  Env* env_;
  std::string fname_;
  Options options_;
  std::vector<Entry> entries_;
  RandomAccessFile* file_ = nullptr;
  std::unique_ptr<bourbon::Bourbon> bourbon_;
  std::unique_ptr<TableReader> learned_, native_;
};

TEST_P(ModelIteratorTest, TheTableIsLearnedAndItsIteratorSeeksWithTheModel) {
  std::unique_ptr<Iterator> it(learned_->NewIterator(ReadOptions()));
  it->Seek(InternalKeyOf(1, kMaxSequenceNumber, kValueTypeForSeek));
  bourbon::Snapshot s = bourbon_->Collect();
  EXPECT_EQ(s.learned_table_iterators, 1u);
  EXPECT_EQ(s.unlearned_table_iterators, 0u);
  EXPECT_EQ(s.model_seeks, 1u);
}

TEST_P(ModelIteratorTest, WholeScansInBothDirections) {
  std::unique_ptr<Iterator> want(native_->NewIterator(ReadOptions()));
  std::unique_ptr<Iterator> got(learned_->NewIterator(ReadOptions()));
  want->SeekToFirst();
  got->SeekToFirst();
  ExpectSame(want.get(), got.get(), entries_.size() + 1, true, "forward");
  want->SeekToLast();
  got->SeekToLast();
  ExpectSame(want.get(), got.get(), entries_.size() + 1, false, "backward");
}

TEST_P(ModelIteratorTest, SeekToEveryVersionAndBetween) {
  for (size_t i = 0; i < entries_.size(); i += (i % 7 == 0 ? 1 : 5)) {
    const Entry& e = entries_[i];
    const std::string what = "user " + std::to_string(e.user) + " seq " +
                             std::to_string(e.seq);
    SeekBoth(InternalKeyOf(e.user, e.seq, kValueTypeForSeek), what);
    // A snapshot between versions, and every version newer than the table.
    SeekBoth(InternalKeyOf(e.user, e.seq - 1, kValueTypeForSeek), what + "-1");
    SeekBoth(InternalKeyOf(e.user, kMaxSequenceNumber, kValueTypeForSeek),
             what + " max");
    SeekBoth(InternalKeyOf(e.user, 0, kTypeDeletion), what + " oldest");
  }
}

TEST_P(ModelIteratorTest, SeekToAbsentKeysAndPastBothEnds) {
  std::mt19937_64 rng(GetParam());
  std::vector<uint64_t> targets = {0, 3, 4095, 4097, 499999999, 500000200,
                                   ~uint64_t{0} - 2, ~uint64_t{0}};
  for (int i = 0; i < 2000; i++) targets.push_back(rng());
  for (int i = 0; i < 2000; i++) targets.push_back(rng() % 1000000 * 4096 + 1);
  for (uint64_t t : targets) {
    SeekBoth(InternalKeyOf(t, kMaxSequenceNumber, kValueTypeForSeek),
             "absent " + std::to_string(t));
  }
  // Past the last entry (the oldest version of 2^64-1): nothing.
  std::unique_ptr<Iterator> got(learned_->NewIterator(ReadOptions()));
  got->Seek(InternalKeyOf(~uint64_t{0}, 0, kTypeDeletion));
  std::unique_ptr<Iterator> want(native_->NewIterator(ReadOptions()));
  want->Seek(InternalKeyOf(~uint64_t{0}, 0, kTypeDeletion));
  ExpectSame(want.get(), got.get(), 3, true, "past the end");
}

TEST_P(ModelIteratorTest, ChangingDirectionMidBlockAndAtBlockEdges) {
  std::unique_ptr<Iterator> want(native_->NewIterator(ReadOptions()));
  std::unique_ptr<Iterator> got(learned_->NewIterator(ReadOptions()));
  std::mt19937_64 rng(GetParam() + 99);
  want->SeekToFirst();
  got->SeekToFirst();
  for (int i = 0; i < 20000; i++) {
    ASSERT_EQ(want->Valid(), got->Valid()) << "move " << i;
    if (!want->Valid()) {
      const Entry& e = entries_[rng() % entries_.size()];
      want->Seek(InternalKeyOf(e.user, e.seq, kValueTypeForSeek));
      got->Seek(InternalKeyOf(e.user, e.seq, kValueTypeForSeek));
      continue;
    }
    ASSERT_EQ(want->key().ToString(), got->key().ToString()) << "move " << i;
    if (rng() % 3 == 0) {
      want->Prev();
      got->Prev();
    } else {
      want->Next();
      got->Next();
    }
  }
}

// 0: no filter, error bound 8; 1: a bloom filter; 2: error bound 1.
INSTANTIATE_TEST_SUITE_P(Bounds, ModelIteratorTest, testing::Values(0, 1, 2));

}  // namespace

}  // namespace leveldb

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

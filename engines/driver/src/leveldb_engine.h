// lsmbench adapter for LevelDB 1.23, shared by the LevelDB family: the
// pristine engine (leveldb_engine.cc) and the forks over engines/leveldb-hooks
// (leveldb_learned_engine.cc, ...), which subclass it and add their options
// (ExtraOptionSpecs, Configure), statistics (AddStats) and records.
#ifndef LSMBENCH_LEVELDB_ENGINE_H_
#define LSMBENCH_LEVELDB_ENGINE_H_

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

#include "db/db_impl.h"
#include "engine.h"
#include "leveldb_env.h"
#include "leveldb/cache.h"
#include "leveldb/db.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "table/format.h"

namespace lsmbench {

class LevelDBEngine : public Engine {
 public:
  ~LevelDBEngine() override { Close(); }

  std::string Name() const override { return kEngineId; }

  std::vector<OptionSpec> OptionSpecs() const override {
    using OT = OptionSpec::Type;
    // Defaults are LevelDB's own, except compression, which the studies
    // turn off so block sizes mean the same thing on every engine.
    std::vector<OptionSpec> specs = {
        {"write_buffer_size", OT::kInt, "4194304", "memtable bytes", {}},
        {"max_file_size", OT::kInt, "2097152", "SSTable target bytes", {}},
        {"block_size", OT::kInt, "4096", "data block bytes", {}},
        {"block_restart_interval", OT::kInt, "16", "keys between restart points", {}},
        {"bloom_bits", OT::kInt, "0", "bloom filter bits per key, 0 = none", {}},
        {"compression", OT::kString, "none", "block compression", {"none", "snappy"}},
        {"block_cache_bytes", OT::kInt, "8388608", "LRU block cache bytes", {}},
        {"fill_cache", OT::kBool, "true",
         "gets and scans insert the blocks they read into the block cache (ReadOptions::fill_cache)",
         {}},
        {"max_open_files", OT::kInt, "1000", "table cache size", {}},
        {"read_mode", OT::kString, "mmap", "table reads: LevelDB's mmap or pread(2)",
         {"mmap", "pread"}},
        {"read_advice", OT::kString, "normal",
         "random: no read-ahead (fadvise/madvise RANDOM on table files)", {"normal", "random"}},
        {"verify_checksums", OT::kBool, "false",
         "ReadOptions::verify_checksums of the run's gets and scans (LevelDB's default: off)", {}},
    };
    for (OptionSpec& s : ExtraOptionSpecs()) specs.push_back(std::move(s));
    return specs;
  }

  bool Open(const std::string& dir, const OptionSet& o, std::string* err) override {
    dir_ = dir;
    options_.create_if_missing = true;
    options_.write_buffer_size = o.Int("write_buffer_size");
    options_.max_file_size = o.Int("max_file_size");
    options_.block_size = o.Int("block_size");
    options_.block_restart_interval = static_cast<int>(o.Int("block_restart_interval"));
    read_options_.verify_checksums = o.Bool("verify_checksums");
    options_.compression =
        o.Str("compression") == "snappy" ? leveldb::kSnappyCompression : leveldb::kNoCompression;
    options_.max_open_files = static_cast<int>(o.Int("max_open_files"));
    cache_.reset(leveldb::NewLRUCache(o.Int("block_cache_bytes")));
    options_.block_cache = cache_.get();
    read_options_.fill_cache = o.Bool("fill_cache");
    if (o.Int("bloom_bits") > 0) {
      filter_.reset(leveldb::NewBloomFilterPolicy(static_cast<int>(o.Int("bloom_bits"))));
      options_.filter_policy = filter_.get();
    }
    bool pread = o.Str("read_mode") == "pread", random = o.Str("read_advice") == "random";
    if (pread || random) {
      env_ = std::make_unique<ReadEnv>(pread, random);
      options_.env = env_.get();
    }
    read_mode_ = pread ? "pread" : "mmap";
    read_advice_ = random ? "random" : "normal";
    if (!Configure(o, &options_, err)) return false;
    leveldb::DB* db = nullptr;
    leveldb::Status s = leveldb::DB::Open(options_, dir, &db);
    if (!s.ok()) {
      *err = s.ToString();
      return false;
    }
    db_.reset(db);
    return true;
  }

  bool Put(std::string_view key, std::string_view value, std::string* err) override {
    leveldb::Status s = db_->Put(write_options_, leveldb::Slice(key.data(), key.size()),
                                 leveldb::Slice(value.data(), value.size()));
    return Check(s, err);
  }

  bool Delete(std::string_view key, std::string* err) override {
    return Check(db_->Delete(write_options_, leveldb::Slice(key.data(), key.size())), err);
  }

  bool Get(std::string_view key, std::string* value, bool* found, std::string* err) override {
    gets_++;
    leveldb::Status s = db_->Get(read_options_, leveldb::Slice(key.data(), key.size()), value);
    *found = s.ok();
    return s.ok() || s.IsNotFound() || Check(s, err);
  }

  bool Scan(std::string_view key, size_t n, std::vector<KV>* out, std::string* err) override {
    scans_++;
    out->clear();
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(read_options_));
    for (it->Seek(leveldb::Slice(key.data(), key.size())); it->Valid() && out->size() < n;
         it->Next()) {
      out->emplace_back(it->key().ToString(), it->value().ToString());
      ScanReturned();
    }
    return Check(it->status(), err);
  }

  bool Settle(bool full, std::string* err) override {
    if (full) {
      // Compacts every level into the next down to the deepest holding
      // files, which may then exceed its size budget: wait below too.
      db_->CompactRange(nullptr, nullptr);
    } else {
      // Flush the memtable the way LevelDB's own tests do.
      auto* impl = static_cast<leveldb::DBImpl*>(db_.get());
      if (!Check(impl->TEST_CompactMemTable(), err)) return false;
    }
    if (!WaitUntilIdle(err)) return false;
    MarkSettled();
    return true;
  }

  // Waits until LevelDB has no compaction running or due. The forks over
  // engines/leveldb-hooks answer exactly ("leveldb.compaction-pending":
  // memtable flush, compaction scheduled, a level's size score >= 1 or a
  // seek-charged file, under LevelDB's mutex). LevelDB itself (and wisckey)
  // does not tell: there, no level may be over its budget by the live
  // tables' sizes and the compaction statistics must not have changed for
  // a second (a seek compaction, or one running, is not visible).
  // Fails when work is left and no compaction has finished for
  // kSettleStallSeconds, or after a background error, rather than let the
  // run measure an unsettled tree.
  bool WaitUntilIdle(std::string* err) {
    using Clock = std::chrono::steady_clock;
    std::string pending, stats, last_stats;
    const bool exact = db_->GetProperty("leveldb.compaction-pending", &pending);
    Clock::time_point last_change = Clock::now();
    int stable_polls = 0;
    for (;;) {
      db_->GetProperty("leveldb.stats", &stats);
      if (stats != last_stats) {
        last_stats = stats;
        last_change = Clock::now();
        stable_polls = 0;
      } else {
        stable_polls++;
      }
      if (exact) {
        db_->GetProperty("leveldb.compaction-pending", &pending);
        if (pending == "none") return true;
        if (pending.find("background error") != std::string::npos) {
          *err = "compactions stopped: " + pending;
          return false;
        }
      } else {
        pending = SizeCompactionDue();
        if (pending.empty()) {
          if (stable_polls >= 10) return true;
          pending = "compaction statistics still changing";
        }
      }
      if (Clock::now() - last_change > std::chrono::seconds(kSettleStallSeconds)) {
        *err = "the tree did not settle: " + pending + ", and no compaction finished for " +
               std::to_string(kSettleStallSeconds) + " s";
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }

  nlohmann::json Stats() override {
    nlohmann::json files = nlohmann::json::array();
    for (int level = 0; level < 7; level++) {
      std::string v;
      db_->GetProperty("leveldb.num-files-at-level" + std::to_string(level), &v);
      files.push_back(std::stoll(v));
    }
    std::string stats, mem;
    db_->GetProperty("leveldb.stats", &stats);
    db_->GetProperty("leveldb.approximate-memory-usage", &mem);
    uint64_t index_bytes = 0, table_bytes = 0, tables = 0;
    TableIndexBytes(&index_bytes, &table_bytes, &tables);
    IoCounters io = OwnIo();
    uint64_t lookups = gets_ + scans_;
    nlohmann::json read_io = {
        {"mode", read_mode_},
        {"advice", read_advice_},
        {"lookups_after_settle", lookups},
        {"read_bytes_after_settle", io.read_bytes - settled_io_.read_bytes},
        {"rchar_after_settle", io.rchar - settled_io_.rchar},
        {"read_bytes_per_lookup",
         lookups ? double(io.read_bytes - settled_io_.read_bytes) / lookups : 0.0},
        {"rchar_per_lookup", lookups ? double(io.rchar - settled_io_.rchar) / lookups : 0.0}};
    nlohmann::json record = {{"index_bytes", index_bytes},
            {"index_bytes_source", "sum of SSTable index blocks on disk"},
            {"table_bytes", table_bytes},
            {"tables", tables},
            {"files_per_level", files},
            {"compaction_seconds", CompactionSeconds(stats)},
            {"memory_usage_bytes", std::stoll(mem)},
            {"blocks_read", nullptr},
            {"learning_seconds", nullptr},
            {"read_io", read_io}};
    // The forks over engines/leveldb-hooks say what background work is left
    // (after a load: "none", as settling waited for it).
    std::string pending;
    if (db_->GetProperty("leveldb.compaction-pending", &pending)) {
      record["compaction_pending"] = pending;
    }
    AddStats(&record);
    return record;
  }

  // Every counter this adapter reports is the database's own, but the
  // process's I/O, which Pause and Resume share out (a compaction of another
  // member running in the background while this one takes its turn would
  // still count here: runs that interleave are settled, read-mostly runs).
  bool Interleaves() const override { return true; }
  void Pause() override {
    paused_at_ = IoCounters::Now();
    paused_ = true;
  }
  void Resume() override {
    if (paused_) {
      IoCounters now = IoCounters::Now();
      others_io_.rchar += now.rchar - paused_at_.rchar;
      others_io_.read_bytes += now.read_bytes - paused_at_.read_bytes;
    }
    paused_ = false;
  }

  void Close() override {
    db_.reset();
    filter_.reset();
    cache_.reset();
    env_.reset();
  }

 protected:
  // Scan has returned one more entry (the learned tables read no further
  // ahead than the scan still takes: leveldb_learned_engine.cc).
  virtual void ScanReturned() {}

  // Subclasses (forks): their own options, applied before DB::Open.
  virtual std::vector<OptionSpec> ExtraOptionSpecs() const { return {}; }
  virtual bool Configure(const OptionSet&, leveldb::Options*, std::string*) { return true; }
  // Adds fork-specific fields to the `engine` record.
  virtual void AddStats(nlohmann::json*) {}
  // Called when Settle() returns: the run phase starts.
  virtual void OnSettled() {}

  void MarkSettled() {
    settled_io_ = OwnIo();
    gets_ = scans_ = 0;
    OnSettled();
  }

  leveldb::DB* db() { return db_.get(); }
  // The options the database was opened with (forks open tables with them).
  const leveldb::Options& options() const { return options_; }

  // File number and size of every live table ("leveldb.sstables").
  std::map<uint64_t, uint64_t> LiveTables() {
    std::map<uint64_t, uint64_t> live;
    std::string sstables;
    db_->GetProperty("leveldb.sstables", &sstables);
    std::istringstream in(sstables);
    std::string line;
    while (std::getline(in, line)) {
      unsigned long long number, size;
      if (std::sscanf(line.c_str(), " %llu:%llu[", &number, &size) == 2) live[number] = size;
    }
    return live;
  }
  const std::string& dir() const { return dir_; }

 private:
  // A compaction rewrites at most 25 tables' worth of inputs (LevelDB's
  // ExpandedCompactionByteSizeLimit): minutes at worst for 128 MiB tables.
  static constexpr int kSettleStallSeconds = 600;

  // LevelDB 1.23's size trigger from public properties (VersionSet::
  // Finalize): level 0 at config::kL0_CompactionTrigger = 4 files, level
  // L in 1..5 over 10 MiB * 10^(L-1). Empty when none is due.
  std::string SizeCompactionDue() {
    std::string sstables;
    db_->GetProperty("leveldb.sstables", &sstables);
    std::istringstream in(sstables);
    std::string line;
    int level = -1;
    std::vector<double> bytes(7, 0), files(7, 0);
    while (std::getline(in, line)) {
      unsigned long long number, size;
      if (std::sscanf(line.c_str(), "--- level %d ---", &level) == 1) continue;
      if (level >= 0 && level < 7 && std::sscanf(line.c_str(), " %llu:%llu[", &number, &size) == 2) {
        bytes[level] += size;
        files[level]++;
      }
    }
    if (files[0] >= 4) return "level 0 holds " + std::to_string(int(files[0])) + " files";
    double budget = 10.0 * 1048576;
    for (int l = 1; l < 6; l++, budget *= 10) {
      if (bytes[l] >= budget) return "level " + std::to_string(l) + " over its size budget";
    }
    return "";
  }

  static bool Check(const leveldb::Status& s, std::string* err) {
    if (s.ok()) return true;
    *err = s.ToString();
    return false;
  }

  // Counts every live table (those "leveldb.sstables" lists; obsolete files
  // may linger on disk) and sums the index block size recorded in the footer
  // of those in LevelDB's format (a fork's own tables have other footers and
  // are measured by its AddStats).
  void TableIndexBytes(uint64_t* index_bytes, uint64_t* table_bytes, uint64_t* tables) {
    for (const auto& [number, size] : LiveTables()) {
      *table_bytes += size;
      ++*tables;
      char name[32];
      std::snprintf(name, sizeof(name), "/%06llu.ldb", number);
      std::string path = dir_ + name;
      FILE* f = std::fopen(path.c_str(), "rb");
      if (f == nullptr) continue;
      char buf[leveldb::Footer::kEncodedLength];
      bool read = std::fseek(f, -static_cast<long>(sizeof(buf)), SEEK_END) == 0 &&
                  std::fread(buf, 1, sizeof(buf), f) == sizeof(buf);
      std::fclose(f);
      leveldb::Footer footer;
      leveldb::Slice input(buf, sizeof(buf));
      if (read && footer.DecodeFrom(&input).ok()) *index_bytes += footer.index_handle().size();
    }
  }

  // Sums the Time(sec) column of the "leveldb.stats" table.
  static double CompactionSeconds(const std::string& stats) {
    std::istringstream in(stats);
    std::string line;
    double total = 0;
    while (std::getline(in, line)) {
      int level;
      long files;
      double size_mb, secs;
      if (std::sscanf(line.c_str(), "%d %ld %lf %lf", &level, &files, &size_mb, &secs) == 4) {
        total += secs;
      }
    }
    return total;
  }

  std::string dir_;
  leveldb::Options options_;
  leveldb::ReadOptions read_options_;
  leveldb::WriteOptions write_options_;
  std::unique_ptr<leveldb::Cache> cache_;
  std::unique_ptr<const leveldb::FilterPolicy> filter_;
  std::unique_ptr<leveldb::Env> env_;
  std::unique_ptr<leveldb::DB> db_;
  std::string read_mode_ = "mmap", read_advice_ = "normal";
  // The process's I/O but what other databases of it did while this one
  // was paused (lsmbench --interleave).
  IoCounters OwnIo() const {
    IoCounters now = paused_ ? paused_at_ : IoCounters::Now();
    now.rchar -= others_io_.rchar;
    now.read_bytes -= others_io_.read_bytes;
    return now;
  }

  IoCounters settled_io_, paused_at_, others_io_;
  bool paused_ = false;
  uint64_t gets_ = 0, scans_ = 0;
};

}  // namespace lsmbench

#endif  // LSMBENCH_LEVELDB_ENGINE_H_

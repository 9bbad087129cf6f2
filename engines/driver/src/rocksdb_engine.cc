// lsmbench adapter for RocksDB 7.8.3 with the block-based table (pristine,
// and with the DobLIX table factory, which plugs in under the same API).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <thread>

#include "engine.h"
#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/perf_level.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"

namespace lsmbench {

namespace {

using OT = OptionSpec::Type;
constexpr double kUint32Max = 4294967295.0;  // the plugin's option fields are uint32_t

class RocksDBEngine : public Engine {
 public:
  static const char* DefaultTable() {
    return std::string_view(kEngineId) == "rocksdb-doblix" ? "doblix" : "block";
  }

  ~RocksDBEngine() override { Close(); }

  std::string Name() const override { return kEngineId; }

  std::vector<OptionSpec> OptionSpecs() const override {
    // Defaults are RocksDB's own, except compression (off, as for LevelDB)
    // and the block cache, given LevelDB's 8 MiB so the two compare.
    return {
        {"write_buffer_size", OT::kInt, "67108864", "memtable bytes", {}},
        {"target_file_size_base", OT::kInt, "67108864", "SSTable target bytes", {}},
        {"max_bytes_for_level_base", OT::kInt, "268435456", "level-1 bytes", {}},
        {"block_size", OT::kInt, "4096", "data block bytes", {}},
        {"block_restart_interval", OT::kInt, "16", "keys between restart points", {}},
        {"bloom_bits", OT::kInt, "0", "bloom filter bits per key, 0 = none (both tables)", {}},
        {"compression", OT::kString, "none", "block compression",
         {"none", "snappy", "lz4", "zstd"}},
        {"block_cache_bytes", OT::kInt, "8388608", "LRU block cache bytes", {}},
        {"max_open_files", OT::kInt, "-1", "table cache size, -1 = unlimited", {}},
        {"max_background_jobs", OT::kInt, "2", "flush + compaction threads", {}},
        {"mmap_reads", OT::kBool, "false", "read tables through mmap (RocksDB's default: pread)", {}},
        {"index_type", OT::kString, "binary_search", "block-based table index",
         {"binary_search", "two_level", "binary_search_with_first_key"}},
        // The table factory: RocksDB's block-based table or the DobLIX
        // plugin (engines/rocksdb-doblix), both in the same library. The
        // rocksdb-doblix variant defaults to doblix, rocksdb to block.
        {"table", OT::kString, DefaultTable(), "table format",
         {"block", "doblix", "bourbon-style", "tridentkv-style"}},
        {"doblix.model", OT::kString, "pla", "DobLIX block cutting and model (table=doblix)",
         {"pla", "pra", "agent"}},
        {"doblix.agent_seed", OT::kInt, "1", "DobLIX agent exploration seed (doblix.model=agent)", {}},
        {"doblix.agent_period", OT::kInt, "20",
         "DobLIX agent step every N new tables (doblix.model=agent)", {}, 1, kUint32Max},
        {"perf_steps", OT::kBool, "false",
         "time lookup steps with RocksDB's PerfContext (engine record's steps)", {}},
        {"doblix.error", OT::kInt, "64", "DobLIX PLA error bound E (positions)", {}, 1, kUint32Max},
        {"doblix.max_block", OT::kInt, "4096", "DobLIX largest data block B_max (bytes)", {},
         64, kUint32Max},
        {"doblix.nu", OT::kDouble, "1.0",
         "DobLIX agent reward weight of latency (doblix.model=agent)", {}, 0, 1},
    };
  }

  // A doblix.* knob goes with a table of the DobLIX plugin; the model with
  // table=doblix (the baselines fix their own); the agent's knobs with the
  // agent.
  bool CheckOptions(const OptionSet& o, std::string* err) const override {
    const std::string& table = o.Str("table");
    for (const OptionSpec& s : o.specs()) {
      if (s.name.rfind("doblix.", 0) != 0 || !o.IsSet(s.name)) continue;
      std::string needs;
      if (table == "block") {
        needs = "table=doblix, bourbon-style or tridentkv-style (table is block)";
      } else if (s.name == "doblix.model" && table != "doblix") {
        needs = "table=doblix (table is " + table + ", whose model is its own)";
      } else if ((s.name == "doblix.agent_seed" || s.name == "doblix.agent_period" ||
                  s.name == "doblix.nu") &&
                 (table != "doblix" || o.Str("doblix.model") != "agent")) {
        needs = "doblix.model=agent (model is " +
                (table == "doblix" ? o.Str("doblix.model") : table) + ")";
      }
      if (!needs.empty()) {
        *err = "engine option '" + s.name + "': means something only with " + needs;
        return false;
      }
    }
    return true;
  }

  bool Open(const std::string& dir, const OptionSet& o, std::string* err) override {
    rocksdb::Options opt = DbOptions(o);
    if (!SetTableFactory(o, &opt, err)) return false;
    table_factory_ = opt.table_factory;
    perf_steps_ = o.Bool("perf_steps");
    if (perf_steps_) {
      // Per-thread: lsmbench runs its operations on this thread.
      rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableTimeExceptForMutex);
      // Each level's share of the table reads: the LSM shapes of two runs
      // change the per-get work independently of the table format.
      rocksdb::get_perf_context()->EnablePerLevelPerfContext();
    }
    perf_level_ = rocksdb::GetPerfLevel();
    rocksdb::DB* db = nullptr;
    rocksdb::Status s = rocksdb::DB::Open(opt, dir, &db);
    if (!s.ok()) {
      *err = s.ToString();
      return false;
    }
    db_.reset(db);
    // The steps count operations from here: DB::Open reads the tables'
    // index and filter blocks on a pool of threads that this one joins, so
    // its share of those reads varies from open to open.
    if (perf_steps_) rocksdb::get_perf_context()->Reset();
    resumed_misses_ = ModelMisses();
    bytes_written_at_open_ = BackgroundBytesWritten();
    return true;
  }

  bool Put(std::string_view key, std::string_view value, std::string* err) override {
    return Check(db_->Put(write_options_, rocksdb::Slice(key.data(), key.size()),
                          rocksdb::Slice(value.data(), value.size())),
                 err);
  }

  bool Delete(std::string_view key, std::string* err) override {
    return Check(db_->Delete(write_options_, rocksdb::Slice(key.data(), key.size())), err);
  }

  bool Get(std::string_view key, std::string* value, bool* found, std::string* err) override {
    rocksdb::Status s = db_->Get(read_options_, rocksdb::Slice(key.data(), key.size()), value);
    *found = s.ok();
    return s.ok() || s.IsNotFound() || Check(s, err);
  }

  bool Scan(std::string_view key, size_t n, std::vector<KV>* out, std::string* err) override {
    out->clear();
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(read_options_));
    for (it->Seek(rocksdb::Slice(key.data(), key.size())); it->Valid() && out->size() < n;
         it->Next()) {
      out->emplace_back(it->key().ToString(), it->value().ToString());
    }
    return Check(it->status(), err);
  }

  bool Settle(bool full, std::string* err) override {
    if (!Check(db_->Flush(rocksdb::FlushOptions()), err)) return false;
    if (full) {
      return Check(db_->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr), err);
    }
    // 7.8 has no WaitForCompact(): poll until nothing is pending or running.
    for (;;) {
      uint64_t pending = 0, compactions = 0, flushes = 0;
      db_->GetIntProperty("rocksdb.compaction-pending", &pending);
      db_->GetIntProperty("rocksdb.num-running-compactions", &compactions);
      db_->GetIntProperty("rocksdb.num-running-flushes", &flushes);
      if (pending == 0 && compactions == 0 && flushes == 0) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }

  nlohmann::json Stats() override {
    nlohmann::json files = nlohmann::json::array();
    for (int level = 0; level < 7; level++) {
      std::string v;
      db_->GetProperty("rocksdb.num-files-at-level" + std::to_string(level), &v);
      files.push_back(std::stoll(v));
    }
    const TableSums t = SumTables();
    uint64_t readers_mem = 0;
    db_->GetIntProperty("rocksdb.estimate-table-readers-mem", &readers_mem);
    std::map<std::string, std::string> cfstats;
    double compaction_seconds = 0, compaction_cpu_seconds = 0;
    if (db_->GetMapProperty(rocksdb::DB::Properties::kCFStats, &cfstats) &&
        cfstats.count("compaction.Sum.CompSec")) {
      compaction_seconds = std::stod(cfstats["compaction.Sum.CompSec"]);
      // CPU time of the merge threads: wall seconds on a shared 2-core
      // machine swing by a quarter between two loads of the same data.
      compaction_cpu_seconds = std::stod(cfstats["compaction.Sum.CompMergeCPU"]);
    }
    return {{"index_bytes", t.index_bytes},
            {"index_bytes_source", "sum of table properties index_size"},
            {"filter_bytes", t.filter_bytes},
            {"table_readers_mem_bytes", readers_mem},
            {"table_bytes", t.table_bytes},
            {"tables", t.tables},
            {"data_blocks", t.data_blocks},
            {"files_per_level", files},
            {"compaction_seconds", compaction_seconds},
            {"compaction_cpu_seconds", compaction_cpu_seconds},
            // Bytes flushes and compactions wrote: creation time per byte
            // compares tables that cut the same data into different sizes.
            {"compaction_bytes_written", BackgroundBytesWritten()},
            {"blocks_read", statistics_->getTickerCount(rocksdb::BLOCK_CACHE_DATA_MISS)},
            {"block_cache_data_hits", statistics_->getTickerCount(rocksdb::BLOCK_CACHE_DATA_HIT)},
            {"learning_seconds", nullptr},
            {"table_factory", table_factory_->Name()},
            {"doblix", DoblixStats(t)},
            {"steps", perf_steps_ ? PerfSteps() : nlohmann::json()}};
  }

  void Close() override { db_.reset(); }

  // The counters this adapter reads that are not the database's own are the
  // thread's PerfContext and perf level, the DobLIX reader's thread step
  // timers and its process-wide model misses: Pause keeps this database's,
  // Resume puts them back (a background flush or compaction of another
  // member would still land in the process-wide count: an interleaved run
  // starts none, BackgroundJobs checks it where the run writes).
  bool Interleaves() const override { return true; }
  void Pause() override {
    paused_perf_ = *rocksdb::get_perf_context();
    if (auto* steps = DoblixStepNanos()) std::copy(steps, steps + kDoblixSteps, paused_steps_);
    own_model_misses_ += ModelMisses() - resumed_misses_;
    paused_ = took_turns_ = true;
  }
  void Resume() override {
    rocksdb::SetPerfLevel(perf_level_);
    if (paused_) {
      *rocksdb::get_perf_context() = paused_perf_;
      if (auto* steps = DoblixStepNanos()) std::copy(paused_steps_, paused_steps_ + kDoblixSteps, steps);
    }
    resumed_misses_ = ModelMisses();
    paused_ = false;
  }
  // Flushes and compactions since Open: done (their bytes written), running
  // or waiting (an immutable memtable, a pending compaction). RocksDB's
  // EventListener would count them exactly, but the library is built
  // without RTTI and a listener subclass here needs its typeinfo.
  int64_t BackgroundJobs() override {
    int64_t jobs = BackgroundBytesWritten() != bytes_written_at_open_;
    for (const char* p : {"rocksdb.num-immutable-mem-table", "rocksdb.num-running-flushes",
                          "rocksdb.num-running-compactions", "rocksdb.compaction-pending"}) {
      uint64_t v = 0;
      db_->GetIntProperty(p, &v);
      jobs += static_cast<int64_t>(v);
    }
    return jobs;
  }

 private:
  uint64_t BackgroundBytesWritten() const {
    return statistics_->getTickerCount(rocksdb::FLUSH_WRITE_BYTES) +
           statistics_->getTickerCount(rocksdb::COMPACT_WRITE_BYTES);
  }

  // Sums over the live tables' properties.
  struct TableSums {
    uint64_t index_bytes = 0, filter_bytes = 0, data_blocks = 0, table_bytes = 0, tables = 0;
    uint64_t entries = 0, train_us = 0, serialize_us = 0, index_nodes = 0;
  };

  TableSums SumTables() const {
    TableSums t;
    rocksdb::TablePropertiesCollection props;
    if (!db_->GetPropertiesOfAllTables(&props).ok()) return t;
    t.tables = props.size();
    for (const auto& [name, p] : props) {
      t.index_bytes += p->index_size;
      t.filter_bytes += p->filter_size;
      t.data_blocks += p->num_data_blocks;
      t.table_bytes += p->data_size + p->index_size + p->filter_size;
      t.entries += p->num_entries;
      // DobLIX tables record their creation time split (Figure 14).
      auto u = p->user_collected_properties.find("doblix.train_micros");
      if (u != p->user_collected_properties.end()) t.train_us += std::stoull(u->second);
      u = p->user_collected_properties.find("doblix.serialize_micros");
      if (u != p->user_collected_properties.end()) t.serialize_us += std::stoull(u->second);
      u = p->user_collected_properties.find("doblix.index_nodes");
      if (u != p->user_collected_properties.end()) t.index_nodes += std::stoull(u->second);
    }
    return t;
  }

  // The engine record's `doblix` object (null for the block-based table).
  nlohmann::json DoblixStats(const TableSums& t) const {
    if (std::string(table_factory_->Name()) != "DoblixTable") return nullptr;
    return {{"live_tables_train_seconds", t.train_us / 1e6},
            {"live_tables_serialize_seconds", t.serialize_us / 1e6},
            {"live_tables_index_nodes", t.index_nodes},
            {"model_misses", OwnModelMisses()},
            {"index_bytes_per_entry",
             t.entries > 0 ? static_cast<double>(t.index_bytes) / t.entries : 0.0},
            {"agent_episodes", agent_episodes_ != nullptr
                                   ? nlohmann::json::parse((*agent_episodes_)())
                                   : nlohmann::json::array()}};
  }

  // The DobLIX reader's process-wide count of lookups its model missed.
  uint64_t ModelMisses() const {
    const auto* misses = static_cast<const std::atomic<uint64_t>*>(
        table_factory_->GetOptionsPtr("DoblixModelMisses"));
    return misses != nullptr ? misses->load() : 0;
  }
  // This database's: all of the process's unless it took turns with others.
  uint64_t OwnModelMisses() const {
    if (!took_turns_) return ModelMisses();
    return own_model_misses_ + (paused_ ? 0 : ModelMisses() - resumed_misses_);
  }
  // The calling thread's DobLIX step timers (s_block, s_kv, model lookups,
  // blocks loaded: the plugin's DoblixStepNanos), null for other tables.
  // The reader's thread_local is not const: the const of GetOptionsPtr is
  // the factory's.
  static constexpr size_t kDoblixSteps = 4;
  uint64_t* DoblixStepNanos() const {
    return static_cast<uint64_t*>(const_cast<void*>(table_factory_->GetOptionsPtr("DoblixStepNanos")));
  }

  // Figure 11's steps where PerfContext has them (this thread's sums).
  nlohmann::json PerfSteps() const {
    nlohmann::json steps = nlohmann::json::object();
    const rocksdb::PerfContext* pc = rocksdb::get_perf_context();
    // The DobLIX table times its model (S-block) and last mile (S-KV)
    // itself; the block-based table's two seeks only add up in
    // block_seek_nanos. L-index is zero for both: index and model stay
    // in the table reader once the table is open.
    if (const auto* ours = static_cast<const uint64_t*>(
            table_factory_->GetOptionsPtr("DoblixStepNanos"))) {
      steps["s_block_ns"] = ours[0];
      steps["s_kv_ns"] = ours[1];
      steps["model_lookups"] = ours[2];
      steps["blocks_loaded"] = ours[3];
    }
    steps.update({{"s_file_ns", pc->find_table_nanos},
                  {"l_block_ns", pc->block_read_time},
                  {"block_read_count", pc->block_read_count},
                  {"s_block_plus_s_kv_ns", pc->block_seek_nanos},
                  {"get_from_output_files_ns", pc->get_from_output_files_time},
                  {"index_block_read_count", pc->index_block_read_count},
                  {"block_cache_hit_count", pc->block_cache_hit_count},
                  // The parts of a get common to both tables (Amdahl's serial part).
                  {"get_snapshot_ns", pc->get_snapshot_time},
                  {"get_from_memtable_ns", pc->get_from_memtable_time},
                  {"get_post_process_ns", pc->get_post_process_time},
                  {"block_checksum_ns", pc->block_checksum_time},
                  {"block_read_bytes", pc->block_read_byte}});
    if (pc->level_to_perf_context != nullptr) {
      for (const auto& [level, lp] : *pc->level_to_perf_context) {
        steps["get_from_table_l" + std::to_string(level) + "_ns"] = lp.get_from_table_nanos;
      }
    }
    return steps;
  }

  // The DB's options but its table: sizes, compression, ticker statistics.
  rocksdb::Options DbOptions(const OptionSet& o) {
    rocksdb::Options opt;
    opt.create_if_missing = true;
    opt.write_buffer_size = o.Int("write_buffer_size");
    opt.target_file_size_base = o.Int("target_file_size_base");
    opt.max_bytes_for_level_base = o.Int("max_bytes_for_level_base");
    opt.max_open_files = static_cast<int>(o.Int("max_open_files"));
    opt.max_background_jobs = static_cast<int>(o.Int("max_background_jobs"));
    opt.allow_mmap_reads = o.Bool("mmap_reads");
    const std::string& c = o.Str("compression");
    opt.compression = c == "snappy" ? rocksdb::kSnappyCompression
                      : c == "lz4"  ? rocksdb::kLZ4Compression
                      : c == "zstd" ? rocksdb::kZSTD
                                    : rocksdb::kNoCompression;
    statistics_ = rocksdb::CreateDBStatistics();
    // Tickers only: timers on every Get would tax RocksDB's lookups and not
    // LevelDB's.
    statistics_->set_stats_level(rocksdb::StatsLevel::kExceptHistogramOrTimers);
    opt.statistics = statistics_;
    return opt;
  }

  static rocksdb::BlockBasedTableOptions BlockTableOptions(const OptionSet& o) {
    rocksdb::BlockBasedTableOptions table;
    table.block_size = o.Int("block_size");
    table.block_restart_interval = static_cast<int>(o.Int("block_restart_interval"));
    table.block_cache = rocksdb::NewLRUCache(o.Int("block_cache_bytes"));
    if (o.Int("bloom_bits") > 0) {
      table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(o.Int("bloom_bits")));
    }
    const std::string& it = o.Str("index_type");
    table.index_type = it == "two_level" ? rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch
                       : it == "binary_search_with_first_key"
                           ? rocksdb::BlockBasedTableOptions::kBinarySearchWithFirstKey
                           : rocksdb::BlockBasedTableOptions::kBinarySearch;
    return table;
  }

  // The table option: the block-based table, or the DobLIX plugin (doblix
  // and its baselines) by name through RocksDB's ObjectRegistry, as an
  // OPTIONS file would, with the same filter and block cache.
  bool SetTableFactory(const OptionSet& o, rocksdb::Options* opt, std::string* err) {
    rocksdb::BlockBasedTableOptions table = BlockTableOptions(o);
    if (o.Str("table") == "block") {
      opt->table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
      return true;
    }
    rocksdb::ConfigOptions cfg;
    cfg.ignore_unsupported_options = false;
    std::shared_ptr<rocksdb::TableFactory> doblix;
    rocksdb::Status fs = rocksdb::TableFactory::CreateFromString(
        cfg,
        "id=DoblixTable;model=" +
            (o.Str("table") == "doblix"          ? o.Str("doblix.model")
             : o.Str("table") == "bourbon-style" ? std::string("bourbon")
                                                 : std::string("tridentkv")) +
            ";error=" + std::to_string(o.Int("doblix.error")) +
            ";max_block_size=" + std::to_string(o.Int("doblix.max_block")) +
            ";nu=" + std::to_string(o.Double("doblix.nu")) +
            ";agent_seed=" + std::to_string(o.Int("doblix.agent_seed")) +
            ";agent_period=" + std::to_string(o.Int("doblix.agent_period")) +
            // The same filter the block-based table gets from bloom_bits.
            (o.Int("bloom_bits") > 0
                 ? ";filter_policy=bloomfilter:" + std::to_string(o.Int("bloom_bits")) + ":false"
                 : std::string()),
        &doblix);
    if (!fs.ok() || doblix == nullptr) {
      *err = "table=" + o.Str("table") + ": " + (fs.ok() ? std::string("DoblixTable not registered") : fs.ToString());
      return false;
    }
    // The same block cache the block-based table gets.
    auto* cache = doblix->GetOptions<std::shared_ptr<rocksdb::Cache>>("DoblixBlockCache");
    if (cache != nullptr) *cache = table.block_cache;
    opt->table_factory = doblix;
    agent_episodes_ = doblix->GetOptions<std::function<std::string()>>("DoblixAgentEpisodes");
    return true;
  }

  static bool Check(const rocksdb::Status& s, std::string* err) {
    if (s.ok()) return true;
    *err = s.ToString();
    return false;
  }

  std::shared_ptr<rocksdb::Statistics> statistics_;
  uint64_t bytes_written_at_open_ = 0;
  std::shared_ptr<rocksdb::TableFactory> table_factory_;
  std::function<std::string()>* agent_episodes_ = nullptr;
  bool perf_steps_ = false;
  rocksdb::PerfLevel perf_level_ = rocksdb::PerfLevel::kEnableCount;
  // Kept between this database's turns (Pause/Resume).
  rocksdb::PerfContext paused_perf_;
  uint64_t paused_steps_[kDoblixSteps] = {};
  uint64_t own_model_misses_ = 0, resumed_misses_ = 0;
  bool paused_ = false, took_turns_ = false;
  rocksdb::ReadOptions read_options_;
  rocksdb::WriteOptions write_options_;
  std::unique_ptr<rocksdb::DB> db_;
};

}  // namespace

std::unique_ptr<Engine> NewEngine() { return std::make_unique<RocksDBEngine>(); }

}  // namespace lsmbench

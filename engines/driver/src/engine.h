// The adapter between lsmbench and one key-value engine. Each engine's
// adapter (leveldb_engine.cc, rocksdb_engine.cc, ...) implements it and
// defines NewEngine(); lsmbench is linked once per engine, so the hot path
// has no dispatch besides this one virtual call per operation.
#ifndef LSMBENCH_ENGINE_H_
#define LSMBENCH_ENGINE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "options.h"

namespace lsmbench {

#ifdef LSMBENCH_ENGINE_ID
inline constexpr const char* kEngineId = LSMBENCH_ENGINE_ID;
#else
inline constexpr const char* kEngineId = "map";  // the driver's own tests
#endif

using KV = std::pair<std::string, std::string>;

class Engine {
 public:
  virtual ~Engine() = default;

  // Engine id as engines/engines.yaml, the build id and run logs name it.
  // Adapters return kEngineId, set by the build from the engines.yaml key,
  // so a variant that reuses an adapter (a fork) is still logged as itself.
  virtual std::string Name() const = 0;
  // The options Open() understands, with their defaults.
  virtual std::vector<OptionSpec> OptionSpecs() const = 0;
  // Options each valid alone that mean nothing together (a knob of a table
  // the run does not use): false and one line in *err, checked before
  // anything is written.
  virtual bool CheckOptions(const OptionSet& /*options*/, std::string* /*err*/) const {
    return true;
  }

  // Creates (or reopens) the database in `dir`. Errors go to *err.
  virtual bool Open(const std::string& dir, const OptionSet& options,
                    std::string* err) = 0;
  virtual bool Put(std::string_view key, std::string_view value,
                   std::string* err) = 0;
  // Removes `key` (absent keys too, as LevelDB and RocksDB do).
  virtual bool Delete(std::string_view key, std::string* err) = 0;
  // *found is false for an absent key; false return means an engine error.
  virtual bool Get(std::string_view key, std::string* value, bool* found,
                   std::string* err) = 0;
  // Up to `n` entries from the first key >= `key`, in order, into *out
  // (cleared first).
  virtual bool Scan(std::string_view key, size_t n, std::vector<KV>* out,
                    std::string* err) = 0;
  // Writes the memtable out and waits until background compaction has
  // settled (or, with full=true, compacts everything into the last level).
  virtual bool Settle(bool full, std::string* err) = 0;
  // The `engine` record of the log: index bytes, files per level, blocks
  // read, compaction time, and whatever else the engine can tell.
  virtual nlohmann::json Stats() = 0;
  // Engine-scope `breakdown` records (lookup step timers), written after
  // the driver's own; none by default.
  virtual std::vector<nlohmann::json> Breakdowns() { return {}; }
  virtual void Close() = 0;

  // Whether several databases of this engine can run in one process taking
  // turns (lsmbench --interleave): true only where every counter the logs
  // report is this database's, or kept so by Pause and Resume.
  virtual bool Interleaves() const { return false; }
  // Another database of this process runs between Pause and Resume: the
  // per-thread and per-process counters (lookup timers, I/O) the engine
  // reads must count this database's work only.
  virtual void Pause() {}
  virtual void Resume() {}
  // Flushes and compactions this database has begun or has pending since it
  // was opened, or -1 when the engine cannot tell. Interleaved runs that
  // write need it (and it must stay 0): a background job of one member
  // would run during another's turns.
  virtual int64_t BackgroundJobs() { return -1; }
};

std::unique_ptr<Engine> NewEngine();

}  // namespace lsmbench

#endif  // LSMBENCH_ENGINE_H_

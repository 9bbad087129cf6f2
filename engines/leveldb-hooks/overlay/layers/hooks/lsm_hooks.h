// Observer and level-lookup hooks of the LSM tree (Options::hooks).
//
// What learned-index variants need from the version set and compactions
// (Bourbon's file lifetimes and level models, the EDBT study's compaction
// costs), with LevelDB's behaviour unchanged when Options::hooks is null:
//   * OnFileCreated / OnFileDeleted: from VersionSet::LogAndApply, after the
//     edit is in the MANIFEST and the new version installed (mutex held:
//     keep it short). `micros` is Env::NowMicros().
//   * OnFileLookup: Version::Get, once per table probed, `found` when that
//     table answered the key (a value or a deletion): Bourbon's positive
//     and negative internal lookups.
//   * FindFileInLevel: Version::Get for a level >= 1, before LevelDB's
//     binary search over the level's files. Return true with *index set to
//     the first file whose largest key >= internal_key (files.size() when
//     none), the same answer FindFile gives; return false to let LevelDB
//     search (a model not valid for this version: count it as a fallback).
//     A hint for the table read may be left in LookupContext (lookup_trace.h).
//   * OnCompaction: DBImpl after a compaction or memtable flush wrote its
//     outputs, with the time the table builders spent on models
//     (LookupTrace's BuildCounters) separated from the rest, what started
//     it (CompactionTrigger) and when. Trivial moves (a file relinked one
//     level down, no I/O) are not compactions here: the file events show
//     them.
#ifndef STORAGE_LEVELDB_LAYERS_HOOKS_LSM_HOOKS_H_
#define STORAGE_LEVELDB_LAYERS_HOOKS_LSM_HOOKS_H_

#include <cstdint>
#include <vector>

#include "leveldb/slice.h"

namespace leveldb {

struct FileMetaData;

struct FileEvent {
  int level;
  uint64_t number;
  uint64_t file_size;
  Slice smallest;  // internal keys
  Slice largest;
  uint64_t micros;
};

// Why LevelDB started a compaction (DBImpl::BackgroundCompaction):
//   kFlush   a memtable written to a table (full memtable, or log recovery)
//   kSize    VersionSet::PickCompaction, a level over its size budget (or
//            level 0 at config::kL0_CompactionTrigger files); it wins over
//            a pending seek compaction
//   kSeek    PickCompaction, a file whose allowed_seeks Version::UpdateStats
//            ran down (gets that probed it first and went on to another
//            file; Options::seek_compaction)
//   kManual  DB::CompactRange
enum class CompactionTrigger { kFlush, kSize, kSeek, kManual };

const char* CompactionTriggerName(CompactionTrigger trigger);

struct CompactionEvent {
  bool flush;              // memtable flush (true) or compaction
  int output_level;
  int input_files;
  int output_files;
  uint64_t bytes_read;
  uint64_t bytes_written;
  uint64_t micros;         // whole compaction, as leveldb.stats counts it
  uint64_t train_nanos;    // builders: fitting models
  uint64_t model_write_nanos;  // builders: serializing and writing models
  CompactionTrigger trigger;
  uint64_t start_micros;   // Env::NowMicros() when its work began
};

class LsmHooks {
 public:
  virtual ~LsmHooks() = default;
  virtual void OnFileCreated(const FileEvent&) {}
  virtual void OnFileDeleted(const FileEvent&) {}
  virtual void OnFileLookup(int level, uint64_t number, bool found) {}
  virtual bool FindFileInLevel(int level,
                               const std::vector<FileMetaData*>& files,
                               const Slice& internal_key, uint32_t* index) {
    return false;
  }
  virtual void OnCompaction(const CompactionEvent&) {}
};

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_HOOKS_LSM_HOOKS_H_

// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// WiscKey's key-value separation (seed 004 §2.2): every value goes to an
// append-only value log; the LSM (WAL, memtable, tables) stores the user key
// and a fixed-size pointer, so table entries have a fixed size and a model's
// position maps to a byte offset.
//
// Files are "<dbname>/NNNNNN.vlog". Each DB::Open starts a new file (numbers
// are the value log's own, one above the largest on disk) and never appends
// to an older one, so a pointer can never alias a record written later.
//
// Record: masked crc32c (4) | key length (4) | value length (4) | key | value,
// the crc covering everything after itself. Pointer (kPointerSize bytes):
// file number (fixed32) | record offset (fixed64) | record length (fixed32).
//
// Durability: DBImpl::Write hands each batch group to Separate() before the
// WAL record is written; Separate() write()s the records (so a process kill
// after it returns loses nothing) and fdatasync()s them when the write asked
// for sync, before the WAL is synced. On open, every file is scanned and
// checked record by record; a torn or corrupt tail is truncated (and
// logged), never trusted. A read checks that the record's key is the key
// looked up and its length, and the crc when ReadOptions::verify_checksums.
//
// No garbage collection: overwritten and deleted values stay in the log (the
// paper's figures do not need it). The value log uses POSIX I/O directly,
// not leveldb::Env (LevelDB's Env would mmap a file that is still growing).
#ifndef STORAGE_LEVELDB_LAYERS_WISCKEY_VALUE_LOG_H_
#define STORAGE_LEVELDB_LAYERS_WISCKEY_VALUE_LOG_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "leveldb/write_batch.h"

namespace leveldb {

class ValueLog {
 public:
  static constexpr size_t kPointerSize = 16;
  static constexpr size_t kHeaderSize = 12;

  // Opens (checking and truncating torn tails) every value log file of
  // `dbname` and starts a new one.
  static Status Open(const std::string& dbname, const Comparator* ucmp,
                     Logger* info_log, ValueLog** result);
  // Deletes every value log file of `dbname` (DestroyDB).
  static void RemoveFiles(const std::string& dbname);

  ValueLog(const ValueLog&) = delete;
  ValueLog& operator=(const ValueLog&) = delete;
  ~ValueLog();

  // Appends the values of `batch` to the log and sets *separated to a batch
  // (owned by the log, valid until the next call) with the same sequence,
  // keys and deletions, and pointers in place of values. One caller at a
  // time (DBImpl's writer at the front of the queue).
  Status Separate(const WriteBatch& batch, bool sync, WriteBatch** separated);

  // Replaces the pointer in *value (stored under user key `key`) by the
  // value it points to.
  Status Resolve(const Slice& key, bool verify_checksums,
                 std::string* value) const;

  // Bytes appended to the value log since open, and bytes on disk at open.
  uint64_t AppendedBytes() const {
    return appended_.load(std::memory_order_relaxed);
  }
  uint64_t BytesAtOpen() const { return bytes_at_open_; }

 private:
  struct File {
    uint64_t number;
    int fd;
  };

  ValueLog(std::string dbname, const Comparator* ucmp)
      : dbname_(std::move(dbname)), ucmp_(ucmp) {}
  const File* FindFile(uint64_t number) const;

  const std::string dbname_;
  // A record's key must equal the key looked up under the user comparator
  // (which may call different byte strings equal).
  const Comparator* const ucmp_;
  std::vector<File> files_;  // by number; the last one is appended to
  uint64_t append_offset_ = 0;
  uint64_t bytes_at_open_ = 0;
  std::atomic<uint64_t> appended_{0};
  std::string buffer_;
  WriteBatch separated_;
};

// Wraps a DB iterator whose values are pointers; takes ownership of `base`.
Iterator* NewValueResolvingIterator(Iterator* base, const ValueLog* vlog,
                                    bool verify_checksums);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_WISCKEY_VALUE_LOG_H_

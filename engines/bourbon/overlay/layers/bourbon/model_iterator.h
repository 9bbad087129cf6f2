// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// A learned table's iterator (seed 004 §5.3, range queries): Seek asks the
// file model for the positions that hold the target's first entry, loads
// the data block of those positions and binary-searches only them; Next
// and Prev then walk whole blocks in file order, as LevelDB's two-level
// iterator does, without ever touching the index block. Blocks are read
// whole, checksummed as ReadOptions says, and kept in the block cache under
// this table's own cache id.
#ifndef STORAGE_LEVELDB_LAYERS_BOURBON_MODEL_ITERATOR_H_
#define STORAGE_LEVELDB_LAYERS_BOURBON_MODEL_ITERATOR_H_

#include <atomic>
#include <cstdint>
#include <functional>

#include "leveldb/cache.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "lidx/index.h"

namespace leveldb {

class RandomAccessFile;

namespace bourbon {

class FileLayout;

class ModelIterator : public Iterator {
 public:
  // The positions [lo, hi] that hold the first entry whose user key is >=
  // user_key (the model's bound, as FileLayout::Get takes it).
  using Predictor = std::function<lidx::Bound(const Slice& user_key)>;

  // `layout` and `file` outlive the iterator (the table reader owns them
  // and the table cache keeps the reader while the iterator lives);
  // `model_seeks` counts Seeks the model answered.
  ModelIterator(const FileLayout* layout, Predictor predict,
                RandomAccessFile* file, const ReadOptions& options,
                Cache* block_cache, uint64_t cache_id,
                std::atomic<uint64_t>* model_seeks);
  ModelIterator(const ModelIterator&) = delete;
  ModelIterator& operator=(const ModelIterator&) = delete;
  ~ModelIterator() override;

  bool Valid() const override { return valid_; }
  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const Slice& target) override;
  void Next() override;
  void Prev() override;
  Slice key() const override { return key_; }
  Slice value() const override { return value_; }
  Status status() const override { return status_; }

 private:
  struct LoadedBlock;
  static void DeleteCachedBlock(const Slice& key, void* value);

  // Makes block b the current one (from the cache or the file); false on
  // an error, which status_ then holds.
  bool LoadBlock(size_t b);
  void ReleaseBlock();
  // Positions at entry i of the current block; i == its count moves to the
  // next block's first entry (or past the end).
  void SetEntry(uint64_t i);
  // The entry at i of the current block, without moving; false on a
  // corrupt entry.
  bool EntryAt(uint64_t i, Slice* key, Slice* value);
  void Invalidate() { valid_ = false; }
  void Fail(const Status& s);

  const FileLayout* const layout_;
  const Predictor predict_;
  RandomAccessFile* const file_;
  const ReadOptions options_;
  Cache* const block_cache_;
  const uint64_t cache_id_;
  std::atomic<uint64_t>* const model_seeks_;

  // The current block: its raw bytes and restart array.
  size_t block_ = 0;
  bool has_block_ = false;
  const char* data_ = nullptr;
  const char* restarts_ = nullptr;
  uint64_t count_ = 0;
  Cache::Handle* cache_handle_ = nullptr;
  LoadedBlock* owned_ = nullptr;  // when the block is not in the cache

  uint64_t entry_ = 0;
  bool valid_ = false;
  Slice key_, value_;
  Status status_;
};

}  // namespace bourbon
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_BOURBON_MODEL_ITERATOR_H_

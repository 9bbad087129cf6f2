// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
#include "layers/bourbon/model_iterator.h"

#include <algorithm>
#include <utility>

#include "db/dbformat.h"
#include "layers/bourbon/file_layout.h"
#include "leveldb/comparator.h"
#include "table/format.h"
#include "util/coding.h"

namespace leveldb {
namespace bourbon {

struct ModelIterator::LoadedBlock {
  const char* data;
  size_t size;
  bool heap_allocated;
  ~LoadedBlock() {
    if (heap_allocated) delete[] data;
  }
};

void ModelIterator::DeleteCachedBlock(const Slice&, void* value) {
  delete static_cast<LoadedBlock*>(value);
}
ModelIterator::ModelIterator(const FileLayout* layout, Predictor predict,
                             RandomAccessFile* file, const ReadOptions& options,
                             Cache* block_cache, uint64_t cache_id,
                             std::atomic<uint64_t>* model_seeks)
    : layout_(layout),
      predict_(std::move(predict)),
      file_(file),
      options_(options),
      block_cache_(block_cache),
      cache_id_(cache_id),
      model_seeks_(model_seeks) {}

ModelIterator::~ModelIterator() { ReleaseBlock(); }

void ModelIterator::Fail(const Status& s) {
  if (status_.ok()) status_ = s;  // the first error, as TwoLevelIterator
  valid_ = false;
}

void ModelIterator::ReleaseBlock() {
  if (cache_handle_ != nullptr) block_cache_->Release(cache_handle_);
  delete owned_;
  cache_handle_ = nullptr;
  owned_ = nullptr;
  has_block_ = false;
  data_ = restarts_ = nullptr;
  count_ = 0;
}

bool ModelIterator::LoadBlock(size_t b) {
  if (has_block_ && block_ == b) return true;
  ReleaseBlock();
  const FileLayout::BlockSpan& span = layout_->block(b);
  BlockHandle handle;
  handle.set_offset(span.offset);
  handle.set_size(span.size);
  const LoadedBlock* loaded = nullptr;
  char cache_key[16];
  EncodeFixed64(cache_key, cache_id_);
  EncodeFixed64(cache_key + 8, span.offset);
  const Slice key(cache_key, sizeof(cache_key));
  if (block_cache_ != nullptr) {
    cache_handle_ = block_cache_->Lookup(key);
    if (cache_handle_ != nullptr) {
      loaded = static_cast<LoadedBlock*>(block_cache_->Value(cache_handle_));
    }
  }
  if (loaded == nullptr) {
    BlockContents contents;
    Status s = ReadBlock(file_, options_, handle, &contents);
    if (!s.ok()) {
      Fail(s);
      return false;
    }
    auto* block = new LoadedBlock{contents.data.data(), contents.data.size(),
                                  contents.heap_allocated};
    if (block_cache_ != nullptr && contents.cachable && options_.fill_cache) {
      cache_handle_ =
          block_cache_->Insert(key, block, block->size, &DeleteCachedBlock);
    } else {
      owned_ = block;
    }
    loaded = block;
  }
  // The block must still be the one the model learned: one entry per
  // restart point, as many as the layout says.
  const uint64_t expected = layout_->BlockEnd(b) - span.first;
  uint64_t count = loaded->size >= 4
                       ? DecodeFixed32(loaded->data + loaded->size - 4)
                       : 0;
  if (loaded->size < 4 || count > (loaded->size - 4) / 4 || count != expected) {
    ReleaseBlock();
    Fail(Status::Corruption("learned table block does not match its layout"));
    return false;
  }
  block_ = b;
  has_block_ = true;
  data_ = loaded->data;
  restarts_ = loaded->data + loaded->size - 4 * (count + 1);
  count_ = count;
  return true;
}

bool ModelIterator::EntryAt(uint64_t i, Slice* key, Slice* value) {
  const char* p = data_ + DecodeFixed32(restarts_ + 4 * i);
  const char* end =
      i + 1 < count_ ? data_ + DecodeFixed32(restarts_ + 4 * (i + 1)) : restarts_;
  if (p < data_ || end > restarts_ || p >= end ||
      !FileLayout::ParseEntry(p, end, key, value)) {
    Fail(Status::Corruption("bad entry in a learned table's block"));
    return false;
  }
  return true;
}

void ModelIterator::SetEntry(uint64_t i) {
  while (i >= count_) {
    if (block_ + 1 >= layout_->num_blocks()) {
      valid_ = false;
      return;
    }
    if (!LoadBlock(block_ + 1)) return;
    i = 0;  // blocks are never empty (FileLayout::Read)
  }
  entry_ = i;
  valid_ = EntryAt(i, &key_, &value_);
}

void ModelIterator::SeekToFirst() {
  if (LoadBlock(0)) SetEntry(0);
}

void ModelIterator::SeekToLast() {
  if (LoadBlock(layout_->num_blocks() - 1)) SetEntry(count_ - 1);
}

void ModelIterator::Seek(const Slice& target) {
  model_seeks_->fetch_add(1, std::memory_order_relaxed);
  const lidx::Bound bound = predict_(ExtractUserKey(target));
  const uint64_t n = layout_->entries();
  if (bound.lo >= n) {  // every entry is smaller
    valid_ = false;
    return;
  }
  const uint64_t lo = bound.lo;
  const uint64_t hi = std::max(lo, std::min<uint64_t>(bound.hi, n - 1));
  const Comparator* icmp = layout_->comparator();
  size_t b = layout_->BlockOf(lo);
  const size_t b_hi = layout_->BlockOf(hi);
  if (!LoadBlock(b)) return;
  // The bound spans blocks: the first whose last key is >= target.
  while (b < b_hi) {
    Slice key, value;
    if (!EntryAt(count_ - 1, &key, &value)) return;
    if (icmp->Compare(target, key) <= 0) break;
    if (!LoadBlock(++b)) return;
  }
  const uint64_t first = layout_->block(b).first;
  uint64_t l = std::max(lo, first) - first;
  uint64_t r = std::min(hi, first + count_ - 1) - first + 1;
  while (l < r) {  // the first entry of [l, r) whose internal key is >= target
    const uint64_t m = l + (r - l) / 2;
    Slice key, value;
    if (!EntryAt(m, &key, &value)) return;
    if (icmp->Compare(key, target) < 0) {
      l = m + 1;
    } else {
      r = m;
    }
  }
  SetEntry(l);
  // Versions of the user key newer than the target's sequence number can
  // push the first entry >= target past the bound: walk on.
  while (valid_ && icmp->Compare(key_, target) < 0) Next();
}

void ModelIterator::Next() {
  if (valid_) SetEntry(entry_ + 1);
}

void ModelIterator::Prev() {
  if (!valid_) return;
  if (entry_ > 0) {
    SetEntry(entry_ - 1);
  } else if (block_ == 0) {
    valid_ = false;
  } else if (LoadBlock(block_ - 1)) {
    SetEntry(count_ - 1);
  }
}

}  // namespace bourbon
}  // namespace leveldb

// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
#include "layers/bourbon/file_layout.h"

#include <algorithm>

#include "layers/bourbon/path_trace.h"
#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "lidx/key_map.h"
#include "table/block.h"
#include "table/filter_block.h"
#include "table/format.h"
#include "util/coding.h"

namespace leveldb {
namespace bourbon {

namespace {

ReadOptions VerifyingChecksums() {
  ReadOptions ro;
  ro.verify_checksums = true;
  return ro;
}

// As LevelDB's Table::Open reads it.
Status ReadFooter(RandomAccessFile* file, uint64_t file_size, Footer* footer) {
  if (file_size < Footer::kEncodedLength) {
    return Status::Corruption("file is too short to be an sstable");
  }
  char footer_space[Footer::kEncodedLength];
  Slice footer_input;
  Status s = file->Read(file_size - Footer::kEncodedLength,
                        Footer::kEncodedLength, &footer_input, footer_space);
  if (!s.ok()) return s;
  return footer->DecodeFrom(&footer_input);
}

Status ReadFilter(const Options& options, RandomAccessFile* file,
                  const Footer& footer, std::string* data) {
  const ReadOptions ro = VerifyingChecksums();
  BlockContents contents;
  Status s = ReadBlock(file, ro, footer.metaindex_handle(), &contents);
  if (!s.ok()) return s;
  leveldb::Block meta(contents);
  std::unique_ptr<Iterator> it(meta.NewIterator(BytewiseComparator()));
  std::string key = "filter.";
  key.append(options.filter_policy->Name());
  it->Seek(key);
  if (!it->Valid() || it->key() != Slice(key)) return Status::OK();
  Slice v = it->value();
  BlockHandle handle;
  if (!handle.DecodeFrom(&v).ok()) return Status::Corruption("filter handle");
  BlockContents filter;
  s = ReadBlock(file, ro, handle, &filter);
  if (!s.ok()) return s;
  data->assign(filter.data.data(), filter.data.size());
  if (filter.heap_allocated) delete[] filter.data.data();
  return Status::OK();
}

}  // namespace

FileLayout::~FileLayout() = default;

Status FileLayout::VerifyIndex(RandomAccessFile* file, uint64_t file_size) {
  Footer footer;
  Status s = ReadFooter(file, file_size, &footer);
  if (!s.ok()) return s;
  BlockContents index;
  s = ReadBlock(file, VerifyingChecksums(), footer.index_handle(), &index);
  if (s.ok() && index.heap_allocated) delete[] index.data.data();
  return s;
}

bool FileLayout::ParseEntry(const char* p, const char* limit, Slice* key,
                            Slice* value) {
  uint32_t shared, non_shared, value_length;
  if (limit - p < 3) return false;
  if ((p = GetVarint32Ptr(p, limit, &shared)) == nullptr) return false;
  if ((p = GetVarint32Ptr(p, limit, &non_shared)) == nullptr) return false;
  if ((p = GetVarint32Ptr(p, limit, &value_length)) == nullptr) return false;
  if (shared != 0 || static_cast<uint64_t>(limit - p) <
                         uint64_t{non_shared} + value_length) {
    return false;
  }
  *key = Slice(p, non_shared);
  *value = Slice(p + non_shared, value_length);
  return true;
}

Status FileLayout::Read(const Options& options, RandomAccessFile* file,
                        uint64_t file_size, std::vector<lidx::u128>* keys,
                        std::unique_ptr<FileLayout>* result) {
  Footer footer;
  Status s = ReadFooter(file, file_size, &footer);
  if (!s.ok()) return s;
  std::unique_ptr<FileLayout> layout(new FileLayout);
  layout->icmp_ = options.comparator;
  s = layout->ReadBlocks(options, file, footer, keys);
  if (!s.ok()) return s;
  layout->FindUniformBlocks();
  if (options.filter_policy != nullptr) {
    s = ReadFilter(options, file, footer, &layout->filter_data_);
    if (!s.ok()) return s;
    if (!layout->filter_data_.empty()) {
      layout->filter_.reset(
          new FilterBlockReader(options.filter_policy, layout->filter_data_));
    }
  }
  *result = std::move(layout);
  return Status::OK();
}

Status FileLayout::ReadBlocks(const Options& options, RandomAccessFile* file,
                              const Footer& footer,
                              std::vector<lidx::u128>* keys) {
  BlockContents index_contents;
  Status s = ReadBlock(file, VerifyingChecksums(), footer.index_handle(),
                       &index_contents);
  if (!s.ok()) return s;
  leveldb::Block index(index_contents);  // owns heap-allocated contents
  std::unique_ptr<Iterator> it(index.NewIterator(options.comparator));
  bool same_size = true;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    Slice v = it->value();
    BlockHandle handle;
    s = handle.DecodeFrom(&v);
    if (!s.ok()) return s;
    s = AddBlock(file, handle, keys, &same_size);
    if (!s.ok()) return s;
  }
  if (!it->status().ok()) return it->status();
  if (n_ == 0) return Status::NotSupported("empty table");
  if (!same_size) entry_size_ = 0;
  return Status::OK();
}

Status FileLayout::AddBlock(RandomAccessFile* file, const BlockHandle& handle,
                            std::vector<lidx::u128>* keys, bool* same_size) {
  BlockContents contents;
  Status s = ReadBlock(file, VerifyingChecksums(), handle, &contents);
  if (!s.ok()) return s;
  const char* data = contents.data.data();
  const size_t size = contents.data.size();
  std::unique_ptr<const char[]> owned(contents.heap_allocated ? data : nullptr);
  if (size != handle.size()) {
    // Stored compressed (LevelDB keeps a block compressed only when that
    // makes it smaller): its bytes on disk are not its entries.
    return Status::NotSupported("table has compressed blocks");
  }
  if (size < 4) return Status::Corruption("bad block");
  const uint32_t restarts = DecodeFixed32(data + size - 4);
  if (restarts > (size - 4) / 4) return Status::Corruption("bad block");
  const char* restart_array = data + size - 4 * (restarts + 1);
  const uint64_t first = n_;
  for (uint32_t i = 0; i < restarts; i++) {
    const char* p = data + DecodeFixed32(restart_array + 4 * i);
    const char* end = i + 1 < restarts
                          ? data + DecodeFixed32(restart_array + 4 * i + 4)
                          : restart_array;
    s = AddEntry(p, end, keys, same_size);
    if (!s.ok()) return s;
  }
  if (restarts == 0) return Status::Corruption("empty block");
  blocks_.push_back({handle.offset(), static_cast<uint32_t>(size), first});
  return Status::OK();
}

Status FileLayout::AddEntry(const char* p, const char* end,
                            std::vector<lidx::u128>* keys, bool* same_size) {
  Slice key, value;
  if (p >= end || !ParseEntry(p, end, &key, &value)) {
    return Status::Corruption("bad block entry");
  }
  if (key.data() + key.size() + value.size() != end) {
    // More entries between restart points: prefix-compressed.
    return Status::NotSupported("table has several entries per restart point");
  }
  const uint32_t entry_size = static_cast<uint32_t>(end - p);
  if (n_ == 0) {
    smallest_ = key.ToString();
    entry_size_ = entry_size;
    key_length_ = static_cast<int>(key.size()) - 8;
  } else {
    *same_size &= entry_size == entry_size_;
    if (static_cast<int>(key.size()) - 8 != key_length_) key_length_ = -1;
  }
  if (key.size() < 8) return Status::Corruption("bad internal key");
  if (keys != nullptr) {
    keys->push_back(lidx::MapKey<lidx::u128>(
        std::string_view(key.data(), key.size() - 8)));
  }
  n_++;
  return Status::OK();
}

void FileLayout::FindUniformBlocks() {
  if (blocks_.size() < 2) return;
  const uint64_t per = blocks_[1].first;
  bool uniform = per > 0;
  for (size_t b = 0; uniform && b < blocks_.size(); b++) {
    uint64_t count = BlockEnd(b) - blocks_[b].first;
    uniform = b + 1 < blocks_.size() ? count == per : count <= per;
  }
  if (uniform) per_block_ = static_cast<uint32_t>(per);
}

size_t FileLayout::MemoryBytes() const {
  return sizeof(*this) + blocks_.capacity() * sizeof(BlockSpan) +
         filter_data_.capacity();
}

size_t FileLayout::BlockOf(uint64_t pos) const {
  if (per_block_ != 0) {
    return std::min<size_t>(pos / per_block_, blocks_.size() - 1);
  }
  auto it = std::upper_bound(
      blocks_.begin(), blocks_.end(), pos,
      [](uint64_t p, const BlockSpan& b) { return p < b.first; });
  return (it - blocks_.begin()) - 1;
}

Status FileLayout::EntryOffsets(RandomAccessFile* file, size_t b, uint64_t a,
                                uint64_t c, std::vector<uint64_t>* offsets) const {
  const BlockSpan& blk = blocks_[b];
  offsets->clear();
  if (entry_size_ != 0) {
    for (uint64_t i = a; i <= c + 1; i++) {
      offsets->push_back(blk.offset + (i - blk.first) * entry_size_);
    }
    return Status::OK();
  }
  // The restart array: one fixed32 per entry, then their count.
  const uint64_t count = BlockEnd(b) - blk.first;
  const uint64_t array = blk.size - 4 * (count + 1);
  const uint64_t n = c - a + 2;  // the entry after c: the next restart or the array
  char space[4 * 64];
  std::string heap;
  char* scratch = space;
  if (4 * n > sizeof(space)) {
    heap.resize(4 * n);
    scratch = &heap[0];
  }
  Slice r;
  const bool to_array = c + 1 == BlockEnd(b);
  Status s = file->Read(blk.offset + array + 4 * (a - blk.first),
                        4 * (to_array ? n - 1 : n), &r, scratch);
  if (!s.ok()) return s;
  if (r.size() != 4 * (to_array ? n - 1 : n)) return Status::Corruption("short read");
  for (uint64_t i = 0; i + 1 < n; i++) {
    offsets->push_back(blk.offset + DecodeFixed32(r.data() + 4 * i));
  }
  offsets->push_back(to_array ? blk.offset + array
                              : blk.offset + DecodeFixed32(r.data() + 4 * (n - 1)));
  return Status::OK();
}

Status FileLayout::EntryAt(RandomAccessFile* file, uint64_t pos,
                           std::string* scratch, Slice* key,
                           Slice* value) const {
  const size_t b = BlockOf(pos);
  std::vector<uint64_t> offsets;
  Status s = EntryOffsets(file, b, pos, pos, &offsets);
  if (!s.ok()) return s;
  const uint64_t len = offsets[1] - offsets[0];
  scratch->resize(len);
  Slice chunk;
  s = file->Read(offsets[0], len, &chunk, &(*scratch)[0]);
  if (!s.ok()) return s;
  if (chunk.size() != len || !ParseEntry(chunk.data(), chunk.data() + len, key, value)) {
    return Status::Corruption("bad entry");
  }
  return Status::OK();
}

Status FileLayout::VerifyBlock(RandomAccessFile* file, size_t b) const {
  BlockHandle handle;
  handle.set_offset(blocks_[b].offset);
  handle.set_size(blocks_[b].size);
  BlockContents contents;
  Status s = ReadBlock(file, VerifyingChecksums(), handle, &contents);
  if (s.ok() && contents.heap_allocated) delete[] contents.data.data();
  return s;
}

Status FileLayout::Get(int path, const ReadOptions& options,
                       RandomAccessFile* file, const Slice& ikey, uint64_t lo,
                       uint64_t hi, void* arg, HandleResult handle_result) const {
  if (lo >= n_) return Status::OK();  // every entry is smaller
  hi = std::min(hi, n_ - 1);
  if (hi < lo) hi = lo;
  size_t b = BlockOf(lo);
  const size_t b_hi = BlockOf(hi);
  std::string scratch;
  Status s;
  size_t verified = blocks_.size();  // the last block VerifyBlock passed
  auto verify = [&](size_t block) {
    if (!options.verify_checksums || block == verified) return Status::OK();
    verified = block;
    return VerifyBlock(file, block);
  };
  // The bound spans blocks (Figure 6b's footnote): pick the first block
  // whose last key is >= ikey.
  while (b < b_hi) {
    Slice key, value;
    s = verify(b);
    if (!s.ok()) return s;
    s = EntryAt(file, BlockEnd(b) - 1, &scratch, &key, &value);
    if (!s.ok()) return s;
    if (icmp_->Compare(ikey, key) <= 0) break;
    b++;
  }
  const BlockSpan& blk = blocks_[b];
  const uint64_t a = std::max(lo, blk.first);
  const uint64_t c = std::min(hi, BlockEnd(b) - 1);
  if (filter_ != nullptr) {
    ScopedPathStep step(path, kSearchFilter);
    if (!filter_->KeyMayMatch(blk.offset, ikey)) return Status::OK();
  }
  std::vector<uint64_t> offsets;
  Slice chunk;
  char space[2048];
  std::string heap;
  {
    ScopedPathStep step(path, kLoadChunk);
    s = verify(b);
    if (!s.ok()) return s;
    s = EntryOffsets(file, b, a, c, &offsets);
    if (!s.ok()) return s;
    const uint64_t len = offsets.back() - offsets.front();
    char* buf = space;
    if (len > sizeof(space)) {
      heap.resize(len);
      buf = &heap[0];
    }
    s = file->Read(offsets.front(), len, &chunk, buf);
    if (!s.ok()) return s;
    if (chunk.size() != len) return Status::Corruption("short read");
  }
  uint64_t found = c + 1;
  Slice key, value;
  {
    ScopedPathStep step(path, kLocateKey);
    // The first entry in [a, c] whose internal key is >= ikey.
    uint64_t l = a, r = c + 1;
    while (l < r) {
      uint64_t m = l + (r - l) / 2;
      const char* p = chunk.data() + (offsets[m - a] - offsets.front());
      const char* end = chunk.data() + (offsets[m - a + 1] - offsets.front());
      if (!ParseEntry(p, end, &key, &value)) return Status::Corruption("bad entry");
      if (icmp_->Compare(key, ikey) < 0) {
        l = m + 1;
      } else {
        r = m;
      }
    }
    found = l;
    if (found <= c) {
      const char* p = chunk.data() + (offsets[found - a] - offsets.front());
      const char* end = chunk.data() + (offsets[found - a + 1] - offsets.front());
      ParseEntry(p, end, &key, &value);
      (*handle_result)(arg, key, value);
      return Status::OK();
    }
  }
  // Newer versions of the user key than the snapshot pushed the entry past
  // the chunk: walk on.
  for (uint64_t pos = c + 1; pos < n_; pos++) {
    s = verify(BlockOf(pos));
    if (!s.ok()) return s;
    s = EntryAt(file, pos, &scratch, &key, &value);
    if (!s.ok()) return s;
    if (icmp_->Compare(key, ikey) >= 0) {
      (*handle_result)(arg, key, value);
      return Status::OK();
    }
  }
  return Status::OK();
}

}  // namespace bourbon
}  // namespace leveldb

// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// Where each entry of a LevelDB table lies, so that a predicted position
// becomes a byte range (seed 004 §4.2 and Figure 6b, steps 4-6).
//
// Learnable tables have one entry per restart point (block_restart_interval
// = 1, no prefix compression): the block's restart array then gives every
// entry's offset, and when every entry has the same size (fixed-size keys
// and WiscKey's fixed-size value pointers) the offset is arithmetic and
// only the predicted chunk is read. Deletion markers (no value pointer)
// make entries of another size; such tables still work, reading the
// chunk's slice of the restart array first.
//
// The layout is read once, when a table is learned, with every block's
// checksum verified; lookups through it read partial blocks and so cannot
// check block checksums (neither could Bourbon).
#ifndef STORAGE_LEVELDB_LAYERS_BOURBON_FILE_LAYOUT_H_
#define STORAGE_LEVELDB_LAYERS_BOURBON_FILE_LAYOUT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "leveldb/options.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"
#include "lidx/index.h"

namespace leveldb {

class BlockHandle;
class Comparator;
class FilterBlockReader;
class Footer;
class RandomAccessFile;

namespace bourbon {

using HandleResult = void (*)(void*, const Slice&, const Slice&);

class FileLayout {
 public:
  // Reads the table and its layout; appends each entry's user key, mapped
  // to an integer (lidx::MapKey), to *keys when keys != nullptr. Returns
  // NotSupported for a table with more than one entry per restart point or
  // with compressed blocks (such tables stay on LevelDB's path).
  static Status Read(const Options& options, RandomAccessFile* file,
                     uint64_t file_size, std::vector<lidx::u128>* keys,
                     std::unique_ptr<FileLayout>* result);

  // Reads the footer and the index block with its checksum verified (what
  // LevelDB's Table::Open checks under paranoid_checks).
  static Status VerifyIndex(RandomAccessFile* file, uint64_t file_size);

  ~FileLayout();

  uint64_t entries() const { return n_; }
  // The length of every user key in the table, or -1 when they differ.
  int key_length() const { return key_length_; }
  bool fixed_entry_size() const { return entry_size_ != 0; }
  const std::string& smallest() const { return smallest_; }  // internal key
  // The table's filter block kept beside the layout (LevelDB's reader holds
  // the same bytes for its own path): part of MemoryBytes().
  size_t FilterBytes() const { return filter_data_.capacity(); }
  size_t MemoryBytes() const;

  // Steps SearchFB, LoadChunk and LocateKey: calls handle_result with the
  // first entry whose internal key is >= ikey, given that the first entry
  // whose user key is >= ikey's lies at a position in [lo, hi]. No call
  // when the filter rules the key out or no such entry exists. `path`
  // (path_trace.h) says whose step timers count.
  Status Get(int path, const ReadOptions& options, RandomAccessFile* file,
             const Slice& ikey, uint64_t lo, uint64_t hi, void* arg,
             HandleResult handle_result) const;

  // The data blocks, for iterators that walk whole blocks (ModelIterator).
  struct BlockSpan {
    uint64_t offset;  // in the file
    uint32_t size;    // without the trailer
    uint64_t first;   // position of the block's first entry
  };
  size_t num_blocks() const { return blocks_.size(); }
  const BlockSpan& block(size_t b) const { return blocks_[b]; }
  size_t BlockOf(uint64_t pos) const;
  uint64_t BlockEnd(size_t b) const {  // one past its last position
    return b + 1 < blocks_.size() ? blocks_[b + 1].first : n_;
  }
  const Comparator* comparator() const { return icmp_; }  // internal keys

  // An entry that is its own restart point (shared == 0) in [p, limit).
  static bool ParseEntry(const char* p, const char* limit, Slice* key,
                         Slice* value);

 private:
  FileLayout() = default;
  // Read's steps: every data block the index block names, in order, each
  // (AddBlock) with its entries (AddEntry) appended to the layout; then,
  // over the blocks found, per_block_.
  Status ReadBlocks(const Options& options, RandomAccessFile* file,
                    const Footer& footer, std::vector<lidx::u128>* keys);
  Status AddBlock(RandomAccessFile* file, const BlockHandle& handle,
                  std::vector<lidx::u128>* keys, bool* same_size);
  // The entry in [p, end), which must be its restart point's only one.
  // *same_size: whether every entry so far has the first one's size.
  Status AddEntry(const char* p, const char* end,
                  std::vector<lidx::u128>* keys, bool* same_size);
  // A position's block by division when every block but the last holds the
  // same number of entries (fixed-size entries cut at block_size).
  void FindUniformBlocks();
  // The file offsets of the entries at positions [a, c] of block b and the
  // end of the last one: (c - a + 2) values into *offsets.
  Status EntryOffsets(RandomAccessFile* file, size_t b, uint64_t a, uint64_t c,
                      std::vector<uint64_t>* offsets) const;
  Status EntryAt(RandomAccessFile* file, uint64_t pos, std::string* scratch,
                 Slice* key, Slice* value) const;
  // A get reads parts of a block, which its crc32c cannot check: when the
  // read options verify checksums, the whole block is read and checked
  // first (LevelDB's ReadBlock), as LevelDB's own get would.
  Status VerifyBlock(RandomAccessFile* file, size_t b) const;

  const Comparator* icmp_ = nullptr;
  std::vector<BlockSpan> blocks_;
  uint64_t n_ = 0;
  uint32_t per_block_ = 0;   // entries in every block but the last, or 0
  uint32_t entry_size_ = 0;  // size of every entry, or 0
  int key_length_ = -1;
  std::string smallest_;
  std::string filter_data_;
  std::unique_ptr<FilterBlockReader> filter_;
};

}  // namespace bourbon
}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_BOURBON_FILE_LAYOUT_H_

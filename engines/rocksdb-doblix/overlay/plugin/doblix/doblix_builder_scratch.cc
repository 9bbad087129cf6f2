#include "plugin/doblix/doblix_builder_scratch.h"

#include <cstring>

namespace ROCKSDB_NAMESPACE {

namespace {
// Bounds on what a thread keeps between tables. A thread keeps the memory
// of the largest table it built, up to 256 MiB of entries and 4M slots per
// array (~450 MiB at most; a 64 MiB table of 80-byte entries keeps ~64 MiB
// of entries and ~48 MiB of arrays): the next table, of about the same
// size (a flush's memtable, a compaction's target file size), then takes
// no fresh memory. Fresh memory cost one page fault per 4 KiB touched and
// an unmap per table: with only 8 MiB kept, 64 MiB tables spent 16% of a
// table write's CPU in page faults and unmaps (perf, README), the whole of
// its gap to the block-based table, which writes as it goes into one
// block buffer.
constexpr size_t kPooledScratches = 1;
constexpr size_t kPooledChunks = 256;        // 256 MiB of entries
constexpr size_t kPooledEntries = 4u << 20;  // slots in each array
constexpr size_t kPooledStaged = 4u << 20;   // staged block bytes (an oversized entry's block may pass it)

thread_local std::vector<std::unique_ptr<DoblixBuilderScratch>> pool;

template <typename T>
void ClearWithin(std::vector<T>* v) {
  if (v->capacity() > kPooledEntries) {
    std::vector<T>().swap(*v);
  } else {
    v->clear();
  }
}
}  // namespace

std::unique_ptr<DoblixBuilderScratch> DoblixBuilderScratch::Acquire() {
  if (pool.empty()) return std::unique_ptr<DoblixBuilderScratch>(new DoblixBuilderScratch());
  std::unique_ptr<DoblixBuilderScratch> s = std::move(pool.back());
  pool.pop_back();
  return s;
}

void DoblixBuilderScratch::Release(std::unique_ptr<DoblixBuilderScratch> s) {
  if (s == nullptr) return;
  s->Clear();
  if (pool.size() < kPooledScratches) pool.push_back(std::move(s));
}

void DoblixBuilderScratch::Clear() {
  ClearWithin(&keys);
  ClearWithin(&values);
  ClearWithin(&bytes);
  ClearWithin(&chunks);
  if (staged.capacity() > kPooledStaged) {
    std::string().swap(staged);
  } else {
    staged.clear();
  }
  if (chunks_.size() > kPooledChunks) chunks_.resize(kPooledChunks);
  large_.clear();
  current_ = 0;
  used_ = kChunk;
  started_ = false;
  entry_bytes_ = 0;
}

void DoblixBuilderScratch::Append(const Slice& key, const Slice& value) {
  const size_t n = key.size() + value.size();
  char* p;
  if (n > kChunk) {
    large_.emplace_back(new char[n]);
    p = large_.back().get();
  } else {
    if (used_ + n > kChunk) {
      // On to the next chunk: a pooled one, or a new one.
      current_ = started_ ? current_ + 1 : 0;
      started_ = true;
      if (current_ >= chunks_.size()) chunks_.emplace_back(new char[kChunk]);
      used_ = 0;
    }
    p = chunks_[current_].get() + used_;
    used_ += n;
  }
  memcpy(p, key.data(), key.size());
  memcpy(p + key.size(), value.data(), value.size());
  keys.emplace_back(p, key.size());
  values.emplace_back(p + key.size(), value.size());
  entry_bytes_ += n;
}

}  // namespace ROCKSDB_NAMESPACE

#include "plugin/doblix/doblix_table_iterator.h"

#include <chrono>

#include "plugin/doblix/doblix_agent.h"

namespace ROCKSDB_NAMESPACE {

DoblixTableIterator::DoblixTableIterator(DoblixTableReader* table,
                                         const ReadOptions& read_options, bool fill_cache,
                                         DoblixAgent* agent)
    : table_(table),
      read_options_(read_options),
      fill_cache_(fill_cache),
      holder_(new DoblixBlockHolder()),
      agent_(agent) {}

void DoblixTableIterator::ReleaseBlock() {
  if (IsValuePinned() && (holder_->handle != nullptr || holder_->owned != nullptr)) {
    pinned_iters_mgr_->PinPtr(holder_.release(),
                              [](void* p) { delete static_cast<DoblixBlockHolder*>(p); });
    holder_.reset(new DoblixBlockHolder());
  } else {
    holder_->Reset();
  }
}

Status DoblixTableIterator::ReadBlock(size_t b) {
  ReleaseBlock();
  return table_->ReadBlock(read_options_, b, fill_cache_, holder_.get());
}

void DoblixTableIterator::Invalidate(const Status& s) {
  valid_ = false;
  status_ = s;
  ReleaseBlock();
}

void DoblixTableIterator::Settle() {
  // Past the block's end: on to the first entry of the next block.
  while (index_ >= holder_->block.size()) {
    if (block_ + 1 >= table_->NumBlocks()) {
      Invalidate(Status::OK());
      return;
    }
    Status s = ReadBlock(++block_);
    if (!s.ok()) return Invalidate(s);
    index_ = 0;
  }
  valid_ = true;
  holder_->block.Key(index_, &key_);
}

void DoblixTableIterator::Load(size_t b, uint32_t index) {
  if (b >= table_->NumBlocks()) return Invalidate(Status::OK());
  Status s = ReadBlock(b);
  if (!s.ok()) return Invalidate(s);
  block_ = b;
  index_ = index == kEnd ? holder_->block.size() - 1 : index;
  status_ = Status::OK();
  Settle();
}

void DoblixTableIterator::EndScan() {
  if (scanning_) agent_->RecordRead(scan_nanos_, scan_bytes_);
  scanning_ = false;
  scan_nanos_ = 0;
  scan_bytes_ = 0;
}

template <typename Move>
void DoblixTableIterator::Timed(bool seek, Move&& move) {
  if (agent_ == nullptr) return move();
  if (seek) EndScan();
  const auto start = std::chrono::steady_clock::now();
  const uint64_t bytes_before = doblix_block_bytes_loaded;
  move();
  scan_bytes_ += doblix_block_bytes_loaded - bytes_before;
  scan_nanos_ += static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                           start)
          .count());
  scanning_ = true;
}

void DoblixTableIterator::SeekToFirst() {
  Timed(true, [&] { Load(0, 0); });
}

void DoblixTableIterator::SeekToLast() {
  Timed(true, [&] { SeekToLastImpl(); });
}

void DoblixTableIterator::SeekToLastImpl() {
  if (table_->NumBlocks() == 0) return Invalidate(Status::OK());
  Load(table_->NumBlocks() - 1, kEnd);
}

void DoblixTableIterator::Seek(const Slice& target) {
  Timed(true, [&] { SeekImpl(target); });
}

void DoblixTableIterator::SeekImpl(const Slice& target) {
  if (table_->NumBlocks() == 0) return Invalidate(Status::OK());
  ReleaseBlock();
  status_ = table_->Seek(read_options_, target, fill_cache_, &block_, &index_, holder_.get());
  if (!status_.ok()) return Invalidate(status_);
  Settle();
}

void DoblixTableIterator::SeekForPrev(const Slice& target) {
  Timed(true, [&] {
    SeekImpl(target);
    if (!status_.ok()) return;
    if (!valid_) {
      SeekToLastImpl();
    }
    while (valid_ && table_->comparator().Compare(key(), target) > 0) PrevImpl();
  });
}

void DoblixTableIterator::Next() {
  Timed(false, [&] {
    index_++;
    Settle();
  });
}

void DoblixTableIterator::Prev() {
  Timed(false, [&] { PrevImpl(); });
}

void DoblixTableIterator::PrevImpl() {
  if (index_ > 0) {
    index_--;
    holder_->block.Key(index_, &key_);
    return;
  }
  if (block_ == 0) return Invalidate(Status::OK());
  Load(block_ - 1, kEnd);
}

}  // namespace ROCKSDB_NAMESPACE

// Iterator over a DobLIX table's entries in internal-key order, block by
// block. Seek uses the model exactly as a point lookup does. A user
// iterator of a table built by the agent times its part of each range
// query (a seek and the steps after it, until the next seek or its end) and
// gives it to the agent as one read, as a point lookup gives its own: the
// agent tunes for scans too (seed 002, Fig. 15b).
#pragma once

#include <memory>
#include <string>

#include "db/pinned_iterators_manager.h"

#include "plugin/doblix/doblix_table_reader.h"
#include "table/internal_iterator.h"

namespace ROCKSDB_NAMESPACE {

class DoblixAgent;

class DoblixTableIterator : public InternalIterator {
 public:
  // `agent`: the agent to tell about scans, or nullptr.
  DoblixTableIterator(DoblixTableReader* table, const ReadOptions& read_options,
                      bool fill_cache, DoblixAgent* agent);
  ~DoblixTableIterator() override {
    EndScan();
    ReleaseBlock();
  }

  bool Valid() const override { return valid_; }
  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const Slice& target) override;
  void SeekForPrev(const Slice& target) override;
  void Next() override;
  void Prev() override;
  Slice key() const override { return Slice(key_); }
  Slice value() const override { return holder_->block.Value(index_); }
  Status status() const override { return status_; }
  // DBIter iterates backwards only over pinned values: while pinning is on,
  // a block left behind is handed to the manager instead of released.
  void SetPinnedItersMgr(PinnedIteratorsManager* mgr) override { pinned_iters_mgr_ = mgr; }
  bool IsValuePinned() const override {
    return pinned_iters_mgr_ != nullptr && pinned_iters_mgr_->PinningEnabled();
  }

 private:
  // Loads block b and positions at entry `index` of it (or at its end when
  // index == kEnd), moving on to the following blocks as needed.
  void Load(size_t b, uint32_t index);
  void Settle();
  void Invalidate(const Status& s);
  // Lets go of the current block (or passes it to the pinning manager).
  void ReleaseBlock();
  Status ReadBlock(size_t b);
  void SeekImpl(const Slice& target);
  void SeekToLastImpl();
  void PrevImpl();
  // Runs `move` as part of the current range query (a new one when
  // `seek`), timed when an agent listens.
  template <typename Move>
  void Timed(bool seek, Move&& move);
  void EndScan();

  static constexpr uint32_t kEnd = ~uint32_t{0};
  DoblixTableReader* table_;
  const ReadOptions read_options_;
  const bool fill_cache_;
  std::unique_ptr<DoblixBlockHolder> holder_;
  PinnedIteratorsManager* pinned_iters_mgr_ = nullptr;
  size_t block_ = 0;
  uint32_t index_ = 0;
  bool valid_ = false;
  std::string key_;
  Status status_;
  DoblixAgent* const agent_;
  uint64_t scan_nanos_ = 0;
  uint64_t scan_bytes_ = 0;  // data-block bytes the scan loaded
  bool scanning_ = false;
};

}  // namespace ROCKSDB_NAMESPACE

// The learned table's iterator: Seek asks the reader (model bound, one
// read); moving past the loaded entries reads the next chunk: ~64 KiB, or
// within a user scan of known length (trace::Context().scan_entries) no
// more entries than the scan can still take from this table, so a 10-entry
// scan reads the model's bound and at most the entries it returns.
#include <algorithm>

#include "layers/hooks/lookup_trace.h"
#include "layers/learned/learned_table_reader.h"
#include "leveldb/iterator.h"

namespace leveldb {

namespace {

class LearnedIterator : public Iterator {
 public:
  LearnedIterator(const LearnedReader* t, bool verify) : t_(t) { w_.verify = verify; }

  bool Valid() const override { return valid_; }
  Slice key() const override { return key_; }
  Slice value() const override { return value_; }
  Status status() const override { return status_; }

  void SeekToFirst() override {
    StartScan(0);
    MoveTo(0, /*forward=*/true);
  }
  void SeekToLast() override {
    if (t_->n() == 0) {
      valid_ = false;
      return;
    }
    StartScan(0);
    MoveTo(t_->n() - 1, false);
  }
  void Seek(const Slice& target) override {
    trace::ScopedStep step(trace::kSeek);
    uint64_t pos;
    status_ = t_->Find(target, &w_, &pos);
    if (!status_.ok()) {
      valid_ = false;
      return;
    }
    StartScan(pos);
    MoveTo(pos, true);
  }
  void Next() override {
    trace::ScopedStep step(trace::kScan);
    MoveTo(cur_ + 1, true);
  }
  void Prev() override {
    if (cur_ == 0) {
      valid_ = false;
      return;
    }
    MoveTo(cur_ - 1, false);
  }

 private:
  // A scan positioned at entry `pos`: how many entries it will take.
  void StartScan(uint64_t pos) {
    scan_start_ = pos;
    scan_entries_ = trace::Context().scan_entries;
  }

  // Entries to read from i on: about 64 KiB, as LevelDB's compaction
  // reads go, and forward within a scan of known length no more than it
  // still takes from here.
  uint64_t ChunkEntries(uint64_t i, bool forward) const {
    uint64_t per = std::max<uint64_t>(1, (64 << 10) / t_->MeanEntryBytes());
    if (forward && scan_entries_ > 0) {
      const uint64_t end = scan_start_ + scan_entries_;
      per = std::min<uint64_t>(per, end > i ? end - i : 1);
    }
    return per;
  }

  // Makes entry i current, reading a chunk around it when not loaded.
  void MoveTo(uint64_t i, bool forward) {
    cur_ = i;
    valid_ = false;
    if (i >= t_->n()) return;
    if (i < w_.lo || i >= w_.hi) {
      const uint64_t per = ChunkEntries(i, forward);
      uint64_t lo = forward ? i : (i + 1 > per ? i + 1 - per : 0);
      uint64_t hi = std::min<uint64_t>(t_->n(), lo + per);
      Status s = t_->Load(lo, hi, &w_);
      trace::Count(&trace::LookupTrace::segments_touched);
      // A chunk that fails its checksum: its entries are skipped and the
      // first error kept, as LevelDB's iterator skips a bad data block
      // (RepairDB salvages the rest so).
      while (s.IsCorruption() && w_.verify) {
        if (status_.ok()) status_ = s;
        s = t_->Load(i, i + 1, &w_);
        if (s.ok()) break;
        if (forward ? i + 1 >= t_->n() : i == 0) return;
        i = cur_ = forward ? i + 1 : i - 1;
      }
      if (!s.ok()) {
        if (status_.ok()) status_ = s;
        return;
      }
    }
    if (!t_->Entry(w_, i, &key_, &value_)) {
      status_ = Status::Corruption(t_->name(), "learned table: bad entry");
      return;
    }
    valid_ = true;
  }

  const LearnedReader* const t_;
  Window w_;
  uint64_t cur_ = 0;
  uint64_t scan_start_ = 0;
  uint64_t scan_entries_ = 0;  // 0: unknown (read whole chunks)
  bool valid_ = false;
  Slice key_, value_;
  Status status_;
};

}  // namespace

Iterator* LearnedReader::NewIterator(const ReadOptions& ro) const {
  return new LearnedIterator(this, ro.verify_checksums);
}

}  // namespace leveldb

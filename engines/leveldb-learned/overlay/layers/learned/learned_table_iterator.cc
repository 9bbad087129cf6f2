// The learned table's iterator. Seek asks the reader: the model's bound,
// one read, as the paper's artifact's iterator does (mod/LearnedIterator.h;
// Figure 9A's seek phase is that read). Moving past the loaded entries
// reads the next ones: ~64 KiB chunks, or within a user scan of known
// length (trace::ScopedScanLength, set by the adapter's Scan, which counts
// the entries it returns) what the scan still takes, rounded up to one
// read unit (kReadUnitBytes): one unit, then twice the last read, up to
// 64 KiB, never more entries than the scan still takes. So a 10-entry
// scan's scan phase reads at most its entries past the seek's bound,
// rounded up to one unit, and a long scan reaches 64 KiB reads after a
// few. A step past the scan's last entry (the DB iterator's Next after
// it) reads that entry's key only; its value is read if asked for.
#include <algorithm>

#include "layers/hooks/lookup_trace.h"
#include "layers/learned/learned_table_checksums.h"
#include "layers/learned/learned_table_reader.h"
#include "leveldb/iterator.h"

namespace leveldb {

namespace {

// A scan's read unit: the table's checksum chunk, an OS page; 4 entries of
// ~1 KB, what the paper's artifact's Next reads a time.
constexpr uint64_t kReadUnitBytes = kDataChunkBytes;
constexpr uint64_t kChunkBytes = 64 << 10;

class LearnedIterator : public Iterator {
 public:
  LearnedIterator(const LearnedReader* t, bool verify) : t_(t) { w_.verify = verify; }

  bool Valid() const override { return valid_; }
  Slice key() const override { return key_; }
  Slice value() const override {
    if (unread_value_) ReadValue();
    return value_;
  }
  Status status() const override { return status_; }

  void SeekToFirst() override {
    StartScan();
    // key_only: the DB iterator's step past a scan's last entry can land
    // on the next table's first entry.
    MoveTo(0, /*forward=*/true, /*key_only=*/true);
  }
  void SeekToLast() override {
    if (t_->n() == 0) {
      valid_ = false;
      return;
    }
    StartScan();
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
    StartScan();
    MoveTo(pos, true);
  }
  void Next() override {
    trace::ScopedStep step(trace::kScan);
    MoveTo(cur_ + 1, true, /*key_only=*/true);
  }
  void Prev() override {
    if (cur_ == 0) {
      valid_ = false;
      return;
    }
    MoveTo(cur_ - 1, false);
  }

 private:
  // A scan positioned: whether its length is known.
  void StartScan() {
    known_length_ = trace::Context().scan_entries > 0;
    reads_ = 0;
  }

  // Entries to read forward or back: ~64 KiB, as LevelDB's compaction
  // reads go; forward within a scan of known length one unit, then
  // doubling, and no more than the scan still takes.
  uint64_t ChunkEntries(bool forward) {
    const uint64_t entry = t_->MeanEntryBytes();
    const uint64_t chunk = std::max<uint64_t>(1, kChunkBytes / entry);
    if (!forward || !known_length_) return chunk;
    const uint64_t unit = std::max<uint64_t>(1, kReadUnitBytes / entry);
    const uint64_t ramp = reads_ < 16 ? unit << reads_ : chunk;
    reads_++;
    return std::min({chunk, ramp, std::max<uint64_t>(1, trace::ScanEntriesLeft())});
  }

  // Entry i current by its key alone, its value read when asked.
  void PositionByKey(uint64_t i) {
    cur_ = i;
    Status s = t_->ProbeKey(i, &probed_key_);
    valid_ = s.ok();
    if (!valid_) {
      if (status_.ok()) status_ = s;
      return;
    }
    key_ = probed_key_;
    value_ = Slice();
    unread_value_ = true;
  }

  // The entry positioned by its key alone: read its value (and the
  // entries after it) now that it is asked for. value() is const in
  // LevelDB's Iterator; no iterator is a const object (NewIterator makes
  // it). A failed read leaves the value empty and the error in status(),
  // which the DB iterator reports.
  void ReadValue() const { const_cast<LearnedIterator*>(this)->MoveTo(cur_, true); }

  // Makes entry i current, reading a chunk around it when not loaded (with
  // key_only, the key alone once the scan has all its entries).
  void MoveTo(uint64_t i, bool forward, bool key_only = false) {
    unread_value_ = false;
    cur_ = i;
    valid_ = false;
    if (i >= t_->n()) return;
    if (i < w_.lo || i >= w_.hi) {
      if (key_only && known_length_ && !w_.verify && trace::ScanEntriesLeft() == 0) {
        PositionByKey(i);
        return;
      }
      const uint64_t per = ChunkEntries(forward);
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
  bool known_length_ = false;  // a user scan of known length (else whole chunks)
  uint64_t reads_ = 0;         // reads since the scan's seek
  bool valid_ = false;
  bool unread_value_ = false;  // positioned by its key; the value not read
  std::string probed_key_;
  Slice key_, value_;
  Status status_;
};

}  // namespace

Iterator* LearnedReader::NewIterator(const ReadOptions& ro) const {
  return new LearnedIterator(this, ro.verify_checksums);
}

}  // namespace leveldb

// The learned table's reader (layout: learned_table_format.h): asks the
// model for the position bound of the first entry >= a key, reads only the
// entries in it (one RandomAccessFile::Read) and binary searches them with
// the internal key comparator. Its iterator: learned_table_iterator.cc.
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_READER_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_READER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "layers/hooks/table_format.h"
#include "layers/learned/learned_model.h"
#include "layers/learned/learned_table_book.h"
#include "layers/learned/learned_table_footer.h"

namespace leveldb {

class FilterPolicy;

// A run of consecutive entries read from the file.
struct Window {
  uint64_t lo = 0, hi = 0;  // entries [lo, hi)
  Slice bytes;
  std::string scratch;
  bool verify = false;  // ReadOptions::verify_checksums of the reads into it
};

class LearnedReader : public TableReader {
 public:
  LearnedReader(LearnedTableBook* book, const Options& options, RandomAccessFile* file,
                uint64_t number, const LearnedFooter& f, std::shared_ptr<const TableModel> model,
                std::vector<uint64_t> offsets, std::string filter);
  ~LearnedReader() override;

  size_t IndexMemoryBytes() const override;
  Status InternalGet(const ReadOptions&, const Slice& k, void* arg,
                     void (*handle_result)(void*, const Slice&, const Slice&)) override;
  uint64_t ApproximateOffsetOf(const Slice& ikey) const override;
  Iterator* NewIterator(const ReadOptions&) const override;

  // For the iterator.
  uint64_t n() const { return f_.n; }
  const std::string& name() const { return name_; }
  uint64_t MeanEntryBytes() const;
  // Reads entries [lo, hi) into *w, checked as w->verify says.
  Status Load(uint64_t lo, uint64_t hi, Window* w) const;
  // Entry i (w.lo <= i < w.hi) of a loaded window; false when malformed.
  bool Entry(const Window& w, uint64_t i, Slice* key, Slice* value) const;
  // The position of the first entry >= ikey (n when none), its window
  // loaded; with use_hint, a level model's bound for this table is taken.
  Status Find(const Slice& ikey, Window* w, uint64_t* pos, bool use_hint = false) const;
  // Find's two steps: the bound [lo, hi] (with use_hint, a level model's
  // for this table), then the read of it and the search within.
  void BoundFor(const Slice& ikey, bool use_hint, uint64_t* lo, uint64_t* hi) const;
  Status Search(const Slice& ikey, uint64_t lo, uint64_t hi, Window* w, uint64_t* pos) const;
  // The internal key of entry i, read alone (its slot's header and key);
  // Corruption when the header does not fit the slot.
  Status ProbeKey(uint64_t i, std::string* key) const;

 private:
  uint64_t Offset(uint64_t i) const { return f_.slot_width ? i * f_.slot_width : offsets_[i]; }
  uint64_t End(uint64_t i) const { return i == f_.n ? f_.entries_bytes : Offset(i); }
  // [lo, hi]: a range holding the position of the first entry >= ikey.
  void Bound(const Slice& ikey, uint64_t* lo, uint64_t* hi) const;

  LearnedTableBook* const book_;
  const FilterPolicy* const policy_;
  const std::string filter_;
  const Comparator* const icmp_;  // the DB's internal key comparator
  RandomAccessFile* const file_;
  const uint64_t number_;
  const std::string name_;
  const LearnedFooter f_;
  const std::shared_ptr<const TableModel> table_model_;
  const std::string& prefix_;
  const Model& model_;
  const std::vector<uint64_t> offsets_;
  const std::vector<uint64_t>& keys_;
};

// Opens the learned table whose footer `f` was read: its checksummed meta
// regions, and the stored model unless `trained` (retrain) replaces it. A
// region that fails its checksum or a model that does not deserialize is
// Corruption naming the table.
Status OpenLearnedTable(LearnedTableBook* book, const Options& options, RandomAccessFile* file,
                        uint64_t file_size, uint64_t number, const LearnedFooter& f,
                        std::shared_ptr<const TableModel> trained, TableReader** reader);

// The user keys of a learned table, in order (NotSupported for other
// tables), with whether its entries are packed (keep_keys).
Status ReadLearnedTableUserKeys(RandomAccessFile* file, uint64_t file_size,
                                std::vector<std::string>* user_keys, bool* keep_keys = nullptr);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_LEARNED_TABLE_READER_H_

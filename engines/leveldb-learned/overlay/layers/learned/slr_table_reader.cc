#include "layers/learned/slr_table_reader.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "layers/hooks/lookup_trace.h"
#include "layers/learned/learned_model.h"
#include "layers/learned/learned_table_footer.h"
#include "layers/learned/slr_model.h"
#include "layers/learned/slr_model_area.h"
#include "layers/learned/slr_restarts.h"
#include "layers/learned/slr_table_footer.h"
#include "leveldb/cache.h"
#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/table.h"
#include "table/block.h"
#include "table/filter_block.h"
#include "table/format.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace leveldb {

namespace {

// First restart i in [0, r.count] whose key >= target, searched by the
// model's bound and last mile (or binary over all restarts without one).
// *malformed when a restart key it compared is not an internal key (a
// damaged block: the answer is then meaningless, a Corruption).
uint32_t FindRestart(const Restarts& r, const SlrModel* model,
                     const std::string& prefix, const Slice& target,
                     const Comparator* cmp, uint64_t* cmps, bool* malformed) {
  uint64_t lo = 0, hi = r.count, pos = r.count / 2;
  lidx::LastMileKind kind = lidx::LastMileKind::kBinary;
  if (model != nullptr && UserKeyOf(target).starts_with(prefix)) {
    // The bound of the first mapped key >= m, widened to the last one
    // equal to m: the internal-key answer lies between (lidx key_map.h).
    const uint64_t m = MapAfterPrefix(target, prefix);
    lidx::Bound b = model->Search(m, &kind);
    lidx::LastMileKind unused;
    lo = b.lo;
    pos = b.pos;
    hi = m == ~0ull ? r.count
                    : std::max<uint64_t>(b.pos, model->Search(m + 1, &unused).hi);
    hi = std::min<uint64_t>(hi, r.count);
    if (pos > hi) pos = hi;
  }
  auto less = [&](uint64_t i) {  // restart key i < target
    ++*cmps;
    const Slice key = r.Key(static_cast<uint32_t>(i));
    if (key.size() < 8) {  // the comparator would read a user key of -8 bytes
      *malformed = true;
      return false;
    }
    return cmp->Compare(key, target) < 0;
  };
  switch (kind) {
    case lidx::LastMileKind::kLinear: {
      uint64_t p = pos;
      if (p < hi && less(p)) {
        while (p < hi && less(p)) ++p;
        return static_cast<uint32_t>(p);
      }
      while (p > lo && !less(p - 1)) --p;
      return static_cast<uint32_t>(p);
    }
    case lidx::LastMileKind::kExponential: {
      uint64_t p = pos;
      if (p < hi && less(p)) {
        uint64_t step = 1, l = p + 1;
        while (l + step - 1 < hi && less(l + step - 1)) {
          l += step;
          step <<= 1;
        }
        lo = l;
        hi = std::min<uint64_t>(hi, l + step - 1);
      } else {
        uint64_t step = 1, q = p;
        while (q >= lo + step && !less(q - step)) {
          q -= step;
          step <<= 1;
        }
        hi = q;
        lo = q >= lo + step ? q - step + 1 : lo;
      }
      break;
    }
    case lidx::LastMileKind::kBinary:
      break;
  }
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (less(mid)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return static_cast<uint32_t>(lo);
}

struct CachedBlock {
  BlockContents contents;
};

void DeleteCachedBlock(const Slice&, void* value) {
  CachedBlock* b = reinterpret_cast<CachedBlock*>(value);
  if (b->contents.heap_allocated) delete[] b->contents.data.data();
  delete b;
}

class SlrReader : public TableReader {
 public:
  ~SlrReader() override {
    book_->Unregister(number_);
    delete table_;
    if (index_contents_.heap_allocated) delete[] index_contents_.data.data();
    filter_.reset();
    if (filter_contents_.heap_allocated) delete[] filter_contents_.data.data();
  }

  // Opens the LevelDB table in [0, native_size) and the model area `area`
  // (empty: no models, binary search).
  static Status Make(LearnedTableBook* book, const Options& options,
                     RandomAccessFile* file, uint64_t native_size, const Slice& area,
                     uint64_t number, TableReader** out) {
    std::unique_ptr<SlrReader> r(new SlrReader(book, options, file, number));
    Status s = CheckNativeFooter(file, native_size);
    if (s.ok()) s = Table::Open(options, file, native_size, &r->table_);
    if (!s.ok()) return s;
    char fbuf[Footer::kEncodedLength];
    Slice fin;
    s = file->Read(native_size - Footer::kEncodedLength, Footer::kEncodedLength, &fin, fbuf);
    Footer footer;
    if (s.ok()) s = footer.DecodeFrom(&fin);
    if (s.ok()) {
      ReadOptions ro;
      ro.verify_checksums = options.paranoid_checks;
      s = ReadBlock(file, ro, footer.index_handle(), &r->index_contents_);
    }
    if (s.ok() && !r->index_.Parse(r->index_contents_.data)) {
      s = Status::Corruption("slr: bad index block");
    }
    if (s.ok() && options.filter_policy != nullptr) s = r->ReadFilter(footer);
    if (s.ok() && !area.empty()) s = r->models_.DecodeFrom(area, r->index_.count);
    if (!s.ok()) return s;
    book->Register(number, r->IndexMemoryBytes());
    *out = r.release();
    return Status::OK();
  }

  Iterator* NewIterator(const ReadOptions& o) const override { return table_->NewIterator(o); }
  uint64_t ApproximateOffsetOf(const Slice& key) const override {
    return table_->ApproximateOffsetOf(key);
  }
  size_t IndexMemoryBytes() const override {
    const std::vector<std::unique_ptr<SlrModel>>& blocks = models_.block_models;
    size_t b = sizeof(*this) + index_contents_.data.size() + models_.prefix.capacity();
    if (models_.index_model) b += models_.index_model->MemoryBytes();
    for (const auto& m : blocks) b += m ? m->MemoryBytes() + sizeof(SlrModel) : 0;
    return b + blocks.capacity() * sizeof(blocks[0]);
  }

  Status InternalGet(const ReadOptions& ro, const Slice& k, void* arg,
                     void (*handle_result)(void*, const Slice&, const Slice&)) override {
    uint64_t icmps = 0;
    uint32_t j;
    bool malformed = false;
    {
      trace::ScopedStep step(trace::kIndexSearch);
      j = FindRestart(index_, models_.index_model.get(), models_.prefix, k, cmp_, &icmps,
                      &malformed);
    }
    trace::Count(&trace::LookupTrace::index_comparisons, icmps);
    if (malformed) return Status::Corruption("slr: bad index block entry");
    if (j >= index_.count) {
      trace::Count(&trace::LookupTrace::comparisons, icmps);
      return Status::OK();
    }
    Slice hv;
    index_.Key(j, &hv);
    BlockHandle bh;
    if (!bh.DecodeFrom(&hv).ok()) return Status::Corruption("slr: bad block handle");
    if (filter_ != nullptr) {
      trace::ScopedStep step(trace::kLoadIndex);
      if (!filter_->KeyMayMatch(bh.offset(), k)) return Status::OK();
    }
    Cache::Handle* ch = nullptr;
    BlockContents contents;
    Status s;
    {
      trace::ScopedStep step(trace::kLoadData);
      s = LoadBlock(ro, bh, &contents, &ch);
    }
    if (!s.ok()) return s;
    uint64_t dcmps = 0;
    {
      trace::ScopedStep step(trace::kSearchData);
      Restarts block;
      if (!block.Parse(contents.data)) {
        s = Status::Corruption("slr: bad data block");
      } else {
        const std::vector<std::unique_ptr<SlrModel>>& blocks = models_.block_models;
        const SlrModel* bm = j < blocks.size() ? blocks[j].get() : nullptr;
        uint32_t t = FindRestart(block, bm, models_.prefix, k, cmp_, &dcmps, &malformed);
        const uint32_t start = block.count ? block.Offset(t > 0 ? t - 1 : 0) : 0;
        if (malformed || start > block.limit) s = Status::Corruption("slr: bad data block entry");
        const char* p = s.ok() ? block.data + start : block.array;
        std::string key;
        Slice value;
        while (p < block.array) {
          // An internal key has its 8-byte trailer: a shorter one is damage.
          if (!NextBlockEntry(&p, block.array, &key, &value) || key.size() < 8) {
            s = Status::Corruption("slr: bad entry");
            break;
          }
          dcmps++;
          if (cmp_->Compare(key, k) >= 0) {
            (*handle_result)(arg, key, value);
            break;
          }
        }
      }
    }
    trace::Count(&trace::LookupTrace::comparisons, icmps + dcmps);
    if (ch != nullptr) {
      cache_->Release(ch);
    } else if (contents.heap_allocated) {
      delete[] contents.data.data();
    }
    return s;
  }

 private:
  SlrReader(LearnedTableBook* book, const Options& options, RandomAccessFile* file,
            uint64_t number)
      : book_(book),
        cmp_(options.comparator),
        policy_(options.filter_policy),
        file_(file),
        number_(number),
        paranoid_(options.paranoid_checks),
        cache_(options.block_cache),
        cache_id_(options.block_cache ? options.block_cache->NewId() : 0) {}

  // LevelDB's filter block, as Table::ReadMeta finds it.
  Status ReadFilter(const Footer& footer) {
    BlockContents meta;
    ReadOptions ro;
    ro.verify_checksums = paranoid_;  // as Table::ReadMeta
    Status s = ReadBlock(file_, ro, footer.metaindex_handle(), &meta);
    if (!s.ok()) return s;
    Block metaindex(meta);  // owns meta's heap data, if any
    std::unique_ptr<Iterator> it(metaindex.NewIterator(BytewiseComparator()));
    const std::string key = std::string("filter.") + policy_->Name();
    it->Seek(key);
    if (it->Valid() && it->key() == Slice(key)) {
      Slice v = it->value();
      BlockHandle fh;
      if (fh.DecodeFrom(&v).ok()) {
        s = ReadBlock(file_, ro, fh, &filter_contents_);
        if (s.ok()) filter_.reset(new FilterBlockReader(policy_, filter_contents_.data));
      }
    }
    return s;
  }

  // A data block, through the block cache as LevelDB's Table::BlockReader.
  Status LoadBlock(const ReadOptions& ro, const BlockHandle& bh, BlockContents* contents,
                   Cache::Handle** ch) {
    *ch = nullptr;
    char key[16];
    if (cache_ != nullptr) {
      EncodeFixed64(key, cache_id_);
      EncodeFixed64(key + 8, bh.offset());
      *ch = cache_->Lookup(Slice(key, sizeof(key)));
      if (*ch != nullptr) {
        *contents = reinterpret_cast<CachedBlock*>(cache_->Value(*ch))->contents;
        return Status::OK();
      }
    }
    Status s = ReadBlock(file_, ro, bh, contents);
    // LevelDB's messages do not name the table.
    if (s.IsCorruption()) return Status::Corruption(LearnedTableName(number_), s.ToString());
    if (!s.ok()) return s;
    trace::Count(&trace::LookupTrace::bytes_loaded, bh.size());
    if (cache_ != nullptr && contents->cachable && ro.fill_cache) {
      CachedBlock* b = new CachedBlock{*contents};
      *ch = cache_->Insert(Slice(key, sizeof(key)), b, contents->data.size(), &DeleteCachedBlock);
    }
    return Status::OK();
  }

  LearnedTableBook* const book_;
  const Comparator* const cmp_;  // the DB's internal key comparator
  const FilterPolicy* const policy_;
  RandomAccessFile* const file_;
  const uint64_t number_;
  const bool paranoid_;
  Cache* const cache_;
  const uint64_t cache_id_;
  Table* table_ = nullptr;
  BlockContents index_contents_{Slice(), false, false};
  BlockContents filter_contents_{Slice(), false, false};
  std::unique_ptr<FilterBlockReader> filter_;
  Restarts index_;
  SlrModelArea models_;  // empty for a plain LevelDB table
};

}  // namespace

Status OpenSlrTable(LearnedTableBook* book, const Options& options, RandomAccessFile* file,
                    uint64_t file_size, const TableFileInfo& info, bool* ours,
                    TableReader** reader) {
  *reader = nullptr;
  SlrFooter f;
  Status s = SlrFooter::Read(file, file_size, &f, ours);
  if (!s.ok() || !*ours) return s;
  const std::string mismatch = f.MismatchWith(file_size);
  if (!mismatch.empty()) return Status::Corruption(mismatch);
  std::string area(f.area_len, '\0');
  Slice a;
  s = file->Read(f.native_size, f.area_len, &a, &area[0]);
  if (!s.ok()) return s;
  if (a.size() != f.area_len || crc32c::Unmask(f.area_crc) != crc32c::Value(a.data(), a.size())) {
    return Status::Corruption("slr table model checksum mismatch");
  }
  return SlrReader::Make(book, options, file, f.native_size, a, info.number, reader);
}

Status CheckNativeFooter(RandomAccessFile* file, uint64_t size) {
  if (size < Footer::kEncodedLength) return Status::OK();  // Table::Open says so
  char buf[Footer::kEncodedLength];
  Slice in;
  Status s = file->Read(size - Footer::kEncodedLength, Footer::kEncodedLength, &in, buf);
  if (!s.ok()) return s;
  Footer footer;
  s = footer.DecodeFrom(&in);
  if (!s.ok()) return s;
  for (const BlockHandle& h : {footer.metaindex_handle(), footer.index_handle()}) {
    if (h.offset() > size || h.size() + kBlockTrailerSize > size - h.offset()) {
      return Status::Corruption("table footer: a block handle outside the file");
    }
  }
  return Status::OK();
}

Status OpenBinaryTable(LearnedTableBook* book, const Options& options,
                       RandomAccessFile* file, uint64_t file_size, const TableFileInfo& info,
                       TableReader** reader) {
  return SlrReader::Make(book, options, file, file_size, Slice(), info.number, reader);
}

}  // namespace leveldb

#include "layers/learned/slr_table.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "db/dbformat.h"
#include "layers/hooks/lookup_trace.h"
#include "layers/learned/learned_table_footer.h"
#include "leveldb/cache.h"
#include "leveldb/env.h"
#include "leveldb/table.h"
#include "leveldb/table_builder.h"
#include "lidx/key_map.h"
#include "lidx/slr.h"
#include "leveldb/filter_policy.h"
#include "table/block.h"
#include "table/filter_block.h"
#include "table/format.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace leveldb {

namespace {

constexpr uint64_t kSlrMagic = 0x736c7274626c3031ull;  // "slrtbl01"
constexpr size_t kSlrFooterSize = 40;

// One SLR model, equal-size or error-aware (concrete types: Search also
// says which last mile to use for that lookup).
struct SlrModel {
  std::unique_ptr<lidx::SlrEq<uint64_t>> eq;
  std::unique_ptr<lidx::SlrEa<uint64_t>> ea;

  lidx::Bound Search(uint64_t q, lidx::LastMileKind* kind) const {
    return eq ? eq->Search(q, kind) : ea->Search(q, kind);
  }
  bool UsesModel() const { return eq ? eq->UsesModel() : ea->UsesModel(); }
  size_t Segments() const { return eq ? eq->Segments() : ea->Segments(); }
  size_t MemoryBytes() const { return eq ? eq->MemoryBytes() : ea->MemoryBytes(); }
  lidx::Status Build(const uint64_t* keys, size_t n) {
    return eq ? eq->Build(keys, n, nullptr) : ea->Build(keys, n, nullptr);
  }
  void Serialize(std::string* out) const {
    if (eq) {
      eq->Serialize(out);
    } else {
      ea->Serialize(out);
    }
  }
  // Either kind, as the blob's header says.
  lidx::Status Deserialize(std::string_view blob) {
    eq = std::make_unique<lidx::SlrEq<uint64_t>>();
    if (eq->Deserialize(blob).ok()) return lidx::Status::OK();
    eq.reset();
    ea = std::make_unique<lidx::SlrEa<uint64_t>>();
    return ea->Deserialize(blob);
  }
};

// The restart points of one block (contents without trailer).
struct Restarts {
  const char* data = nullptr;
  uint32_t limit = 0;  // where the restart array starts
  uint32_t count = 0;
  const char* array = nullptr;

  bool Parse(const Slice& block) {
    if (block.size() < 4) return false;
    count = DecodeFixed32(block.data() + block.size() - 4);
    if (uint64_t{count} * 4 + 4 > block.size()) return false;
    data = block.data();
    limit = static_cast<uint32_t>(block.size() - 4 - 4 * count);
    array = data + limit;
    return true;
  }
  uint32_t Offset(uint32_t i) const { return DecodeFixed32(array + 4 * i); }
};

// Decodes the entry at *p (< limit) given the previous key; false when bad.
bool NextEntry(const char** p, const char* limit, std::string* key, Slice* value) {
  uint32_t shared, non_shared, vlen;
  const char* q = GetVarint32Ptr(*p, limit, &shared);
  if (q == nullptr) return false;
  q = GetVarint32Ptr(q, limit, &non_shared);
  if (q == nullptr) return false;
  q = GetVarint32Ptr(q, limit, &vlen);
  if (q == nullptr || shared > key->size() ||
      static_cast<uint64_t>(limit - q) < uint64_t{non_shared} + vlen) {
    return false;
  }
  key->resize(shared);
  key->append(q, non_shared);
  *value = Slice(q + non_shared, vlen);
  *p = q + non_shared + vlen;
  return true;
}

// The whole key (and value) at restart point i (shared == 0 there); empty
// when the restart offset or its entry is malformed (a damaged block).
Slice RestartKey(const Restarts& r, uint32_t i, Slice* value = nullptr) {
  if (r.Offset(i) >= r.limit) return Slice();
  const char* p = r.data + r.Offset(i);
  uint32_t shared, non_shared, vlen;
  p = GetVarint32Ptr(p, r.array, &shared);
  if (p) p = GetVarint32Ptr(p, r.array, &non_shared);
  if (p) p = GetVarint32Ptr(p, r.array, &vlen);
  if (p == nullptr || shared != 0 ||
      static_cast<uint64_t>(r.array - p) < uint64_t{non_shared} + vlen) {
    return Slice();
  }
  if (value) *value = Slice(p + non_shared, vlen);
  return Slice(p, non_shared);
}

Slice UserKeyOf(const Slice& ikey) {
  return Slice(ikey.data(), ikey.size() >= 8 ? ikey.size() - 8 : 0);
}

// Mapped user key after the table's common prefix: order-preserving over
// all keys (those not sharing the prefix sort below or above every one).
uint64_t MapAfterPrefix(const Slice& ikey, const std::string& prefix) {
  Slice u = UserKeyOf(ikey);
  if (!u.starts_with(prefix)) return Slice(prefix).compare(u) > 0 ? 0 : ~0ull;
  return lidx::MapKey<uint64_t>(
      std::string_view(u.data() + prefix.size(), u.size() - prefix.size()));
}

}  // namespace

bool MakeSlrModel(const LearnedTableConfig& c, SlrModel* m, std::string* err) {
  lidx::Options o{{"error_threshold", std::to_string(c.slr_error_threshold)},
                  {"min_pairs", "2"}};
  if (!c.slr_last_mile.empty()) o["last_mile"] = c.slr_last_mile;
  lidx::Status s;
  // index_knobs override, as for every other index: `bad_segments:1` is
  // the paper's "equal-size SLR search with bad segments" (fig. 8).
  if (c.slr == "eq") {
    o["segments"] = std::to_string(c.slr_segments);
    for (const auto& kv : c.knobs) o[kv.first] = kv.second;
    m->eq = std::make_unique<lidx::SlrEq<uint64_t>>();
    s = m->eq->Configure(o);
  } else {
    o["max_segments"] = std::to_string(c.slr_max_segments);
    for (const auto& kv : c.knobs) o[kv.first] = kv.second;
    m->ea = std::make_unique<lidx::SlrEa<uint64_t>>();
    s = m->ea->Configure(o);
  }
  if (!s.ok()) *err = s.message();
  return s.ok();
}

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
    const Slice key = RestartKey(r, static_cast<uint32_t>(i));
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


// Forwards to the table file and keeps a copy: the builder reads its own
// index block and data blocks back to train the models.
class CaptureFile : public WritableFile {
 public:
  explicit CaptureFile(WritableFile* base) : base_(base) {}
  Status Append(const Slice& data) override {
    bytes_.append(data.data(), data.size());
    return base_->Append(data);
  }
  Status Close() override { return Status::OK(); }  // the caller closes base
  Status Flush() override { return base_->Flush(); }
  Status Sync() override { return base_->Sync(); }
  const std::string& bytes() const { return bytes_; }

 private:
  WritableFile* const base_;
  std::string bytes_;
};

// The captured table as a file, so ReadBlock decompresses blocks for us.
class StringSource : public RandomAccessFile {
 public:
  explicit StringSource(const std::string& bytes) : bytes_(bytes) {}
  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    if (offset > bytes_.size()) return Status::InvalidArgument("slr: read past the table");
    n = std::min<size_t>(n, bytes_.size() - offset);
    std::memcpy(scratch, bytes_.data() + offset, n);
    *result = Slice(scratch, n);
    return Status::OK();
  }

 private:
  const std::string& bytes_;
};

// One block's contents (decompressed), owned.
struct OwnedBlock {
  BlockContents c{Slice(), false, false};
  ~OwnedBlock() {
    if (c.heap_allocated) delete[] c.data.data();
  }
};

std::string CommonPrefix(const std::string& a, const std::string& b) {
  size_t p = 0;
  while (p < a.size() && p < b.size() && a[p] == b[p]) p++;
  return a.substr(0, p);
}

// Trains one model over a block's restart keys; false on a build error.
bool TrainOver(const LearnedTableConfig& c, const Restarts& r, const std::string& prefix,
               SlrModel* m, std::string* err) {
  if (!MakeSlrModel(c, m, err)) return false;
  std::vector<uint64_t> mapped(r.count);
  for (uint32_t i = 0; i < r.count; i++) mapped[i] = MapAfterPrefix(RestartKey(r, i), prefix);
  lidx::Status s = m->Build(mapped.data(), mapped.size());
  if (!s.ok()) *err = s.message();
  return s.ok();
}

class SlrBuilder : public TableFileBuilder {
 public:
  SlrBuilder(const LearnedTableConfig* config, LearnedTableBook* book, const Options& options,
             WritableFile* file,
             const TableFileInfo& info)
      : config_(*config),
        book_(book),
        file_(file),
        capture_(file),
        builder_(options, &capture_),
        info_(info) {}

  void Add(const Slice& key, const Slice& value) override {
    Slice u = UserKeyOf(key);
    if (builder_.NumEntries() == 0) first_.assign(u.data(), u.size());
    last_.assign(u.data(), u.size());
    builder_.Add(key, value);
  }
  Status status() const override { return builder_.status(); }
  void Abandon() override { builder_.Abandon(); }
  uint64_t NumEntries() const override { return builder_.NumEntries(); }
  uint64_t FileSize() const override { return builder_.FileSize() + extra_; }

  Status Finish() override {
    Status s = builder_.Finish();
    if (!s.ok()) return s;
    const std::string& file = capture_.bytes();
    StringSource src(file);
    OwnedBlock index_block;  // holds what `index` points into
    Restarts index;
    s = ReadIndex(file, &src, &index_block, &index);
    if (!s.ok()) return s;
    LearnedTableStats built;
    built.tables_built = 1;  // the denominator of slr_abandoned (kept share, lsmrepro/tidy/regime.py)
    const uint64_t t0 = LearnedNanos();
    std::string area;
    s = TrainModels(index, &src, file.size(), &area, &built);
    if (!s.ok()) return s;
    const uint64_t t1 = LearnedNanos();
    const std::string tail = Tail(area, file.size());
    s = file_->Append(tail);
    const uint64_t t2 = LearnedNanos();
    extra_ = tail.size();
    built.tables_built = 1;
    built.train_nanos = t1 - t0;
    built.model_write_nanos = t2 - t1;
    built.model_bytes_written = area.size();
    trace::ThisThreadBuild().train_nanos += t1 - t0;
    trace::ThisThreadBuild().model_write_nanos += t2 - t1;
    book_->AddBuilt(built);
    return s;
  }

 private:
  // The index block of the native table just written (its footer's handle).
  static Status ReadIndex(const std::string& file, StringSource* src, OwnedBlock* block, Restarts* index) {
    Footer footer;
    Slice fin(file.data() + file.size() - Footer::kEncodedLength, Footer::kEncodedLength);
    Status s = footer.DecodeFrom(&fin);
    if (!s.ok()) return s;
    s = ReadBlock(src, ReadOptions(), footer.index_handle(), &block->c);
    if (!s.ok()) return s;
    if (!index->Parse(block->c.data)) {
      return Status::Corruption("slr: cannot parse the index block just written");
    }
    return Status::OK();
  }

  // The model area: the keys' common prefix, the index block's model, then
  // one model a data block with at least slr_min_pairs entries (an empty
  // one for the others).
  Status TrainModels(const Restarts& index, StringSource* src, uint64_t native_size, std::string* area,
                     LearnedTableStats* built) {
    const LearnedTableConfig& c = config_;
    const std::string prefix = CommonPrefix(first_, last_);
    std::string err;
    SlrModel model;
    PutFixed32(area, static_cast<uint32_t>(prefix.size()));
    *area += prefix;
    if (!TrainOver(c, index, prefix, &model, &err)) return Fail(err);
    built->trainings++;
    if (!model.UsesModel()) built->slr_abandoned++;
    built->segments_built += model.Segments();
    std::string blob;
    model.Serialize(&blob);
    PutFixed64(area, blob.size());
    *area += blob;
    PutFixed32(area, index.count);
    for (uint32_t i = 0; i < index.count; i++) {
      Slice hv;
      RestartKey(index, i, &hv);
      BlockHandle bh;
      if (!bh.DecodeFrom(&hv).ok() || bh.offset() + bh.size() > native_size) {
        return Status::Corruption("slr: bad block handle in the index block just written");
      }
      OwnedBlock data_block;
      Status s = ReadBlock(src, ReadOptions(), bh, &data_block.c);
      if (!s.ok()) return s;
      Restarts block;
      if (!block.Parse(data_block.c.data)) {
        return Status::Corruption("slr: cannot parse a data block just written");
      }
      uint64_t entries = 0;
      std::string key;
      Slice value;
      for (const char* p = block.data; p < block.array && NextEntry(&p, block.array, &key, &value);) {
        entries++;
      }
      blob.clear();
      if (entries >= c.slr_min_pairs && block.count >= 2) {
        SlrModel bm;
        if (!TrainOver(c, block, prefix, &bm, &err)) return Fail(err);
        built->trainings++;
        if (bm.UsesModel()) {
          bm.Serialize(&blob);
          built->slr_block_models++;
          built->segments_built += bm.Segments();
        }
      }
      PutFixed32(area, static_cast<uint32_t>(blob.size()));
      *area += blob;
    }
    return Status::OK();
  }

  // What follows the native table: the model area and its footer.
  std::string Tail(const std::string& area, uint64_t native_size) const {
    std::string tail = area;
    PutFixed64(&tail, native_size);
    PutFixed64(&tail, area.size());
    PutFixed32(&tail, crc32c::Mask(crc32c::Value(area.data(), area.size())));
    PutFixed32(&tail, config_.slr == "eq" ? 1 : 2);
    PutFixed32(&tail, 0);
    const size_t fstart = tail.size() - 28;
    PutFixed32(&tail, crc32c::Mask(crc32c::Value(tail.data() + fstart, 28)));
    PutFixed64(&tail, kSlrMagic);
    return tail;
  }

  Status Fail(const std::string& why) {
    LearnedTableStats f;
    f.build_failures = 1;
    book_->AddBuilt(f);
    return Status::NotSupported("slr-" + config_.slr + " cannot be built on table " +
                                    LearnedTableName(info_.number),
                                why);
  }

  const LearnedTableConfig& config_;
  LearnedTableBook* const book_;
  WritableFile* const file_;
  CaptureFile capture_;
  TableBuilder builder_;
  const TableFileInfo info_;
  std::string first_, last_;
  uint64_t extra_ = 0;
};

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
    if (s.ok() && !area.empty()) s = r->LoadModels(area);
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
    size_t b = sizeof(*this) + index_contents_.data.size() + prefix_.capacity();
    if (index_model_) b += index_model_->MemoryBytes();
    for (const auto& m : block_models_) b += m ? m->MemoryBytes() + sizeof(SlrModel) : 0;
    return b + block_models_.capacity() * sizeof(block_models_[0]);
  }

  Status InternalGet(const ReadOptions& ro, const Slice& k, void* arg,
                     void (*handle_result)(void*, const Slice&, const Slice&)) override {
    uint64_t icmps = 0;
    uint32_t j;
    bool malformed = false;
    {
      trace::ScopedStep step(trace::kIndexSearch);
      j = FindRestart(index_, index_model_.get(), prefix_, k, cmp_, &icmps, &malformed);
    }
    trace::Count(&trace::LookupTrace::index_comparisons, icmps);
    if (malformed) return Status::Corruption("slr: bad index block entry");
    if (j >= index_.count) {
      trace::Count(&trace::LookupTrace::comparisons, icmps);
      return Status::OK();
    }
    Slice hv;
    RestartKey(index_, j, &hv);
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
        const SlrModel* bm = j < block_models_.size() ? block_models_[j].get() : nullptr;
        uint32_t t = FindRestart(block, bm, prefix_, k, cmp_, &dcmps, &malformed);
        const uint32_t start = block.count ? block.Offset(t > 0 ? t - 1 : 0) : 0;
        if (malformed || start > block.limit) s = Status::Corruption("slr: bad data block entry");
        const char* p = s.ok() ? block.data + start : block.array;
        std::string key;
        Slice value;
        while (p < block.array) {
          // An internal key has its 8-byte trailer: a shorter one is damage.
          if (!NextEntry(&p, block.array, &key, &value) || key.size() < 8) {
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

  Status LoadModels(const Slice& area) {
    Slice in = area;
    uint32_t plen;
    uint64_t mlen;
    if (!GetFixed32Checked(&in, &plen) || in.size() < plen) return Bad();
    prefix_.assign(in.data(), plen);
    in.remove_prefix(plen);
    if (!GetFixed64Checked(&in, &mlen) || in.size() < mlen) return Bad();
    index_model_.reset(new SlrModel);
    lidx::Status ls = index_model_->Deserialize(std::string_view(in.data(), mlen));
    if (!ls.ok()) return Status::Corruption("slr model", ls.message());
    in.remove_prefix(mlen);
    uint32_t blocks;
    if (!GetFixed32Checked(&in, &blocks) || blocks != index_.count) return Bad();
    block_models_.resize(blocks);
    for (uint32_t i = 0; i < blocks; i++) {
      uint32_t len;
      if (!GetFixed32Checked(&in, &len) || in.size() < len) return Bad();
      if (len > 0) {
        block_models_[i].reset(new SlrModel);
        ls = block_models_[i]->Deserialize(std::string_view(in.data(), len));
        if (!ls.ok()) return Status::Corruption("slr block model", ls.message());
        in.remove_prefix(len);
      }
    }
    return in.empty() ? Status::OK() : Bad();
  }
  static bool GetFixed32Checked(Slice* in, uint32_t* v) {
    if (in->size() < 4) return false;
    *v = DecodeFixed32(in->data());
    in->remove_prefix(4);
    return true;
  }
  static bool GetFixed64Checked(Slice* in, uint64_t* v) {
    if (in->size() < 8) return false;
    *v = DecodeFixed64(in->data());
    in->remove_prefix(8);
    return true;
  }
  static Status Bad() { return Status::Corruption("slr model area malformed"); }

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
  std::string prefix_;
  std::unique_ptr<SlrModel> index_model_;
  std::vector<std::unique_ptr<SlrModel>> block_models_;
};

}  // namespace

TableFileBuilder* NewSlrTableBuilder(const LearnedTableConfig* config, LearnedTableBook* book,
                                     const Options& options,
                                     WritableFile* file, const TableFileInfo& info) {
  return new SlrBuilder(config, book, options, file, info);
}

Status OpenSlrTable(const LearnedTableConfig*, LearnedTableBook* book, const Options& options,
                    RandomAccessFile* file, uint64_t file_size, const TableFileInfo& info,
                    bool* ours, TableReader** reader) {
  *ours = false;
  *reader = nullptr;
  if (file_size < kSlrFooterSize) return Status::OK();
  char buf[kSlrFooterSize];
  Slice f;
  Status s = file->Read(file_size - kSlrFooterSize, kSlrFooterSize, &f, buf);
  if (!s.ok()) return s;
  if (f.size() != kSlrFooterSize || DecodeFixed64(f.data() + 32) != kSlrMagic) {
    return Status::OK();
  }
  *ours = true;
  if (crc32c::Unmask(DecodeFixed32(f.data() + 28)) != crc32c::Value(f.data(), 28)) {
    return Status::Corruption("slr table footer checksum mismatch");
  }
  const uint64_t native_size = DecodeFixed64(f.data());
  const uint64_t area_len = DecodeFixed64(f.data() + 8);
  if (native_size + area_len + kSlrFooterSize != file_size) {
    return Status::Corruption("slr table footer does not match the file");
  }
  std::string area(area_len, '\0');
  Slice a;
  s = file->Read(native_size, area_len, &a, &area[0]);
  if (!s.ok()) return s;
  if (a.size() != area_len ||
      crc32c::Unmask(DecodeFixed32(f.data() + 16)) != crc32c::Value(a.data(), a.size())) {
    return Status::Corruption("slr table model checksum mismatch");
  }
  return SlrReader::Make(book, options, file, native_size, a, info.number, reader);
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

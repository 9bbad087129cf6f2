#include "layers/learned/learned_table_reader.h"

#include <algorithm>
#include <string_view>

#include "layers/hooks/lookup_trace.h"
#include "layers/learned/learned_table_checksums.h"
#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "lidx/key_map.h"
#include "lidx/registry.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace leveldb {

LearnedReader::LearnedReader(LearnedTableBook* book, const Options& options,
                             RandomAccessFile* file, uint64_t number, const LearnedFooter& f,
                             std::shared_ptr<const TableModel> model,
                             std::vector<uint64_t> offsets, std::string filter)
    : book_(book),
      policy_(options.filter_policy),
      filter_(std::move(filter)),
      icmp_(options.comparator),
      file_(file),
      number_(number),
      name_(LearnedTableName(number)),
      f_(f),
      table_model_(std::move(model)),
      prefix_(table_model_->prefix),
      model_(table_model_->model),
      offsets_(std::move(offsets)),
      keys_(table_model_->keys) {
  book_->Register(number_, IndexMemoryBytes());
}

LearnedReader::~LearnedReader() { book_->Unregister(number_); }

size_t LearnedReader::IndexMemoryBytes() const {
  return sizeof(*this) + prefix_.capacity() + model_.MemoryBytes() + offsets_.capacity() * 8 +
         keys_.capacity() * 8;
}

uint64_t LearnedReader::MeanEntryBytes() const {
  return f_.n ? std::max<uint64_t>(1, f_.entries_bytes / f_.n) : 1;
}

Status LearnedReader::Load(uint64_t lo, uint64_t hi, Window* w) const {
  w->lo = lo;
  w->hi = hi;
  const uint64_t a = Offset(lo), b = End(hi);
  Status s = ReadEntries({file_, f_.entries_bytes, f_.checksums_offset(), &name_}, a, b, w->verify,
                         &w->scratch, &w->bytes);
  trace::Count(&trace::LookupTrace::bytes_loaded, b - a);
  return s;
}

bool LearnedReader::Entry(const Window& w, uint64_t i, Slice* key, Slice* value) const {
  const uint64_t base = Offset(w.lo);
  Slice in(w.bytes.data() + (Offset(i) - base), w.bytes.size() - (Offset(i) - base));
  uint32_t klen, vlen;
  // An internal key has its 8-byte trailer: a shorter one is damage (the
  // internal key comparator would read a user key of -8 bytes).
  if (!GetVarint32(&in, &klen) || !GetVarint32(&in, &vlen) || in.size() < uint64_t{klen} + vlen ||
      klen < 8) {
    return false;
  }
  *key = Slice(in.data(), klen);
  *value = Slice(in.data() + klen, vlen);
  return true;
}

void LearnedReader::Bound(const Slice& ikey, uint64_t* lo, uint64_t* hi) const {
  trace::ScopedStep step(trace::kIndexSearch);
  const Slice u = UserKeyOf(ikey);
  const uint64_t n = f_.n;
  if (n == 0) {
    *lo = *hi = 0;
    return;
  }
  if (!u.starts_with(prefix_)) {
    // Every entry starts with the prefix: q is below or above them all.
    *lo = *hi = Slice(prefix_).compare(u) > 0 ? 0 : n;
    return;
  }
  std::string_view s(u.data() + prefix_.size(), u.size() - prefix_.size());
  if (model_.strings) {
    // Exact: first user key >= s, and first user key > s.
    *lo = model_.strings->Search(s).lo;
    std::string next(s);
    next.push_back('\0');
    *hi = model_.strings->Search(next).hi;
    return;
  }
  lidx::Bound b = lidx::StringBound(*model_.ints, n, s, model_.key_map);
  *lo = b.lo;
  *hi = std::min<uint64_t>(b.hi, n);
  if (!keys_.empty()) {
    // keep_keys: the kept mapped keys narrow the bound to the entries whose
    // mapped key equals the query's, before any read.
    const uint64_t m = lidx::MapKey(model_.key_map, s);
    uint64_t a = *lo, z = *hi;
    trace::Count(&trace::LookupTrace::index_comparisons, 2 * (64 - __builtin_clzll((z - a) | 1)));
    *lo = std::lower_bound(keys_.begin() + a, keys_.begin() + z, m) - keys_.begin();
    *hi = std::upper_bound(keys_.begin() + *lo, keys_.begin() + z, m) - keys_.begin();
  }
}

void LearnedReader::BoundFor(const Slice& ikey, bool use_hint, uint64_t* lo, uint64_t* hi) const {
  const trace::LookupContext& ctx = trace::Context();
  if (use_hint && ctx.has_hint && ctx.hint_file == number_) {
    // granularity=level: the level model's bound within this table.
    trace::Count(&trace::LookupTrace::level_model_hits);
    *lo = std::min<uint64_t>(ctx.hint_lo, f_.n);
    *hi = std::min<uint64_t>(ctx.hint_hi, f_.n);
  } else {
    Bound(ikey, lo, hi);
  }
}

Status LearnedReader::Find(const Slice& ikey, Window* w, uint64_t* pos, bool use_hint) const {
  uint64_t lo, hi;
  BoundFor(ikey, use_hint, &lo, &hi);
  return Search(ikey, lo, hi, w, pos);
}

Status LearnedReader::Search(const Slice& ikey, uint64_t lo, uint64_t hi, Window* w,
                             uint64_t* pos) const {
  if (lo >= f_.n) {
    *pos = f_.n;
    w->lo = w->hi = f_.n;
    return Status::OK();
  }
  const uint64_t end = std::min<uint64_t>(hi + 1, f_.n);
  {
    trace::ScopedStep step(trace::kLoadData);
    Status s = Load(lo, end, w);
    if (!s.ok()) return s;
  }
  trace::ScopedStep step(trace::kSearchData);
  uint64_t a = lo, z = end;  // first in [a, z) with key >= ikey
  uint64_t cmps = 0;
  while (a < z) {
    uint64_t mid = a + (z - a) / 2;
    Slice k, v;
    if (!Entry(*w, mid, &k, &v)) {
      return Status::Corruption("learned table " + LearnedTableName(number_) + ": bad entry");
    }
    cmps++;
    if (icmp_->Compare(k, ikey) < 0) {
      a = mid + 1;
    } else {
      z = mid;
    }
  }
  trace::Count(&trace::LookupTrace::comparisons, cmps);
  *pos = a;
  return Status::OK();
}

Status LearnedReader::ProbeKey(uint64_t i, std::string* key) const {
  // A key and its two varints fit 64 bytes for the keys the studies use
  // (8- to 32-byte internal keys); a longer one is read again, whole.
  constexpr uint64_t kProbeBytes = 64;
  const uint64_t at = Offset(i), slot = End(i + 1) - at;
  uint64_t want = std::min(slot, kProbeBytes);
  std::string scratch;
  for (int pass = 0; pass < 2; pass++) {
    Slice in;
    Status s = ReadEntries({file_, f_.entries_bytes, f_.checksums_offset(), &name_}, at, at + want,
                           /*verify=*/false, &scratch, &in);
    if (!s.ok()) return s;
    trace::Count(&trace::LookupTrace::bytes_loaded, want);
    const uint64_t before = in.size();
    uint32_t klen, vlen;
    const bool header = GetVarint32(&in, &klen) && GetVarint32(&in, &vlen);
    const uint64_t header_bytes = before - in.size();
    // As Entry: an internal key has its 8-byte trailer; and the entry must
    // fit its slot.
    if (!header || klen < 8 || header_bytes + klen + vlen > slot) {
      return Status::Corruption("learned table " + LearnedTableName(number_) + ": bad entry");
    }
    if (klen <= in.size()) {
      key->assign(in.data(), klen);
      return Status::OK();
    }
    want = header_bytes + klen;
  }
  return Status::Corruption("learned table " + LearnedTableName(number_) + ": bad entry");
}

Status LearnedReader::InternalGet(const ReadOptions& ro, const Slice& k, void* arg,
                                  void (*handle_result)(void*, const Slice&, const Slice&)) {
  // The paper's framework searches the index before the filter, for fence
  // pointers and learned tables alike (LevelDB's Table::InternalGet; the
  // artifact's TableCache::LevelRead predicts, then probes the filter, then
  // reads the predicted range), so a table the filter rules out costs its
  // index search here too.
  uint64_t lo, hi;
  BoundFor(k, /*use_hint=*/true, &lo, &hi);
  if (lo >= f_.n) return Status::OK();
  if (policy_ != nullptr && !filter_.empty()) {
    trace::ScopedStep step(trace::kLoadIndex);
    if (!policy_->KeyMayMatch(k, filter_)) return Status::OK();
  }
  Window w;
  w.verify = ro.verify_checksums;
  uint64_t pos;
  Status s = Search(k, lo, hi, &w, &pos);
  if (s.ok() && pos < f_.n) {
    Slice key, value;
    if (pos < w.hi && Entry(w, pos, &key, &value)) {
      (*handle_result)(arg, key, value);
    } else {
      // The model's bound missed the key: a broken model, never a guess.
      s = Status::Corruption("learned table " + LearnedTableName(number_) +
                             ": position outside the model's bound");
    }
  }
  return s;
}

// Exact (one read of the model's bound): LevelDB answers from its index
// block, at block granularity; a model's bound alone can be far coarser.
uint64_t LearnedReader::ApproximateOffsetOf(const Slice& ikey) const {
  Window w;
  uint64_t pos;
  if (!Find(ikey, &w, &pos).ok()) {
    uint64_t lo, hi;
    Bound(ikey, &lo, &hi);
    pos = lo;
  }
  return pos >= f_.n ? f_.entries_bytes : Offset(pos);
}

namespace {

// The stored model: the serialized header names its index, so an empty
// index of each registered id is offered the blob until one takes it.
lidx::Status LoadStoredModel(std::string_view blob, bool strings, Model* model) {
  std::string err;
  if (strings) {
    for (const std::string& id : lidx::RegisteredStringIds()) {
      model->strings = lidx::MakeStringIndex(id, {}, &err);
      if (model->strings && model->strings->Deserialize(blob).ok()) return lidx::Status::OK();
    }
    model->strings.reset();
    return lidx::Status::Error("no string index deserializes the model");
  }
  for (const std::string& id : lidx::RegisteredIds()) {
    auto probe = lidx::MakeIndex<uint64_t>(id, {}, &err);
    if (probe && probe->Deserialize(blob).ok()) {
      model->ints = std::move(probe);
      return lidx::Status::OK();
    }
  }
  return lidx::Status::Error("no index deserializes the model");
}

// keep_keys: n+1 increasing entry offsets ending the entries.
Status LoadOffsets(const char* p, const LearnedFooter& f, std::vector<uint64_t>* offsets) {
  offsets->resize(f.n + 1);
  for (uint64_t i = 0; i <= f.n; i++) (*offsets)[i] = DecodeFixed64(p + 8 * i);
  for (uint64_t i = 0; i < f.n; i++) {
    if ((*offsets)[i] >= (*offsets)[i + 1]) {
      return Status::Corruption("learned table offsets not increasing");
    }
  }
  if ((*offsets)[f.n] != f.entries_bytes) {
    return Status::Corruption("learned table offsets do not end the entries");
  }
  return Status::OK();
}

}  // namespace

Status OpenLearnedTable(LearnedTableBook* book, const Options& options, RandomAccessFile* file,
                        uint64_t file_size, uint64_t number, const LearnedFooter& f,
                        std::shared_ptr<const TableModel> trained, TableReader** reader) {
  const std::string name = LearnedTableName(number);
  const std::string mismatch = f.MismatchWith(file_size);
  if (!mismatch.empty()) return Status::Corruption(name, mismatch);
  // The data checksums and the meta regions, checked together here: a
  // damaged data checksum is an error at open, not only in a verified read.
  const uint64_t meta_len = f.meta_len();
  const uint64_t checked_len = f.meta_offset() + meta_len - f.checksums_offset();
  std::string meta(checked_len, '\0');
  Slice m;
  Status s = file->Read(f.checksums_offset(), checked_len, &m, &meta[0]);
  if (!s.ok()) return s;
  if (m.size() != checked_len) return Status::Corruption(name, "truncated model");
  if (crc32c::Unmask(f.meta_crc) != crc32c::Value(m.data(), m.size())) {
    return Status::Corruption(name, "learned table model checksum mismatch");
  }
  auto stored = std::make_shared<TableModel>();
  const char* p = m.data() + (f.meta_offset() - f.checksums_offset());
  stored->prefix.assign(p, f.prefix_len);
  p += f.prefix_len;
  if (trained == nullptr) {  // else the stored model is unused (checksum verified above)
    lidx::Status ls = LoadStoredModel(std::string_view(p, f.model_len), f.string_index(),
                                      &stored->model);
    if (!ls.ok()) return Status::Corruption(name, "learned table model: " + ls.message());
    stored->model.key_map = f.decimal_keys() ? lidx::KeyMap::kDecimal : lidx::KeyMap::kBytes;
  }
  p += f.model_len;
  std::vector<uint64_t> offsets;
  if (f.keep_keys()) {
    s = LoadOffsets(p, f, &offsets);
    if (!s.ok()) return Status::Corruption(name, s.ToString());
    p += f.offsets_len;
    if (!f.string_index() && trained == nullptr) {
      stored->keys.resize(f.n);
      for (uint64_t i = 0; i < f.n; i++) stored->keys[i] = DecodeFixed64(p + 8 * i);
    }
  }
  p += f.keys_len;
  std::string filter(p, f.filter_len);
  *reader = new LearnedReader(book, options, file, number, f,
                              trained != nullptr ? std::move(trained) : std::move(stored),
                              std::move(offsets), std::move(filter));
  return Status::OK();
}

Status ReadLearnedTableUserKeys(RandomAccessFile* file, uint64_t file_size,
                                std::vector<std::string>* user_keys, bool* keep_keys) {
  user_keys->clear();
  LearnedFooter f;
  bool ours;
  Status s = LearnedFooter::Read(file, file_size, &f, &ours);
  if (!s.ok()) return s;
  if (!ours) return Status::NotSupported("not a learned table");
  if (keep_keys != nullptr) *keep_keys = f.keep_keys();
  std::string scratch(f.entries_bytes, '\0');
  Slice entries;
  s = file->Read(0, f.entries_bytes, &entries, &scratch[0]);
  if (!s.ok()) return s;
  if (entries.size() != f.entries_bytes) return Status::Corruption("truncated entries");
  user_keys->reserve(f.n);
  const char* p = entries.data();
  const char* limit = p + entries.size();
  for (uint64_t i = 0; i < f.n; i++) {
    const char* e = f.slot_width ? entries.data() + i * f.slot_width : p;
    uint32_t klen, vlen;
    e = GetVarint32Ptr(e, limit, &klen);
    if (e) e = GetVarint32Ptr(e, limit, &vlen);
    if (e == nullptr || static_cast<uint64_t>(limit - e) < uint64_t{klen} + vlen || klen < 8) {
      return Status::Corruption("bad entry");
    }
    user_keys->emplace_back(e, klen - 8);
    p = e + klen + vlen;
  }
  return Status::OK();
}

}  // namespace leveldb

#include "layers/learned/learned_table_format.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

#include "db/dbformat.h"
#include "layers/hooks/lookup_trace.h"
#include "layers/learned/slr_table.h"
#include "leveldb/comparator.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "lidx/key_map.h"
#include "lidx/registry.h"
#include "lidx/string_index.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace leveldb {

namespace {

constexpr uint64_t kLearnedMagic = 0x6c69647874626c31ull;  // "lidxtbl1"
constexpr size_t kFooterSize = 80;
constexpr uint32_t kFlagKeepKeys = 1;
constexpr uint32_t kFlagStringIndex = 2;
constexpr uint32_t kFormatVersion = 1;

uint64_t Nanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string TableName(uint64_t number) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%06llu.ldb",
                static_cast<unsigned long long>(number));
  return buf;
}

struct Footer {
  uint64_t entries_bytes = 0;  // the entries region [0, entries_bytes)
  uint64_t n = 0;
  uint32_t slot_width = 0;     // 0 when packed (keep_keys)
  uint32_t flags = 0;
  uint32_t prefix_len = 0;
  uint32_t version = kFormatVersion;
  uint64_t model_len = 0;
  uint64_t offsets_len = 0;
  uint64_t keys_len = 0;
  uint64_t filter_len = 0;     // Options::filter_policy's filter of all keys
  uint32_t meta_crc = 0;       // crc32c of prefix..filter

  void EncodeTo(std::string* out) const {
    size_t start = out->size();
    PutFixed64(out, entries_bytes);
    PutFixed64(out, n);
    PutFixed32(out, slot_width);
    PutFixed32(out, flags);
    PutFixed32(out, prefix_len);
    PutFixed32(out, version);
    PutFixed64(out, model_len);
    PutFixed64(out, offsets_len);
    PutFixed64(out, keys_len);
    PutFixed64(out, filter_len);
    PutFixed32(out, meta_crc);
    PutFixed32(out, crc32c::Mask(
                        crc32c::Value(out->data() + start, out->size() - start)));
    PutFixed64(out, kLearnedMagic);
  }
  // False (not ours) on a foreign magic; Corruption on a bad footer.
  static Status DecodeFrom(const char* p, Footer* f, bool* ours) {
    *ours = DecodeFixed64(p + 72) == kLearnedMagic;
    if (!*ours) return Status::OK();
    if (crc32c::Unmask(DecodeFixed32(p + 68)) != crc32c::Value(p, 68)) {
      return Status::Corruption("learned table footer checksum mismatch");
    }
    f->entries_bytes = DecodeFixed64(p);
    f->n = DecodeFixed64(p + 8);
    f->slot_width = DecodeFixed32(p + 16);
    f->flags = DecodeFixed32(p + 20);
    f->prefix_len = DecodeFixed32(p + 24);
    f->version = DecodeFixed32(p + 28);
    f->model_len = DecodeFixed64(p + 32);
    f->offsets_len = DecodeFixed64(p + 40);
    f->keys_len = DecodeFixed64(p + 48);
    f->filter_len = DecodeFixed64(p + 56);
    f->meta_crc = DecodeFixed32(p + 64);
    return Status::OK();
  }
};

}  // namespace

// ---------------------------------------------------------------- config

bool ParseLearnedTableConfig(const std::string& spec, LearnedTableConfig* c,
                             std::string* err) {
  size_t pos = 0;
  while (pos < spec.size()) {
    size_t comma = spec.find(',', pos);
    if (comma == std::string::npos) comma = spec.size();
    std::string item = spec.substr(pos, comma - pos);
    pos = comma + 1;
    if (item.empty()) continue;
    size_t eq = item.find('=');
    if (eq == std::string::npos) {
      *err = "learned table spec item '" + item + "': expected key=value";
      return false;
    }
    std::string k = item.substr(0, eq), v = item.substr(eq + 1);
    if (k == "index") {
      c->index = v;
    } else if (k == "position_boundary") {
      char* end = nullptr;
      c->position_boundary = std::strtoull(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || c->position_boundary < 2) {
        *err = "position_boundary: an integer >= 2 expected, got '" + v + "'";
        return false;
      }
    } else if (k == "keep_keys" || k == "retrain") {
      if (v != "true" && v != "false") {
        *err = k + ": true or false expected, got '" + v + "'";
        return false;
      }
      (k == "keep_keys" ? c->keep_keys : c->retrain) = v == "true";
    } else if (k == "slr" || k == "slr_last_mile") {
      (k == "slr" ? c->slr : c->slr_last_mile) = v;
    } else if (k == "slr_segments" || k == "slr_min_pairs" || k == "slr_error_threshold" ||
               k == "slr_max_segments") {
      char* end = nullptr;
      uint64_t x = std::strtoull(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0') {
        *err = k + ": an integer expected, got '" + v + "'";
        return false;
      }
      (k == "slr_segments"    ? c->slr_segments
       : k == "slr_min_pairs" ? c->slr_min_pairs
       : k == "slr_max_segments" ? c->slr_max_segments
                                 : c->slr_error_threshold) = x;
    } else if (k.compare(0, 5, "knob.") == 0) {
      c->knobs[k.substr(5)] = v;
    } else {
      *err = "learned table spec: unknown key '" + k +
             "' (knows index, position_boundary, keep_keys, retrain, slr, slr_segments, slr_min_pairs, "
             "slr_error_threshold, slr_max_segments, slr_last_mile, knob.NAME)";
      return false;
    }
  }
  return true;
}

namespace {

// The lidx knobs that make `position_boundary` the width of the predicted
// range (seed 000 §4.2): error e = boundary / 2 for the error-bounded
// fitters (their bound is 2e+2 wide), the block size for FP, the leaf count
// n / boundary for RMI; PGM's recursive epsilon 4 and RS's radix bits 1 as
// the paper's defaults. Exact indexes (alex lipp dili lits) take none.
lidx::Options KnobsFor(const LearnedTableConfig& c, uint64_t n) {
  const std::string e = std::to_string(std::max<uint64_t>(1, c.position_boundary / 2));
  lidx::Options o;
  if (c.index == "fp") o = {{"entries", std::to_string(c.position_boundary)}};
  if (c.index == "plr") o = {{"delta", e}};
  if (c.index == "ft") o = {{"error", e}};
  if (c.index == "pgm") o = {{"epsilon", e}, {"epsilon_recursive", "4"}};
  if (c.index == "rs") o = {{"epsilon", e}, {"radix_bits", "1"}};
  if (c.index == "plex") o = {{"epsilon", e}};
  if (c.index == "rmi") {
    o = {{"leaves", std::to_string(std::max<uint64_t>(1, n / c.position_boundary))}};
  }
  for (const auto& kv : c.knobs) o[kv.first] = kv.second;
  return o;
}

// One model: an integer index over mapped keys, or LITS over the strings.
struct Model {
  std::unique_ptr<lidx::Index<uint64_t>> ints;
  std::unique_ptr<lidx::StringIndex> strings;

  static bool Make(const LearnedTableConfig& c, uint64_t n, Model* m,
                   std::string* err) {
    if (c.index == "lits") {
      m->strings = lidx::MakeStringIndex("lits", KnobsFor(c, n), err);
      return m->strings != nullptr;
    }
    if (c.index.compare(0, 4, "slr-") == 0 || c.index == "pla" ||
        c.index == "pra") {
      *err = "index '" + c.index + "' is not one of the table indexes "
             "(fp plr ft pgm rs plex rmi alex lipp dili lits)";
      return false;
    }
    m->ints = lidx::MakeIndex<uint64_t>(c.index, KnobsFor(c, n), err);
    return m->ints != nullptr;
  }
  size_t MemoryBytes() const {
    return ints ? ints->MemoryBytes() : strings ? strings->MemoryBytes() : 0;
  }
};

Slice UserKeyOf(const Slice& ikey) {
  return Slice(ikey.data(), ikey.size() >= 8 ? ikey.size() - 8 : 0);
}

std::string CommonPrefix(const Slice& first, const Slice& last) {
  size_t p = 0;
  while (p < first.size() && p < last.size() && first[p] == last[p]) p++;
  return std::string(first.data(), p);
}

// RMI's bound is an outcome of its second-level size (seed 000 §4.2: the
// size of the second level "in turn affects the position boundary"), so the
// boundary is held by choosing that size. What is held is the mean bound
// width hi - lo over a sample of the table's keys: what a lookup reads on
// average. Not the max: a leaf's error is its worst key, one leaf across a
// cluster edge would push every table toward n leaves, and the lookups'
// bytes follow the mean (the error-bounded indexes' width is the same for
// every lookup, so their mean is their max). From KnobsFor's n / boundary
// leaves: when wider than the boundary, double the leaves until within (at
// most n leaves, so at most log2(boundary) + 1 more builds; the leaves'
// memory is the price, 24 bytes each); when within, halve them while the
// bound stays within (the fewest leaves that hold it).
lidx::Status TuneRmiLeaves(const LearnedTableConfig& c, const std::vector<uint64_t>& mapped,
                           Model* model, std::string* err) {
  const uint64_t n = mapped.size();
  const double boundary = static_cast<double>(c.position_boundary);
  auto mean_width = [&](const lidx::Index<uint64_t>& idx) {
    const uint64_t step = std::max<uint64_t>(1, n / 1024);
    double sum = 0;
    uint64_t count = 0;
    for (uint64_t i = 0; i < n; i += step, count++) {
      lidx::Bound b = idx.Search(mapped[i]);
      sum += static_cast<double>(b.hi - b.lo);
    }
    return count ? sum / count : 0.0;
  };
  auto build = [&](uint64_t leaves, Model* m) {
    LearnedTableConfig with = c;
    with.knobs["leaves"] = std::to_string(leaves);
    if (!Model::Make(with, n, m, err)) return lidx::Status::Error(*err);
    return m->ints->Build(mapped.data(), n, nullptr);
  };
  uint64_t leaves = std::max<uint64_t>(1, n / c.position_boundary);
  if (mean_width(*model->ints) > boundary) {
    // Where n leaves (24 bytes a key) are still too wide, the table keeps
    // them, the narrowest this tries: keys the radix root cannot spread
    // (decimal digits fill 10 of every 256 byte values) can need ~64n
    // leaves to hold boundary 8, 1.5 KB a key.
    while (leaves < n) {
      leaves = std::min(n, leaves * 2);
      Model m;
      lidx::Status s = build(leaves, &m);
      if (!s.ok()) return s;
      *model = std::move(m);
      if (mean_width(*model->ints) <= boundary) break;
    }
    return lidx::Status::OK();
  }
  while (leaves > 1) {
    leaves /= 2;
    Model m;
    lidx::Status s = build(leaves, &m);
    if (!s.ok() || mean_width(*m.ints) > boundary) break;
    *model = std::move(m);
  }
  return lidx::Status::OK();
}

// Trains c's index over a table's user keys with their common prefix
// removed (`keys`, in order); an integer index gets the mapped keys, left in
// *mapped. The builder and retraining (LearnedTableConfig::retrain) share it.
lidx::Status TrainModel(const LearnedTableConfig& c, const std::vector<std::string_view>& keys,
                        Model* model, std::vector<uint64_t>* mapped, std::string* err) {
  const uint64_t n = keys.size();
  if (!Model::Make(c, n, model, err)) return lidx::Status::Error(*err);
  if (model->strings) return model->strings->Build(keys.data(), n, nullptr);
  mapped->resize(n);
  for (uint64_t i = 0; i < n; i++) (*mapped)[i] = lidx::MapKey<uint64_t>(keys[i]);
  lidx::Status s = model->ints->Build(mapped->data(), n, nullptr);
  if (s.ok() && c.index == "rmi" && c.knobs.count("leaves") == 0) {
    s = TuneRmiLeaves(c, *mapped, model, err);
  }
  return s;
}

std::string CannotBuild(const LearnedTableConfig& c, uint64_t number, uint64_t n) {
  return "index '" + c.index + "' cannot be built on table " + TableName(number) + " (" +
         std::to_string(n) + " entries)";
}

}  // namespace

// What a reader searches with: the stored model, or one trained on open
// (retrain), shared by every reader of the table.
struct TableModel {
  std::string prefix;          // the user keys' common prefix
  Model model;
  std::vector<uint64_t> keys;  // keep_keys, integer index: the mapped keys
};

namespace {

// ---------------------------------------------------------------- builder

class LearnedBuilder : public TableFileBuilder {
 public:
  LearnedBuilder(const LearnedTableFormat* format, const Options& options,
                 WritableFile* file, const TableFileInfo& info)
      : format_(format), options_(options), file_(file), info_(info) {}

  void Add(const Slice& key, const Slice& value) override {
    if (!status_.ok()) return;
    offsets_.push_back(entries_.size());
    PutVarint32(&entries_, static_cast<uint32_t>(key.size()));
    PutVarint32(&entries_, static_cast<uint32_t>(value.size()));
    entries_.append(key.data(), key.size());
    entries_.append(value.data(), value.size());
    width_ = std::max<uint64_t>(width_, entries_.size() - offsets_.back());
  }
  Status status() const override { return status_; }
  void Abandon() override { finished_ = true; }
  uint64_t NumEntries() const override { return offsets_.size(); }
  uint64_t FileSize() const override {
    return finished_ ? file_size_ : entries_.size();
  }

  Status Finish() override {
    finished_ = true;
    if (!status_.ok()) return status_;
    const uint64_t n = offsets_.size();
    offsets_.push_back(entries_.size());
    const LearnedTableConfig& c = format_->config();
    LearnedTableStats built;
    built.tables_built = 1;

    // User keys minus their common prefix: what the model is trained on.
    std::string prefix;
    if (n > 0) prefix = CommonPrefix(UserKeyOf(KeyAt(0)), UserKeyOf(KeyAt(n - 1)));
    std::vector<std::string_view> keys(n);
    for (uint64_t i = 0; i < n; i++) {
      Slice u = UserKeyOf(KeyAt(i));
      keys[i] = std::string_view(u.data() + prefix.size(), u.size() - prefix.size());
    }
    Model model;
    std::string err;
    const uint64_t t0 = Nanos();
    lidx::Status s = TrainModel(c, keys, &model, &mapped_, &err);
    const uint64_t t1 = Nanos();
    if (!s.ok()) {
      built.build_failures = 1;
      built.tables_built = 0;
      format_->AddBuilt(built);
      status_ = Status::NotSupported(CannotBuild(c, info_.number, n), s.message());
      return status_;
    }
    format_->NoteBuiltHere(info_.number);

    // Entries: fixed slots, or packed with their offsets kept.
    Footer f;
    f.n = n;
    std::string out;
    if (c.keep_keys) {
      f.flags |= kFlagKeepKeys;
      status_ = file_->Append(entries_);
      f.entries_bytes = entries_.size();
    } else {
      f.slot_width = static_cast<uint32_t>(width_);
      std::string slots;
      slots.reserve(n * width_);
      for (uint64_t i = 0; i < n; i++) {
        slots.append(entries_.data() + offsets_[i], offsets_[i + 1] - offsets_[i]);
        slots.resize((i + 1) * width_, '\0');
      }
      status_ = file_->Append(slots);
      f.entries_bytes = slots.size();
    }
    const uint64_t t2 = Nanos();
    if (model.strings) f.flags |= kFlagStringIndex;
    std::string meta = prefix;
    f.prefix_len = static_cast<uint32_t>(prefix.size());
    if (model.ints) {
      model.ints->Serialize(&meta);
    } else {
      model.strings->Serialize(&meta);
    }
    f.model_len = meta.size() - prefix.size();
    if (c.keep_keys) {
      for (uint64_t off : offsets_) PutFixed64(&meta, off);
      f.offsets_len = 8 * offsets_.size();
      if (model.ints) {
        for (uint64_t k : mapped_) PutFixed64(&meta, k);
        f.keys_len = 8 * mapped_.size();
      }
    }
    if (options_.filter_policy != nullptr) {
      // One filter over the table's keys (LevelDB keeps one per 2 KiB of
      // data blocks; a learned table has no blocks).
      std::vector<Slice> keys(n);
      for (uint64_t i = 0; i < n; i++) keys[i] = KeyAt(i);
      const size_t before = meta.size();
      options_.filter_policy->CreateFilter(keys.data(), static_cast<int>(n), &meta);
      f.filter_len = meta.size() - before;
    }
    f.meta_crc = crc32c::Mask(crc32c::Value(meta.data(), meta.size()));
    f.EncodeTo(&meta);
    if (status_.ok()) status_ = file_->Append(meta);
    const uint64_t t3 = Nanos();
    file_size_ = f.entries_bytes + meta.size();

    trace::BuildCounters& bc = trace::ThisThreadBuild();
    bc.train_nanos += t1 - t0;
    bc.model_write_nanos += t3 - t2;
    built.train_nanos = t1 - t0;
    built.model_write_nanos = t3 - t2;
    built.segments_built =
        model.ints ? model.ints->Stats().segments : model.strings->Stats().segments;
    built.model_bytes_written = f.model_len;
    format_->AddBuilt(built);
    return status_;
  }

 private:
  Slice KeyAt(uint64_t i) const {
    Slice in(entries_.data() + offsets_[i], entries_.size() - offsets_[i]);
    uint32_t klen, vlen;
    GetVarint32(&in, &klen);
    GetVarint32(&in, &vlen);
    return Slice(in.data(), klen);
  }

  const LearnedTableFormat* const format_;
  const Options options_;
  WritableFile* const file_;
  const TableFileInfo info_;
  Status status_;
  bool finished_ = false;
  std::string entries_;            // packed entries
  std::vector<uint64_t> offsets_;  // entry starts (+ end after Finish)
  std::vector<uint64_t> mapped_;
  uint64_t width_ = 0;
  uint64_t file_size_ = 0;
};

}  // namespace

// ---------------------------------------------------------------- reader

namespace {

class LearnedReader;

// A run of consecutive entries read from the file.
struct Window {
  uint64_t lo = 0, hi = 0;  // entries [lo, hi)
  Slice bytes;
  std::string scratch;
};

class LearnedReader : public TableReader {
 public:
  LearnedReader(const LearnedTableFormat* format, const Options& options,
                RandomAccessFile* file, uint64_t number, const Footer& f,
                std::shared_ptr<const TableModel> model, std::vector<uint64_t> offsets,
                std::string filter)
      : format_(format),
        policy_(options.filter_policy),
        filter_(std::move(filter)),
        icmp_(options.comparator),
        file_(file),
        number_(number),
        f_(f),
        table_model_(std::move(model)),
        prefix_(table_model_->prefix),
        model_(table_model_->model),
        offsets_(std::move(offsets)),
        keys_(table_model_->keys) {
    format_->Register(number_, IndexMemoryBytes());
  }
  ~LearnedReader() override { format_->Unregister(number_); }

  size_t IndexMemoryBytes() const override {
    return sizeof(*this) + prefix_.capacity() + model_.MemoryBytes() +
           offsets_.capacity() * 8 + keys_.capacity() * 8;
  }

  uint64_t n() const { return f_.n; }
  uint64_t MeanEntryBytes() const {
    return f_.n ? std::max<uint64_t>(1, f_.entries_bytes / f_.n) : 1;
  }

  uint64_t Offset(uint64_t i) const {
    return f_.slot_width ? i * f_.slot_width : offsets_[i];
  }

  // Reads entries [lo, hi) into *w.
  Status Load(uint64_t lo, uint64_t hi, Window* w) const {
    w->lo = lo;
    w->hi = hi;
    const uint64_t a = Offset(lo), b = hi == f_.n ? f_.entries_bytes : Offset(hi);
    if (w->scratch.size() < b - a) w->scratch.resize(b - a);
    Status s = file_->Read(a, b - a, &w->bytes, &w->scratch[0]);
    if (s.ok() && w->bytes.size() != b - a) {
      s = Status::Corruption("learned table " + TableName(number_) +
                             ": truncated entries");
    }
    trace::Count(&trace::LookupTrace::bytes_loaded, b - a);
    return s;
  }

  // Entry i (w->lo <= i < w->hi) of a loaded window.
  bool Entry(const Window& w, uint64_t i, Slice* key, Slice* value) const {
    const uint64_t base = Offset(w.lo);
    Slice in(w.bytes.data() + (Offset(i) - base),
             w.bytes.size() - (Offset(i) - base));
    uint32_t klen, vlen;
    if (!GetVarint32(&in, &klen) || !GetVarint32(&in, &vlen) ||
        in.size() < uint64_t{klen} + vlen) {
      return false;
    }
    *key = Slice(in.data(), klen);
    *value = Slice(in.data() + klen, vlen);
    return true;
  }

  // [lo, hi]: a range holding the position of the first entry >= ikey.
  void Bound(const Slice& ikey, uint64_t* lo, uint64_t* hi) const {
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
    lidx::Bound b = lidx::StringBound(*model_.ints, n, s);
    *lo = b.lo;
    *hi = std::min<uint64_t>(b.hi, n);
    if (!keys_.empty()) {
      // keep_keys: the kept mapped keys narrow the bound to the entries
      // whose mapped key equals the query's, before any read.
      const uint64_t m = lidx::MapKey<uint64_t>(s);
      uint64_t a = *lo, z = *hi;
      trace::Count(&trace::LookupTrace::index_comparisons,
                   2 * (64 - __builtin_clzll((z - a) | 1)));
      *lo = std::lower_bound(keys_.begin() + a, keys_.begin() + z, m) - keys_.begin();
      *hi = std::upper_bound(keys_.begin() + *lo, keys_.begin() + z, m) - keys_.begin();
    }
  }

  // The position of the first entry >= ikey, with its window loaded (the
  // position is n when there is none).
  Status Find(const Slice& ikey, Window* w, uint64_t* pos, bool use_hint = false) const {
    uint64_t lo, hi;
    const trace::LookupContext& ctx = trace::Context();
    if (use_hint && ctx.has_hint && ctx.hint_file == number_) {
      // granularity=level: the level model's bound within this table.
      trace::Count(&trace::LookupTrace::level_model_hits);
      lo = std::min<uint64_t>(ctx.hint_lo, f_.n);
      hi = std::min<uint64_t>(ctx.hint_hi, f_.n);
    } else {
      Bound(ikey, &lo, &hi);
    }
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
        return Status::Corruption("learned table " + TableName(number_) +
                                  ": bad entry");
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

  Status InternalGet(const ReadOptions&, const Slice& k, void* arg,
                     void (*handle_result)(void*, const Slice&,
                                           const Slice&)) override {
    if (policy_ != nullptr && !filter_.empty()) {
      trace::ScopedStep step(trace::kLoadIndex);
      if (!policy_->KeyMayMatch(k, filter_)) return Status::OK();
    }
    Window w;
    uint64_t pos;
    Status s = Find(k, &w, &pos, /*use_hint=*/true);
    if (s.ok() && pos < f_.n) {
      Slice key, value;
      if (pos < w.hi && Entry(w, pos, &key, &value)) {
        (*handle_result)(arg, key, value);
      } else {
        // The model's bound missed the key: a broken model, never a guess.
        s = Status::Corruption("learned table " + TableName(number_) +
                               ": position outside the model's bound");
      }
    }
    return s;
  }

  // Exact (one read of the model's bound): LevelDB answers from its index
  // block, at block granularity; a model's bound alone can be far coarser.
  uint64_t ApproximateOffsetOf(const Slice& ikey) const override {
    Window w;
    uint64_t pos;
    if (!Find(ikey, &w, &pos).ok()) {
      uint64_t lo, hi;
      Bound(ikey, &lo, &hi);
      pos = lo;
    }
    return pos >= f_.n ? f_.entries_bytes : Offset(pos);
  }

  Iterator* NewIterator(const ReadOptions&) const override;

 private:
  const LearnedTableFormat* const format_;
  const FilterPolicy* const policy_;
  const std::string filter_;
  const Comparator* const icmp_;  // the DB's internal key comparator
  RandomAccessFile* const file_;
  const uint64_t number_;
  const Footer f_;
  const std::shared_ptr<const TableModel> table_model_;
  const std::string& prefix_;
  const Model& model_;
  const std::vector<uint64_t> offsets_;
  const std::vector<uint64_t>& keys_;
};

class LearnedIterator : public Iterator {
 public:
  explicit LearnedIterator(const LearnedReader* t) : t_(t) {}

  bool Valid() const override { return valid_; }
  Slice key() const override { return key_; }
  Slice value() const override { return value_; }
  Status status() const override { return status_; }

  void SeekToFirst() override { MoveTo(0, /*forward=*/true); }
  void SeekToLast() override {
    if (t_->n() == 0) {
      valid_ = false;
      return;
    }
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
  // Makes entry i current, reading a chunk around it when not loaded.
  void MoveTo(uint64_t i, bool forward) {
    cur_ = i;
    valid_ = false;
    if (i >= t_->n()) return;
    if (i < w_.lo || i >= w_.hi) {
      // About 64 KiB per read, as LevelDB's compaction reads go.
      uint64_t per = std::max<uint64_t>(1, (64 << 10) / t_->MeanEntryBytes());
      uint64_t lo = forward ? i : (i + 1 > per ? i + 1 - per : 0);
      uint64_t hi = std::min<uint64_t>(t_->n(), lo + per);
      status_ = t_->Load(lo, hi, &w_);
      trace::Count(&trace::LookupTrace::segments_touched);
      if (!status_.ok()) return;
    }
    if (!t_->Entry(w_, i, &key_, &value_)) {
      status_ = Status::Corruption("learned table: bad entry");
      return;
    }
    valid_ = true;
  }

  const LearnedReader* const t_;
  Window w_;
  uint64_t cur_ = 0;
  bool valid_ = false;
  Slice key_, value_;
  Status status_;
};

Iterator* LearnedReader::NewIterator(const ReadOptions&) const {
  return new LearnedIterator(this);
}

}  // namespace

// ---------------------------------------------------------------- format

std::unique_ptr<LearnedTableFormat> LearnedTableFormat::Make(
    const LearnedTableConfig& c, std::string* err) {
  if (c.slr != "off" && c.slr != "binary" && c.slr != "eq" && c.slr != "ea") {
    *err = "slr: off, binary, eq or ea expected, got '" + c.slr + "'";
    return nullptr;
  }
  if (c.retrain && c.index == "native") {
    *err = "retrain trains a learned index over each table's keys: it needs a learned index, "
           "not index=native";
    return nullptr;
  }
  if (c.index == "native") {
    if (c.slr == "eq" || c.slr == "ea") {
      lidx::Options o{{"error_threshold", std::to_string(c.slr_error_threshold)}};
      if (!c.slr_last_mile.empty()) o["last_mile"] = c.slr_last_mile;
      o[c.slr == "eq" ? "segments" : "max_segments"] =
          std::to_string(c.slr == "eq" ? c.slr_segments : c.slr_max_segments);
      for (const auto& kv : c.knobs) o[kv.first] = kv.second;  // as MakeSlrModel does
      if (lidx::MakeIndex<uint64_t>("slr-" + c.slr, o, err) == nullptr) return nullptr;
    }
  } else {
    if (c.slr != "off") {
      *err = "slr=" + c.slr + " searches LevelDB's own index block: it needs index=native, not '" +
             c.index + "'";
      return nullptr;
    }
    Model probe;
    if (!Model::Make(c, 1000, &probe, err)) return nullptr;
  }
  return std::unique_ptr<LearnedTableFormat>(new LearnedTableFormat(c));
}

TableFileBuilder* LearnedTableFormat::NewBuilder(
    const Options& options, WritableFile* file,
    const TableFileInfo& info) const {
  // Inside a DB, options.comparator is the internal key comparator.
  const bool bytewise =
      std::strcmp(options.comparator->Name(), "leveldb.InternalKeyComparator") == 0 &&
      static_cast<const InternalKeyComparator*>(options.comparator)->user_comparator() ==
          BytewiseComparator();
  if (config_.index == "native" && (config_.slr == "off" || config_.slr == "binary")) {
    return NewNativeTableFileBuilder(options, file);  // LevelDB's own table
  }
  if (!bytewise) {
    // The key mapping needs bytewise order (LevelDB's upstream tests use
    // other comparators): such tables are LevelDB's own, and counted.
    LearnedTableStats s;
    s.native_tables_built = 1;
    AddBuilt(s);
    return NewNativeTableFileBuilder(options, file);
  }
  if (config_.index == "native") return NewSlrTableBuilder(this, options, file, info);
  return new LearnedBuilder(this, options, file, info);
}

Status LearnedTableFormat::Open(const Options& options, RandomAccessFile* file,
                                uint64_t file_size, const TableFileInfo& info,
                                TableReader** reader) const {
  *reader = nullptr;
  const std::string name = TableName(info.number);
  bool slr;
  Status ss = OpenSlrTable(this, options, file, file_size, info, &slr, reader);
  if (slr || !ss.ok()) return ss.ok() || !slr ? ss : Status::Corruption(name, ss.ToString());
  auto native = [&] {
    return config_.slr == "binary"
               ? OpenBinaryTable(this, options, file, file_size, info, reader)
               : OpenNativeTableReader(options, file, file_size, reader);
  };
  if (file_size < kFooterSize) return native();
  char buf[kFooterSize];
  Slice in;
  Status s = file->Read(file_size - kFooterSize, kFooterSize, &in, buf);
  if (!s.ok()) return s;
  if (in.size() != kFooterSize) return Status::Corruption(name, "truncated footer");
  bool ours;
  Footer f;
  s = Footer::DecodeFrom(in.data(), &f, &ours);
  if (!ours) return native();
  if (!s.ok()) return Status::Corruption(name, s.ToString());
  const uint64_t meta_len =
      uint64_t{f.prefix_len} + f.model_len + f.offsets_len + f.keys_len + f.filter_len;
  const bool keep_keys = (f.flags & kFlagKeepKeys) != 0;
  const bool strings = (f.flags & kFlagStringIndex) != 0;
  if (f.version != kFormatVersion ||
      f.entries_bytes + meta_len + kFooterSize != file_size ||
      (!keep_keys && f.entries_bytes != f.n * f.slot_width) ||
      (keep_keys && f.offsets_len != 8 * (f.n + 1)) ||
      (keep_keys && !strings && f.keys_len != 8 * f.n)) {
    return Status::Corruption(name, "learned table footer does not match the file");
  }
  std::string meta(meta_len, '\0');
  Slice m;
  s = file->Read(f.entries_bytes, meta_len, &m, &meta[0]);
  if (!s.ok()) return s;
  if (m.size() != meta_len) return Status::Corruption(name, "truncated model");
  if (crc32c::Unmask(f.meta_crc) != crc32c::Value(m.data(), m.size())) {
    return Status::Corruption(name, "learned table model checksum mismatch");
  }
  // retrain: a table this process did not build is searched with a model
  // of this configuration trained over its keys (Retrain() did it before
  // the lookups; a table it missed is trained here, and counted).
  std::shared_ptr<const TableModel> trained;
  if (config_.retrain && !BuiltHere(info.number)) {
    if (keep_keys != config_.keep_keys) return Status::InvalidArgument(LayoutMismatch(name, keep_keys));
    trained = Retrained(info.number);
    if (trained == nullptr) {
      s = TrainTable(file, file_size, info.number, /*on_first_open=*/true, &trained);
      if (!s.ok()) return s;
    }
  }
  auto stored = std::make_shared<TableModel>();
  const char* p = m.data();
  stored->prefix.assign(p, f.prefix_len);
  p += f.prefix_len;
  Model& model = stored->model;
  std::string err;
  lidx::Status ls;
  if (trained != nullptr) {
    // The stored model is not used (its checksum was verified above).
  } else if (strings) {
    model.strings = lidx::MakeStringIndex("lits", {}, &err);
    ls = model.strings->Deserialize(std::string_view(p, f.model_len));
  } else {
    // The serialized header names its index; build an empty one of that id.
    std::string_view blob(p, f.model_len);
    for (const std::string& id : lidx::RegisteredIds()) {
      auto probe = lidx::MakeIndex<uint64_t>(id, {}, &err);
      if (probe && probe->Deserialize(blob).ok()) {
        model.ints = std::move(probe);
        break;
      }
    }
    if (!model.ints) ls = lidx::Status::Error("no index deserializes the model");
  }
  if (!ls.ok()) return Status::Corruption(name, "learned table model: " + ls.message());
  p += f.model_len;
  std::vector<uint64_t> offsets;
  if (keep_keys) {
    offsets.resize(f.n + 1);
    for (uint64_t i = 0; i <= f.n; i++) offsets[i] = DecodeFixed64(p + 8 * i);
    p += f.offsets_len;
    for (uint64_t i = 0; i < f.n; i++) {
      if (offsets[i] >= offsets[i + 1]) {
        return Status::Corruption(name, "learned table offsets not increasing");
      }
    }
    if (offsets[f.n] != f.entries_bytes) {
      return Status::Corruption(name, "learned table offsets do not end the entries");
    }
    if (!strings && trained == nullptr) {
      stored->keys.resize(f.n);
      for (uint64_t i = 0; i < f.n; i++) stored->keys[i] = DecodeFixed64(p + 8 * i);
    }
  }
  p += f.keys_len;
  std::string filter(p, f.filter_len);
  *reader = new LearnedReader(this, options, file, info.number, f,
                              trained != nullptr ? trained : std::move(stored),
                              std::move(offsets), std::move(filter));
  return Status::OK();
}

// ---------------------------------------------------------------- retrain

std::string LearnedTableFormat::LayoutMismatch(const std::string& table, bool keep_keys) const {
  return table + " was written with keep_keys=" + (keep_keys ? "true" : "false") +
         " and retrain asks keep_keys=" + (config_.keep_keys ? "true" : "false") +
         ": keep_keys fixes the table layout (packed or fixed-size entries), so a retrained "
         "index must use the load's keep_keys";
}

Status LearnedTableFormat::TrainTable(RandomAccessFile* file, uint64_t file_size,
                                      uint64_t number, bool on_first_open,
                                      std::shared_ptr<const TableModel>* out) const {
  const uint64_t t0 = Nanos();
  std::vector<std::string> user_keys;
  bool keep_keys = false;
  Status s = ReadLearnedTableUserKeys(file, file_size, &user_keys, &keep_keys);
  if (s.IsNotSupportedError()) return Status::OK();  // not a learned table: *out stays null
  if (!s.ok()) return Status::Corruption(TableName(number), s.ToString());
  if (keep_keys != config_.keep_keys) {
    return Status::InvalidArgument(LayoutMismatch(TableName(number), keep_keys));
  }
  const uint64_t t1 = Nanos();
  const uint64_t n = user_keys.size();
  auto tm = std::make_shared<TableModel>();
  if (n > 0) tm->prefix = CommonPrefix(user_keys.front(), user_keys.back());
  std::vector<std::string_view> keys(n);
  for (uint64_t i = 0; i < n; i++) keys[i] = std::string_view(user_keys[i]).substr(tm->prefix.size());
  std::vector<uint64_t> mapped;
  std::string err;
  lidx::Status ls = TrainModel(config_, keys, &tm->model, &mapped, &err);
  const uint64_t t2 = Nanos();
  std::lock_guard<std::mutex> l(mu_);
  if (!ls.ok()) {
    retrain_stats_.failures++;
    return Status::NotSupported(CannotBuild(config_, number, n), ls.message());
  }
  if (config_.keep_keys && tm->model.ints) tm->keys = std::move(mapped);
  retrain_stats_.tables++;
  // Before Retrain() is done, a table opened first (by a compaction that
  // DB::Open scheduled) is part of the pass: only later ones are counted.
  retrain_stats_.on_first_open += on_first_open && retrain_done_ ? 1 : 0;
  retrain_stats_.keys += n;
  retrain_stats_.read_nanos += t1 - t0;
  retrain_stats_.train_nanos += t2 - t1;
  retrain_stats_.segments +=
      tm->model.ints ? tm->model.ints->Stats().segments : tm->model.strings->Stats().segments;
  retrained_[number] = tm;
  *out = std::move(tm);
  return Status::OK();
}

Status LearnedTableFormat::Retrain(Env* env, const std::string& dbname,
                                   const std::vector<uint64_t>& numbers) const {
  if (!config_.retrain) return Status::InvalidArgument("retrain is off");
  for (uint64_t number : numbers) {
    if (Retrained(number) != nullptr || BuiltHere(number)) continue;  // already this config's
    const std::string path = dbname + "/" + TableName(number);
    uint64_t size = 0;
    RandomAccessFile* file = nullptr;
    Status s = env->GetFileSize(path, &size);
    if (s.ok()) s = env->NewRandomAccessFile(path, &file);
    std::shared_ptr<const TableModel> tm;
    if (s.ok()) s = TrainTable(file, size, number, /*on_first_open=*/false, &tm);
    delete file;
    if (!s.ok()) return s;
    if (tm == nullptr) {
      std::lock_guard<std::mutex> l(mu_);
      retrain_stats_.native_tables++;  // LevelDB's own table: nothing to train
    }
  }
  std::lock_guard<std::mutex> l(mu_);
  retrain_done_ = true;
  return Status::OK();
}

std::shared_ptr<const TableModel> LearnedTableFormat::Retrained(uint64_t number) const {
  std::lock_guard<std::mutex> l(mu_);
  auto it = retrained_.find(number);
  return it == retrained_.end() ? nullptr : it->second;
}

void LearnedTableFormat::NoteBuiltHere(uint64_t number) const {
  std::lock_guard<std::mutex> l(mu_);
  built_here_.insert(number);
}

bool LearnedTableFormat::BuiltHere(uint64_t number) const {
  std::lock_guard<std::mutex> l(mu_);
  return built_here_.count(number) > 0;
}

LearnedTableFormat::RetrainStats LearnedTableFormat::GetRetrainStats() const {
  std::lock_guard<std::mutex> l(mu_);
  RetrainStats r = retrain_stats_;
  for (const auto& [number, tm] : retrained_) {
    r.model_bytes += tm->model.MemoryBytes() + tm->keys.capacity() * 8;
  }
  return r;
}

lidx::Status TrainLearnedIndex(const LearnedTableConfig& c, const std::vector<uint64_t>& mapped,
                               std::unique_ptr<lidx::Index<uint64_t>>* out, std::string* err) {
  out->reset();
  Model m;
  m.ints = lidx::MakeIndex<uint64_t>(c.index, KnobsFor(c, mapped.size()), err);
  if (m.ints == nullptr) return lidx::Status::Error(*err);
  lidx::Status s = m.ints->Build(mapped.data(), mapped.size(), nullptr);
  if (s.ok() && c.index == "rmi" && c.knobs.count("leaves") == 0) {
    s = TuneRmiLeaves(c, mapped, &m, err);
  }
  if (s.ok()) *out = std::move(m.ints);
  return s;
}

Status ReadLearnedTableUserKeys(RandomAccessFile* file, uint64_t file_size,
                                std::vector<std::string>* user_keys, bool* keep_keys) {
  user_keys->clear();
  if (file_size < kFooterSize) return Status::NotSupported("not a learned table");
  char buf[kFooterSize];
  Slice in;
  Status s = file->Read(file_size - kFooterSize, kFooterSize, &in, buf);
  if (!s.ok()) return s;
  bool ours;
  Footer f;
  if (in.size() == kFooterSize) s = Footer::DecodeFrom(in.data(), &f, &ours);
  if (!s.ok()) return s;
  if (in.size() != kFooterSize || !ours) return Status::NotSupported("not a learned table");
  if (keep_keys != nullptr) *keep_keys = (f.flags & kFlagKeepKeys) != 0;
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

LearnedTableStats LearnedTableFormat::Stats() const {
  std::lock_guard<std::mutex> l(mu_);
  return stats_;
}

std::map<uint64_t, size_t> LearnedTableFormat::OpenTableIndexBytes() const {
  std::lock_guard<std::mutex> l(mu_);
  std::map<uint64_t, size_t> bytes;
  for (const auto& [number, o] : open_) bytes[number] = o.bytes;
  return bytes;
}

void LearnedTableFormat::AddBuilt(const LearnedTableStats& s) const {
  std::lock_guard<std::mutex> l(mu_);
  stats_.tables_built += s.tables_built;
  stats_.native_tables_built += s.native_tables_built;
  stats_.build_failures += s.build_failures;
  stats_.segments_built += s.segments_built;
  stats_.model_bytes_written += s.model_bytes_written;
  stats_.train_nanos += s.train_nanos;
  stats_.model_write_nanos += s.model_write_nanos;
  stats_.slr_block_models += s.slr_block_models;
  stats_.slr_abandoned += s.slr_abandoned;
}

void LearnedTableFormat::Register(uint64_t number, size_t bytes) const {
  std::lock_guard<std::mutex> l(mu_);
  OpenTable& o = open_[number];
  o.bytes = bytes;
  o.readers++;
}

void LearnedTableFormat::Unregister(uint64_t number) const {
  std::lock_guard<std::mutex> l(mu_);
  auto it = open_.find(number);
  if (it != open_.end() && --it->second.readers == 0) open_.erase(it);
}

}  // namespace leveldb

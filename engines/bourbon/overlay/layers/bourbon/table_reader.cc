// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
#include "layers/bourbon/table_reader.h"

#include "db/dbformat.h"
#include "db/filename.h"
#include "layers/bourbon/level_hint.h"
#include "layers/bourbon/model_iterator.h"
#include "layers/bourbon/path_trace.h"
#include "layers/hooks/lookup_trace.h"

namespace leveldb {
namespace bourbon {

namespace {

// Wraps handle_result to tell positive internal lookups (the table held
// the user key) from negative ones.
struct Saver {
  void* arg;
  HandleResult handle_result;
  Slice user_key;
  const Comparator* ucmp;
  bool positive;
  static void Handle(void* p, const Slice& ikey, const Slice& value) {
    Saver* s = static_cast<Saver*>(p);
    s->positive = ikey.size() >= 8 &&
                  s->ucmp->Compare(ExtractUserKey(ikey), s->user_key) == 0;
    (*s->handle_result)(s->arg, ikey, value);
  }
};

class Reader : public TableReader {
 public:
  Reader(TableReader* native, RandomAccessFile* file,
         std::shared_ptr<FileState> state, const Comparator* ucmp,
         Cache* block_cache, ScanCounters* scans)
      : native_(native),
        file_(file),
        state_(std::move(state)),
        ucmp_(ucmp),
        block_cache_(block_cache),
        cache_id_(block_cache ? block_cache->NewId() : 0),
        scans_(scans) {}

  // A learned table seeks with its model (§5.3); an unlearned one (or one
  // learned after the iterator was made) with LevelDB's index.
  Iterator* NewIterator(const ReadOptions& options) const override {
    const FileModel* m = state_->model.load(std::memory_order_acquire);
    scans_->table_iterators[m ? 1 : 0].fetch_add(1, std::memory_order_relaxed);
    if (m == nullptr) return native_->NewIterator(options);
    auto predict = [m](const Slice& user_key) {
      return Predict(m->plr, m->layout->entries(), m->layout->key_length(),
                     user_key);
    };
    return new ModelIterator(m->layout.get(), predict, file_, options,
                             block_cache_, cache_id_, &scans_->model_seeks);
  }
  uint64_t ApproximateOffsetOf(const Slice& key) const override {
    return native_->ApproximateOffsetOf(key);
  }
  size_t IndexMemoryBytes() const override {
    const FileModel* m = state_->model.load(std::memory_order_acquire);
    return native_->IndexMemoryBytes() +
           (m ? m->plr.MemoryBytes() + m->layout->MemoryBytes() : 0);
  }

  Status InternalGet(const ReadOptions& options, const Slice& k, void* arg,
                     HandleResult handle_result) override {
    const uint64_t t0 = trace::Ticks();
    Saver saver{arg, handle_result, ExtractUserKey(k), ucmp_, false};
    int path;
    Status s;
    if (tls_hint.valid && tls_hint.file == state_->number) {
      tls_hint.valid = false;
      path = kLevelModelPath;
      s = tls_hint.layout->Get(path, options, file_, k, tls_hint.lo,
                               tls_hint.hi, &saver, &Saver::Handle);
    } else if (const FileModel* m =
                   state_->model.load(std::memory_order_acquire)) {
      path = kFileModelPath;
      lidx::Bound b;
      {
        ScopedPathStep step(path, kModelLookup);
        b = Predict(m->plr, m->layout->entries(), m->layout->key_length(),
                    saver.user_key);
      }
      s = m->layout->Get(path, options, file_, k, b.lo, b.hi, &saver,
                         &Saver::Handle);
    } else {
      path = kBaselinePath;
      tls_hint.valid = false;
      if (trace::Tracing()) {
        // The hooks time LevelDB's own steps; attribute them to this path.
        static const int kHook[] = {trace::kLoadIndex, trace::kIndexSearch,
                                    trace::kLoadData, trace::kSearchData};
        static const PathStep kMine[] = {kLoadIndex, kSearchIndex, kLoadData,
                                         kSearchData};
        trace::LookupTrace& hooks = trace::ThisThread();
        uint64_t ticks[4], calls[4];
        for (int i = 0; i < 4; i++) {
          ticks[i] = hooks.ticks[kHook[i]];
          calls[i] = hooks.calls[kHook[i]];
        }
        s = native_->InternalGet(options, k, &saver, &Saver::Handle);
        PathTrace& mine = ThisThreadPaths();
        for (int i = 0; i < 4; i++) {
          mine.ticks[path][kMine[i]] += hooks.ticks[kHook[i]] - ticks[i];
          mine.calls[path][kMine[i]] += hooks.calls[kHook[i]] - calls[i];
        }
      } else {
        s = native_->InternalGet(options, k, &saver, &Saver::Handle);
      }
    }
    if (s.IsCorruption()) {  // LevelDB's and the layout's messages do not name the table
      s = Status::Corruption(TableFileName("", state_->number).substr(1), s.ToString());
    }
    const uint64_t dt = trace::Ticks() - t0;
    if (saver.positive) {
      state_->positive[path].fetch_add(1, std::memory_order_relaxed);
      state_->positive_ticks[path].fetch_add(dt, std::memory_order_relaxed);
    } else {
      state_->negative[path].fetch_add(1, std::memory_order_relaxed);
      state_->negative_ticks[path].fetch_add(dt, std::memory_order_relaxed);
    }
    if (trace::Tracing()) {
      PathTrace& t = ThisThreadPaths();
      t.ticks[path][kTable] += dt;
      t.calls[path][kTable]++;
      (saver.positive ? t.positive : t.negative)[path]++;
    }
    return s;
  }

 private:
  std::unique_ptr<TableReader> native_;
  RandomAccessFile* const file_;  // owned by the table cache
  const std::shared_ptr<FileState> state_;
  const Comparator* const ucmp_;
  Cache* const block_cache_;
  const uint64_t cache_id_;  // this reader's blocks in block_cache_
  ScanCounters* const scans_;
};

}  // namespace

TableReader* NewTableReader(TableReader* native, RandomAccessFile* file,
                            std::shared_ptr<FileState> state,
                            const Comparator* ucmp, Cache* block_cache,
                            ScanCounters* scans) {
  return new Reader(native, file, std::move(state), ucmp, block_cache, scans);
}

}  // namespace bourbon
}  // namespace leveldb

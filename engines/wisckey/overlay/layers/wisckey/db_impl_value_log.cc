// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
//
// DBImpl's public reads with key-value separation: LevelDB's own Get and
// NewIterator (renamed GetStored and NewStoredIterator by the wisckey patch)
// return value pointers; these turn them into values, outside the mutex.
#include "db/db_impl.h"
#include "layers/wisckey/value_log.h"

// Over engines/leveldb-hooks (bourbon), the value-log read is the lookup's
// ReadValue step (Figures 2 and 8); plain wisckey has no step timers.
#if __has_include("layers/hooks/lookup_trace.h")
#include "layers/hooks/lookup_trace.h"
#define WISCKEY_READ_VALUE_STEP \
  trace::ScopedStep read_value_step(trace::kReadValue)
#else
#define WISCKEY_READ_VALUE_STEP
#endif

namespace leveldb {

Status DBImpl::Get(const ReadOptions& options, const Slice& key,
                   std::string* value) {
  Status s = GetStored(options, key, value);
  if (s.ok()) {
    WISCKEY_READ_VALUE_STEP;
    s = vlog_->Resolve(key, options.verify_checksums, value);
  }
  return s;
}

Iterator* DBImpl::NewIterator(const ReadOptions& options) {
  return NewValueResolvingIterator(NewStoredIterator(options), vlog_,
                                   options.verify_checksums);
}

}  // namespace leveldb

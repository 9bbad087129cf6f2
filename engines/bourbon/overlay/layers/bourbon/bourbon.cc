// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
#include "layers/bourbon/bourbon.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <random>
#include <sstream>

#include "db/dbformat.h"
#include "db/filename.h"
#include "db/version_edit.h"
#include "layers/bourbon/file_layout.h"
#include "layers/bourbon/file_state.h"
#include "layers/bourbon/level_hint.h"
#include "layers/bourbon/models.h"
#include "layers/bourbon/path_trace.h"
#include "layers/bourbon/table_reader.h"
#include "layers/hooks/lookup_trace.h"
#include "leveldb/cache.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "lidx/key_map.h"
#include "lidx/plr.h"
#include "util/crc32c.h"

namespace leveldb {
namespace bourbon {

using lidx::u128;

namespace {

uint64_t NanosSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

double Mean(uint64_t ticks, uint64_t n) {
  return n ? trace::TicksToNanos(ticks) / n : 0.0;
}

// LevelDB's table and block errors do not name the table; ours do.
Status NamingTable(const Status& s, uint64_t number) {
  if (!s.IsCorruption()) return s;
  return Status::Corruption(TableFileName("", number).substr(1), s.ToString());
}

}  // namespace

Bourbon::Bourbon(const Config& config, const Options& options,
                 const std::string& dbname)
    : config_(config),
      options_(options),
      dbname_(dbname),
      icmp_(options.comparator),
      env_(options.env),
      scans_(new ScanCounters) {
  for (auto& g : level_generation_) g.store(0);
  start_us_ = env_->NowMicros();
  Calibrate();
}

Bourbon::~Bourbon() { Detach(); }

void Bourbon::Calibrate() {
  // The largest table holds about max_file_size / 43 entries (16-byte keys,
  // 8-byte sequence, 16-byte pointer, 3 header bytes). Learning it reads
  // and checksums its bytes and fits the PLR over its keys.
  const size_t n = std::max<size_t>(config_.max_file_size / 43, 16);
  std::vector<u128> keys(n);
  std::mt19937_64 rng(42);
  u128 k = 0;
  for (auto& x : keys) x = k += 1 + rng() % 1000;
  std::string bytes(config_.max_file_size, 'x');
  uint64_t best = std::numeric_limits<uint64_t>::max();
  for (int rep = 0; rep < 3; rep++) {
    auto t0 = std::chrono::steady_clock::now();
    volatile uint32_t crc = crc32c::Value(bytes.data(), bytes.size());
    (void)crc;
    lidx::PlrIndex<u128> plr;
    Train(&plr, keys, config_.error_bound);
    uint64_t ns = NanosSince(t0);
    best = std::min(best, ns);
  }
  calibration_ns_ = best;
  calibration_ns_per_key_ = static_cast<double>(best) / n;
  train_ns_per_key_.store(calibration_ns_per_key_);
  t_wait_ns_.store(config_.t_wait_seconds >= 0
                       ? static_cast<uint64_t>(config_.t_wait_seconds * 1e9)
                       : best);
}

void Bourbon::Attach(DB* db, bool start_learner) {
  // The listing is read outside mu_ (the hooks take mu_ under the DB's
  // mutex, so the other order could deadlock), and a compaction the open
  // scheduled may log its edit in between: its file events are then newer
  // than the listing, which would put deleted files back and moved ones at
  // their old levels. Such a listing is read again.
  for (;;) {
    const uint64_t events = FileEventsSeen();
    std::string sstables;
    db->GetProperty("leveldb.sstables", &sstables);
    if (AttachFiles(sstables, events)) break;
  }
  if (start_learner) StartLearner();
}

uint64_t Bourbon::FileEventsSeen() const {
  std::lock_guard<std::mutex> l(mu_);
  return file_events_;
}

bool Bourbon::AttachFiles(const std::string& sstables, uint64_t events_before) {
  std::istringstream in(sstables);
  std::string line;
  int level = -1;
  const uint64_t now = env_->NowMicros();
  std::lock_guard<std::mutex> l(mu_);
  if (file_events_ != events_before) return false;
  while (std::getline(in, line)) {
    unsigned long long number, size;
    if (std::sscanf(line.c_str(), "--- level %d ---", &level) == 1) continue;
    if (std::sscanf(line.c_str(), " %llu:%llu[", &number, &size) != 2) continue;
    std::shared_ptr<FileState>& f = live_[number];
    if (!f) {
      f = std::make_shared<FileState>();
      f->number = number;
      f->created_us = now;
    }
    f->level.store(level);
    f->size = size;
  }
  stop_ = false;
  return true;
}

void Bourbon::StartLearner() {
  if (config_.learning != Learning::kOffline && !learner_.joinable()) {
    learner_ = std::thread(&Bourbon::LearnerLoop, this);
  }
}

void Bourbon::Detach() {
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (learner_.joinable()) learner_.join();
}

TableFileBuilder* Bourbon::NewBuilder(const Options& options,
                                      WritableFile* file,
                                      const TableFileInfo&) const {
  // One entry per restart point, so that a position is an offset
  // (FileLayout): the format's own layout, whatever the DB was opened with.
  Options layout = options;
  layout.block_restart_interval = 1;
  return NewNativeTableFileBuilder(layout, file);
}

std::shared_ptr<FileState> Bourbon::StateOf(uint64_t number) const {
  std::lock_guard<std::mutex> l(mu_);
  std::shared_ptr<FileState>& f = live_[number];
  if (!f) {
    // Opened before LogAndApply announced it (a fresh compaction output is
    // verified first): OnFileCreated fills in its level.
    f = std::make_shared<FileState>();
    f->number = number;
    f->created_us = env_->NowMicros();
  }
  return f;
}

Status Bourbon::Open(const Options& options, RandomAccessFile* file,
                     uint64_t file_size, const TableFileInfo& info,
                     TableReader** reader) const {
  *reader = nullptr;
  table_options_.store(&options, std::memory_order_release);
  TableReader* native = nullptr;
  Status s = OpenNativeTableReader(options, file, file_size, &native);
  if (!s.ok()) return NamingTable(s, info.number);
  std::shared_ptr<FileState> state;
  if (config_.learning == Learning::kOnOpen) {
    state = std::make_shared<FileState>();
    state->number = info.number;
    auto model = std::make_unique<FileModel>();
    std::vector<u128> keys;
    Status ls = FileLayout::Read(options, file, file_size, &keys, &model->layout);
    if (ls.ok()) {
      Train(&model->plr, keys, config_.error_bound);
      state->owner = std::move(model);
      state->model.store(state->owner.get(), std::memory_order_release);
    } else if (ls.IsCorruption()) {
      // Learning read every block verified. A damaged index block is the
      // table's map: refused, as LevelDB refuses it under paranoid_checks.
      // A damaged data block is an error for the reads that touch it only,
      // as in LevelDB (RepairDB salvages the rest): the table stays on
      // LevelDB's reader, unlearned, as LearnFile leaves it.
      Status is = FileLayout::VerifyIndex(file, file_size);
      if (!is.ok()) {
        delete native;
        return NamingTable(is, info.number);
      }
    }
  } else {
    state = StateOf(info.number);
  }
  const InternalKeyComparator* icmp =
      static_cast<const InternalKeyComparator*>(options.comparator);
  *reader = NewTableReader(native, file, std::move(state), icmp->user_comparator(),
                           options.block_cache, scans_.get());
  return s;
}

void Bourbon::LevelChanged(int level, uint64_t now_us) {
  if (level < 0 || level >= 7) return;
  level_changes_[level]++;
  level_generation_[level].fetch_add(1, std::memory_order_acq_rel);
  level_changed_us_[level] = now_us;
  std::atomic_store(&levels_[level], std::shared_ptr<LevelModel>());
}

void Bourbon::OnFileCreated(const FileEvent& e) {
  {
    std::lock_guard<std::mutex> l(mu_);
    file_events_++;
    std::shared_ptr<FileState> f;
    for (auto it = graveyard_.begin(); it != graveyard_.end(); ++it) {
      if ((*it)->number == e.number) {  // moved to another level, same file
        f = *it;
        graveyard_.erase(it);
        f->deleted_us = 0;
        break;
      }
    }
    if (f) {
      live_[e.number] = f;
    } else {
      std::shared_ptr<FileState>& slot = live_[e.number];
      if (!slot) {
        slot = std::make_shared<FileState>();
        slot->number = e.number;
      }
      f = slot;
      f->created_us = e.micros;
      f->size = e.file_size;
    }
    f->level.store(e.level);
    LevelChanged(e.level, e.micros);
  }
  cv_.notify_all();
}

void Bourbon::OnFileDeleted(const FileEvent& e) {
  std::lock_guard<std::mutex> l(mu_);
  file_events_++;
  FinishDeleted(e.micros);
  auto it = live_.find(e.number);
  if (it != live_.end()) {
    it->second->deleted_us = e.micros;
    graveyard_.push_back(it->second);
    live_.erase(it);
  }
  LevelChanged(e.level, e.micros);
}

void Bourbon::FinishDeleted(uint64_t now_us) {
  // Deletions of an earlier edit (a move deletes and creates in one edit,
  // with one time stamp) are final.
  for (auto it = graveyard_.begin(); it != graveyard_.end();) {
    if ((*it)->deleted_us < now_us) {
      FileState& f = **it;
      f.deleted = true;
      if (std::string(f.state) == "queued" || std::string(f.state) == "learning") {
        wasted_++;
      }
      if (std::string(f.state) == "waiting" || std::string(f.state) == "queued") {
        f.state = "deleted_unlearned";
      }
      const int level = f.level.load();
      if (level >= 0 && level < 7) {
        FinishedLevel& agg = finished_levels_[level];
        uint64_t n = 0, p = 0;
        for (int path = 0; path < kNumPaths; path++) {
          agg.ticks[0][path] += f.negative_ticks[path];
          agg.lookups[0][path] += f.negative[path];
          agg.ticks[1][path] += f.positive_ticks[path];
          agg.lookups[1][path] += f.positive[path];
          n += f.negative[path];
          p += f.positive[path];
        }
        // Very short-lived files (under T_wait) do not predict lookups.
        if (f.deleted_us >= f.created_us + t_wait_ns_.load() / 1000) {
          agg.count++;
          agg.size += f.size;
          agg.negative += n;
          agg.positive += p;
        }
      }
      finished_.push_back(*it);
      it = graveyard_.erase(it);
    } else {
      ++it;
    }
  }
}

double Bourbon::EstimateBenefitMinusCost(const FileState& f, double* benefit,
                                         double* cost) const {
  const int level = f.level.load();
  if (level < 0 || level >= 7) {
    *benefit = *cost = 0;
    return std::numeric_limits<double>::infinity();
  }
  // Files of this level that lived their lives (FinishDeleted's sums).
  const FinishedLevel& agg = finished_levels_[level];
  const uint64_t count = agg.count, size = agg.size, nn = agg.negative, np = agg.positive;
  if (count < static_cast<uint64_t>(config_.cba_min_finished)) {
    *benefit = *cost = 0;
    return std::numeric_limits<double>::infinity();  // bootstrapping: learn
  }
  // Model and baseline path times of this level's files, finished or live.
  uint64_t mn_ticks = agg.ticks[0][kFileModelPath], mn = agg.lookups[0][kFileModelPath];
  uint64_t mp_ticks = agg.ticks[1][kFileModelPath], mp = agg.lookups[1][kFileModelPath];
  uint64_t bn_ticks = agg.ticks[0][kBaselinePath], bn = agg.lookups[0][kBaselinePath];
  uint64_t bp_ticks = agg.ticks[1][kBaselinePath], bp = agg.lookups[1][kBaselinePath];
  for (const auto& kv : live_) {
    const FileState& g = *kv.second;
    if (g.level.load() != level) continue;
    mn_ticks += g.negative_ticks[kFileModelPath];
    mn += g.negative[kFileModelPath];
    mp_ticks += g.positive_ticks[kFileModelPath];
    mp += g.positive[kFileModelPath];
    bn_ticks += g.negative_ticks[kBaselinePath];
    bn += g.negative[kBaselinePath];
    bp_ticks += g.positive_ticks[kBaselinePath];
    bp += g.positive[kBaselinePath];
  }
  if (mn + mp == 0) {
    *benefit = *cost = 0;
    return std::numeric_limits<double>::infinity();  // no model times yet
  }
  // This file's own baseline times while it waited, else the level's.
  const uint64_t own_n = f.negative[kBaselinePath], own_p = f.positive[kBaselinePath];
  const double tnb = own_n ? Mean(f.negative_ticks[kBaselinePath], own_n) : Mean(bn_ticks, bn);
  const double tpb = own_p ? Mean(f.positive_ticks[kBaselinePath], own_p) : Mean(bp_ticks, bp);
  const double tnm = mn ? Mean(mn_ticks, mn) : tnb;
  const double tpm = mp ? Mean(mp_ticks, mp) : tpb;
  const double scale = size ? static_cast<double>(f.size) * count / size : 1.0;
  const double n_n = static_cast<double>(nn) / count * scale;
  const double n_p = static_cast<double>(np) / count * scale;
  *benefit = (tnb - tnm) * n_n + (tpb - tpm) * n_p;
  const double bytes_per_entry =
      learned_entries_ ? static_cast<double>(learned_bytes_) / learned_entries_ : 43.0;
  *cost = train_ns_per_key_.load() * (f.size / bytes_per_entry);
  return *benefit - *cost;
}

void Bourbon::Triage(uint64_t now_us) {
  const uint64_t t_wait_us = t_wait_ns_.load() / 1000;
  for (auto& kv : live_) {
    FileState& f = *kv.second;
    if (f.triaged || f.level.load() < 0 || f.created_us + t_wait_us > now_us) {
      continue;
    }
    f.triaged = true;
    if (config_.granularity == Granularity::kLevel) {
      f.state = "level_granularity";
      continue;
    }
    double priority;
    if (config_.learning == Learning::kAlways) {
      priority = -static_cast<double>(f.created_us);  // oldest first
    } else {
      priority = EstimateBenefitMinusCost(f, &f.benefit_ns, &f.cost_ns);
      if (priority <= 0) {
        f.state = "skipped";
        skipped_++;
        continue;
      }
      if (priority == std::numeric_limits<double>::infinity()) {
        priority = 1e300 - static_cast<double>(f.created_us);  // bootstrap
      }
    }
    f.state = "queued";
    f.queued_us = now_us;
    queue_.push_back({priority, f.number});
    std::push_heap(queue_.begin(), queue_.end());
  }
}

bool Bourbon::LearnFile(const std::shared_ptr<FileState>& f) {
  const Options* options = table_options_.load(std::memory_order_acquire);
  if (options == nullptr) return false;
  const auto t0 = std::chrono::steady_clock::now();
  RandomAccessFile* file = nullptr;
  Status s = env_->NewRandomAccessFile(TableFileName(dbname_, f->number), &file);
  std::unique_ptr<RandomAccessFile> owned(file);
  std::unique_ptr<FileModel> model(new FileModel);
  std::vector<u128> keys;
  if (s.ok()) s = FileLayout::Read(*options, file, f->size, &keys, &model->layout);
  if (s.ok()) {
    Train(&model->plr, keys, config_.error_bound);
  }
  const uint64_t ns = NanosSince(t0);
  std::lock_guard<std::mutex> l(mu_);
  if (f->model.load(std::memory_order_acquire) != nullptr) {
    // Learned meanwhile by another caller (LearnAll beside the learner).
    // Readers hold the installed model by a plain pointer, without a
    // reference, so it must stay as long as its FileState: replacing it
    // freed it under their lookups (the crash test's reopen failures).
    return false;
  }
  f->learn_ns = ns;
  learn_ns_total_ += ns;
  if (!s.ok()) {
    f->state = s.ToString().rfind("Not implemented", 0) == 0 ? "unlearnable" : "failed";
    unlearnable_++;
    return false;
  }
  if (f->deleted || f->deleted_us != 0) {
    f->state = "deleted_while_learning";
    return false;
  }
  f->entries = keys.size();
  f->segments = model->plr.Stats().segments;
  f->model_bytes = model->plr.MemoryBytes() + model->layout->MemoryBytes();
  f->filter_bytes = model->layout->FilterBytes();
  f->fixed_entry_size = model->layout->fixed_entry_size();
  f->state = "learned";
  learned_++;
  learned_entries_ += keys.size();
  learned_bytes_ += f->size;
  // C_model's per-key time: measured on every learning (a running mean).
  train_ns_per_key_.store(static_cast<double>(learn_ns_total_) /
                          std::max<uint64_t>(learned_entries_, 1));
  if (config_.t_wait_seconds < 0 && ns > t_wait_ns_.load()) t_wait_ns_.store(ns);
  f->owner = std::move(model);
  f->model.store(f->owner.get(), std::memory_order_release);
  return true;
}

bool Bourbon::LearnLevel(int level) {
  const Options* options = table_options_.load(std::memory_order_acquire);
  if (options == nullptr || level < 1) return false;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::shared_ptr<FileState>> files;
  uint64_t generation;
  {
    std::lock_guard<std::mutex> l(mu_);
    generation = level_generation_[level].load();
    for (auto& kv : live_) {
      if (kv.second->level.load() == level) files.push_back(kv.second);
    }
  }
  if (files.empty()) return false;
  auto model = std::make_shared<LevelModel>();
  model->generation = generation;
  std::vector<u128> keys;
  Status s;
  std::vector<std::pair<std::string, size_t>> order;
  for (size_t i = 0; i < files.size() && s.ok(); i++) {
    RandomAccessFile* file = nullptr;
    s = env_->NewRandomAccessFile(TableFileName(dbname_, files[i]->number), &file);
    std::unique_ptr<RandomAccessFile> owned(file);
    std::unique_ptr<FileLayout> layout;
    if (s.ok()) s = FileLayout::Read(*options, file, files[i]->size, nullptr, &layout);
    if (s.ok()) {
      order.emplace_back(layout->smallest(), i);
      model->layouts.push_back(std::move(layout));
    }
  }
  if (s.ok()) {
    std::sort(order.begin(), order.end(), [this](const auto& a, const auto& b) {
      return icmp_.Compare(a.first, b.first) < 0;
    });
    std::vector<std::unique_ptr<FileLayout>> sorted;
    model->starts.push_back(0);
    for (auto& [smallest, i] : order) {
      // Keys again, in level order (FileLayout::Read once more per file
      // would double the I/O; re-reading through the layout is simplest).
      RandomAccessFile* file = nullptr;
      s = env_->NewRandomAccessFile(TableFileName(dbname_, files[i]->number), &file);
      std::unique_ptr<RandomAccessFile> owned(file);
      std::unique_ptr<FileLayout> again;
      if (s.ok()) s = FileLayout::Read(*options, file, files[i]->size, &keys, &again);
      if (!s.ok()) break;
      model->numbers.push_back(files[i]->number);
      model->starts.push_back(keys.size());
      if (model->key_length == -1 && sorted.empty()) model->key_length = again->key_length();
      if (again->key_length() != model->key_length) model->key_length = -2;
      sorted.push_back(std::move(again));
    }
    model->layouts = std::move(sorted);
    if (model->key_length < 0) model->key_length = -1;
  }
  if (s.ok()) {
    model->n = keys.size();
    Train(&model->plr, keys, config_.error_bound);
  }
  const uint64_t ns = NanosSince(t0);
  std::lock_guard<std::mutex> l(mu_);
  level_learn_ns_[level] += ns;
  learn_ns_total_ += ns;
  if (!s.ok() || level_generation_[level].load() != generation) {
    level_failed_[level]++;  // the level changed while it was learned
    return false;
  }
  level_learnings_[level]++;
  level_segments_[level] = model->plr.Stats().segments;
  level_model_bytes_[level] = model->plr.MemoryBytes() +
                              model->starts.capacity() * 8 +
                              model->numbers.capacity() * 8;
  for (auto& l2 : model->layouts) level_model_bytes_[level] += l2->MemoryBytes();
  std::atomic_store(&levels_[level], model);
  return true;
}

bool Bourbon::FindFileInLevel(int level, const std::vector<FileMetaData*>& files,
                              const Slice& internal_key, uint32_t* index) {
  tls_hint.valid = false;
  if (config_.granularity != Granularity::kLevel || level < 1 || level >= 7) {
    return false;
  }
  std::shared_ptr<LevelModel> m = std::atomic_load(&levels_[level]);
  if (!m || m->generation != level_generation_[level].load(std::memory_order_acquire) ||
      files.size() != m->numbers.size()) {
    return false;
  }
  lidx::Bound b;
  {
    ScopedPathStep step(kLevelModelPath, kModelLookup);
    b = Predict(m->plr, m->n, m->key_length, ExtractUserKey(internal_key));
  }
  if (b.lo >= m->n) {
    *index = static_cast<uint32_t>(files.size());
    return true;
  }
  size_t fi = std::upper_bound(m->starts.begin(), m->starts.end(), b.lo) -
              m->starts.begin() - 1;
  // The first file whose largest key is >= internal_key: exact, as FindFile.
  while (fi < files.size() &&
         icmp_.Compare(files[fi]->largest.Encode(), internal_key) < 0) {
    fi++;
  }
  if (fi < files.size()) {
    // The version the lookup reads must hold the files the model learned.
    if (files[fi]->number != m->numbers[fi] ||
        (fi > 0 && files[fi - 1]->number != m->numbers[fi - 1])) {
      return false;
    }
    const uint64_t start = m->starts[fi], end = m->starts[fi + 1];
    tls_hint.valid = true;
    tls_hint.file = m->numbers[fi];
    tls_hint.lo = b.lo > start ? b.lo - start : 0;
    tls_hint.hi = b.hi >= start ? std::min<uint64_t>(b.hi, end - 1) - start : 0;
    if (tls_hint.hi < tls_hint.lo) tls_hint.hi = tls_hint.lo;
    tls_hint.layout = m->layouts[fi].get();
    tls_hint.model = std::move(m);
  }
  *index = static_cast<uint32_t>(fi);
  return true;
}

void Bourbon::LearnerLoop() {
  std::unique_lock<std::mutex> lk(mu_);
  while (!stop_) {
    const uint64_t now = env_->NowMicros();
    FinishDeleted(now > 1000000 ? now - 1000000 : 0);
    Triage(now);
    if (config_.granularity == Granularity::kLevel) {
      int todo = -1;
      for (int level = 1; level < 7 && todo < 0; level++) {
        bool has_files = false;
        for (auto& kv : live_) has_files |= kv.second->level.load() == level;
        if (has_files && !std::atomic_load(&levels_[level]) &&
            level_changed_us_[level] + t_wait_ns_.load() / 1000 <= now &&
            level_attempted_generation_[level] != level_generation_[level].load()) {
          todo = level;
        }
      }
      if (todo > 0) {
        level_attempted_generation_[todo] = level_generation_[todo].load();
        lk.unlock();
        LearnLevel(todo);
        lk.lock();
        continue;
      }
    } else if (!queue_.empty()) {
      std::pop_heap(queue_.begin(), queue_.end());
      const uint64_t number = queue_.back().number;
      queue_.pop_back();
      auto it = live_.find(number);
      if (it == live_.end()) continue;  // deleted while queued
      std::shared_ptr<FileState> f = it->second;
      if (f->model.load(std::memory_order_acquire) != nullptr) {
        continue;  // LearnAll was first
      }
      f->state = "learning";
      f->learn_start_us = now;
      queue_wait_ns_total_ += (now - f->queued_us) * 1000;
      lk.unlock();
      LearnFile(f);
      lk.lock();
      continue;
    }
    cv_.wait_for(lk, std::chrono::milliseconds(2));
  }
}

void Bourbon::LearnAll() {
  std::vector<std::shared_ptr<FileState>> files;
  {
    std::lock_guard<std::mutex> l(mu_);
    for (auto& kv : live_) {
      if (kv.second->model.load() == nullptr && kv.second->level.load() >= 0) {
        files.push_back(kv.second);
      }
    }
  }
  if (config_.granularity == Granularity::kLevel) {
    for (int level = 1; level < 7; level++) {
      if (!std::atomic_load(&levels_[level])) LearnLevel(level);
    }
    return;
  }
  for (auto& f : files) {
    {
      std::lock_guard<std::mutex> l(mu_);
      if (f->model.load(std::memory_order_acquire) != nullptr) {
        continue;  // the learner was first
      }
      f->triaged = true;
      f->state = "learning";
      f->queued_us = f->learn_start_us = env_->NowMicros();
    }
    LearnFile(f);
  }
}

Snapshot Bourbon::Collect() {
  std::lock_guard<std::mutex> l(mu_);
  Snapshot snap{};
  snap.t_wait_ms = t_wait_ns_.load() / 1e6;
  snap.calibration_ns_per_key = calibration_ns_per_key_;
  snap.calibration_ms = calibration_ns_ / 1e6;
  snap.train_ns_per_key = train_ns_per_key_.load();
  snap.learned = learned_;
  snap.skipped = skipped_;
  snap.unlearnable = unlearnable_;
  snap.wasted = wasted_;
  snap.queue_length = queue_.size();
  snap.learn_ms_total = learn_ns_total_ / 1e6;
  snap.queue_wait_ms_total = queue_wait_ns_total_ / 1e6;
  snap.unlearned_table_iterators = scans_->table_iterators[0].load();
  snap.learned_table_iterators = scans_->table_iterators[1].load();
  snap.model_seeks = scans_->model_seeks.load();
  auto record = [&](const FileState& f, bool live) {
    FileRecord r{};
    r.number = f.number;
    r.level = f.level.load();
    r.size = f.size;
    r.entries = f.entries;
    r.segments = f.segments;
    r.model_bytes = f.model_bytes;
    r.filter_bytes = f.filter_bytes;
    r.created_s = (static_cast<double>(f.created_us) - start_us_) / 1e6;
    r.deleted_s = live ? -1 : (static_cast<double>(f.deleted_us) - start_us_) / 1e6;
    r.state = f.state;
    uint64_t bt = 0, bn = 0, mt = 0, mn = 0;
    for (int p = 0; p < kNumPaths; p++) {
      r.positive[p] = f.positive[p];
      r.negative[p] = f.negative[p];
      r.positive_ns[p] = trace::TicksToNanos(f.positive_ticks[p]);
      r.negative_ns[p] = trace::TicksToNanos(f.negative_ticks[p]);
      uint64_t t = f.positive_ticks[p] + f.negative_ticks[p];
      uint64_t n = f.positive[p] + f.negative[p];
      (p == kBaselinePath ? bt : mt) += t;
      (p == kBaselinePath ? bn : mn) += n;
    }
    r.baseline_ns = Mean(bt, bn);
    r.model_ns = Mean(mt, mn);
    r.learn_ms = f.learn_ns / 1e6;
    r.queue_wait_ms = f.learn_start_us > f.queued_us && f.queued_us
                          ? (f.learn_start_us - f.queued_us) / 1e3
                          : 0;
    r.benefit_ns = f.benefit_ns;
    r.cost_ns = f.cost_ns;
    r.fixed_entry_size = f.fixed_entry_size;
    snap.files.push_back(r);
  };
  for (auto& f : finished_) record(*f, false);
  for (auto& f : graveyard_) record(*f, false);
  for (auto& kv : live_) {
    if (kv.second->level.load() >= 0) record(*kv.second, true);
  }
  for (int level = 0; level < 7; level++) {
    LevelRecord r{};
    r.level = level;
    r.changes = level_changes_[level];
    r.learnings = level_learnings_[level];
    r.failed_learnings = level_failed_[level];
    r.segments = level_segments_[level];
    r.model_bytes = level_model_bytes_[level];
    r.model_valid = std::atomic_load(&levels_[level]) != nullptr &&
                    std::atomic_load(&levels_[level])->generation ==
                        level_generation_[level].load();
    r.learn_ms = level_learn_ns_[level] / 1e6;
    snap.levels.push_back(r);
  }
  return snap;
}

}  // namespace bourbon
}  // namespace leveldb

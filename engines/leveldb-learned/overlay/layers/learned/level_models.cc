#include "layers/learned/level_models.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string_view>

#include "db/dbformat.h"
#include "db/version_edit.h"
#include "layers/hooks/lookup_trace.h"
#include "layers/learned/learned_model.h"
#include "layers/learned/learned_table_reader.h"
#include "leveldb/env.h"
#include "lidx/key_map.h"
#include "lidx/registry.h"

namespace leveldb {

struct LevelModels::Model {
  std::vector<uint64_t> numbers;  // the level's files, in order
  std::vector<uint64_t> cum;      // first entry position of each file, + total
  std::string prefix;             // every key of the level starts with it
  lidx::KeyMap key_map = lidx::KeyMap::kBytes;  // as a table's (learned_model.h)
  std::unique_ptr<lidx::Index<uint64_t>> index;
  size_t MemoryBytes() const {
    return sizeof(*this) + numbers.capacity() * 8 + cum.capacity() * 8 + prefix.capacity() +
           index->MemoryBytes();
  }
};

LevelModels::LevelModels(const LearnedTableConfig& config, std::string dir)
    : config_(config), dir_(std::move(dir)) {
  for (uint64_t& g : failed_generation_) g = ~0ull;
}

LevelModels::~LevelModels() {
  if (trainer_.joinable()) trainer_.join();
}

void LevelModels::Invalidate(int level) {
  if (level < 0 || level >= kLevels) return;
  std::lock_guard<std::mutex> l(mu_);
  generation_[level]++;
  models_[level].reset();
}

bool LevelModels::Fallback() {
  fallbacks_.fetch_add(1, std::memory_order_relaxed);
  trace::Count(&trace::LookupTrace::level_fallbacks);
  return false;
}

bool LevelModels::FindFileInLevel(int level, const std::vector<FileMetaData*>& files,
                                  const Slice& internal_key, uint32_t* index) {
  if (level <= 0 || level >= kLevels || files.empty()) return false;
  std::shared_ptr<const Model> m;
  uint64_t generation;
  bool failed;
  {
    std::lock_guard<std::mutex> l(mu_);
    m = models_[level];
    generation = generation_[level];
    failed = failed_generation_[level] == generation;
  }
  bool same = m != nullptr && m->numbers.size() == files.size();
  for (size_t i = 0; same && i < files.size(); i++) same = m->numbers[i] == files[i]->number;
  if (!same) {
    if (m == nullptr && !failed && !training_.exchange(true)) {
      // Train this level in the background from the files of this version.
      if (trainer_.joinable()) trainer_.join();
      std::vector<uint64_t> numbers;
      for (FileMetaData* f : files) numbers.push_back(f->number);
      trainer_ = std::thread(&LevelModels::Train, this, level, generation, std::move(numbers));
    }
    return Fallback();
  }
  const Slice u = ExtractUserKey(internal_key);
  if (!u.starts_with(m->prefix)) return Fallback();
  const std::string_view s(u.data() + m->prefix.size(), u.size() - m->prefix.size());
  const uint64_t total = m->cum.back();
  lidx::Bound b = lidx::StringBound(*m->index, total, s, m->key_map);
  const uint64_t lo = b.lo, hi = std::min<uint64_t>(b.hi, total);
  if (lo >= total) {
    *index = static_cast<uint32_t>(files.size());
  } else {
    // The file holding position lo; the bound must not reach the next one.
    const size_t i = std::upper_bound(m->cum.begin(), m->cum.end(), lo) - m->cum.begin() - 1;
    if (hi >= m->cum[i + 1]) return Fallback();
    *index = static_cast<uint32_t>(i);
    trace::LookupContext& ctx = trace::Context();
    ctx.has_hint = true;
    ctx.hint_file = m->numbers[i];
    ctx.hint_lo = lo - m->cum[i];
    ctx.hint_hi = hi - m->cum[i];
  }
  lookups_by_model_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void LevelModels::TrainNow(int level, std::vector<uint64_t> numbers) {
  if (level <= 0 || level >= kLevels || numbers.empty()) return;
  if (trainer_.joinable()) trainer_.join();
  uint64_t generation;
  {
    std::lock_guard<std::mutex> l(mu_);
    generation = generation_[level];
  }
  training_.store(true);
  Train(level, generation, std::move(numbers));
}

void LevelModels::Train(int level, uint64_t generation, std::vector<uint64_t> numbers) {
  const auto t0 = std::chrono::steady_clock::now();
  auto model = std::make_shared<Model>();
  model->numbers = numbers;
  model->cum.push_back(0);
  std::vector<std::string> keys;
  std::string err;
  Status s;
  Env* env = Env::Default();
  for (uint64_t number : numbers) {
    char name[32];
    std::snprintf(name, sizeof(name), "/%06llu.ldb", static_cast<unsigned long long>(number));
    const std::string path = dir_ + name;
    uint64_t size = 0;
    RandomAccessFile* file = nullptr;
    s = env->GetFileSize(path, &size);
    if (s.ok()) s = env->NewRandomAccessFile(path, &file);
    std::vector<std::string> table_keys;
    if (s.ok()) s = ReadLearnedTableUserKeys(file, size, &table_keys);
    delete file;
    if (!s.ok()) break;
    for (std::string& k : table_keys) keys.push_back(std::move(k));
    model->cum.push_back(keys.size());
  }
  if (s.ok() && !keys.empty()) {
    const std::string& a = keys.front();
    const std::string& z = keys.back();
    size_t p = 0;
    while (p < a.size() && p < z.size() && a[p] == z[p]) p++;
    model->prefix = a.substr(0, p);
    std::vector<std::string_view> suffixes(keys.size());
    for (size_t i = 0; i < keys.size(); i++) suffixes[i] = std::string_view(keys[i]).substr(p);
    model->key_map = lidx::ChooseKeyMap(suffixes);
    std::vector<uint64_t> mapped(keys.size());
    for (size_t i = 0; i < keys.size(); i++) mapped[i] = lidx::MapKey(model->key_map, suffixes[i]);
    std::vector<std::string_view>().swap(suffixes);
    // Frees the strings now (shrink_to_fit does nothing under LevelDB's
    // -fno-exceptions).
    std::vector<std::string>().swap(keys);
    // Trained as a table's model is, so that an RMI level model's bound is
    // held to the boundary too (its leaves tuned, not n / boundary).
    lidx::Status ls = TrainLearnedIndex(config_, mapped, &model->index, &err);
    if (!ls.ok()) s = Status::NotSupported("level " + std::to_string(level), ls.message());
  } else if (s.ok()) {
    s = Status::NotSupported("empty level");
  }
  const uint64_t nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now() - t0)
                             .count();
  {
    std::lock_guard<std::mutex> l(mu_);
    stats_.train_nanos += nanos;
    if (!s.ok()) {
      stats_.training_failures++;
      stats_.last_error = s.ToString();
      failed_generation_[level] = generation;
    } else if (generation_[level] != generation) {
      stats_.models_discarded++;
    } else {
      models_[level] = std::move(model);
      stats_.models_built++;
    }
  }
  training_.store(false);
}

LevelModels::Stats LevelModels::GetStats() {
  std::lock_guard<std::mutex> l(mu_);
  Stats s = stats_;
  s.lookups_by_model = lookups_by_model_.load();
  s.fallbacks = fallbacks_.load();
  s.memory_bytes = 0;
  for (const auto& m : models_) s.memory_bytes += m ? m->MemoryBytes() : 0;
  return s;
}

}  // namespace leveldb

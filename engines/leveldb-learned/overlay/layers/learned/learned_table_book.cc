#include "layers/learned/learned_table_book.h"

namespace leveldb {

void LearnedTableStats::Add(const LearnedTableStats& s) {
  tables_built += s.tables_built;
  native_tables_built += s.native_tables_built;
  build_failures += s.build_failures;
  segments_built += s.segments_built;
  model_bytes_written += s.model_bytes_written;
  train_nanos += s.train_nanos;
  model_write_nanos += s.model_write_nanos;
  trainings += s.trainings;
  slr_block_models += s.slr_block_models;
  slr_abandoned += s.slr_abandoned;
}

void LearnedTableBook::AddBuilt(const LearnedTableStats& s) {
  std::lock_guard<std::mutex> l(mu_);
  stats_.Add(s);
}

LearnedTableStats LearnedTableBook::Stats() const {
  std::lock_guard<std::mutex> l(mu_);
  return stats_;
}

void LearnedTableBook::Register(uint64_t number, size_t bytes) {
  std::lock_guard<std::mutex> l(mu_);
  OpenTable& o = open_[number];
  o.bytes = bytes;
  o.readers++;
}

void LearnedTableBook::Unregister(uint64_t number) {
  std::lock_guard<std::mutex> l(mu_);
  auto it = open_.find(number);
  if (it != open_.end() && --it->second.readers == 0) open_.erase(it);
}

std::map<uint64_t, size_t> LearnedTableBook::OpenTableIndexBytes() const {
  std::lock_guard<std::mutex> l(mu_);
  std::map<uint64_t, size_t> bytes;
  for (const auto& [number, o] : open_) bytes[number] = o.bytes;
  return bytes;
}

void LearnedTableBook::NoteBuiltHere(uint64_t number) {
  std::lock_guard<std::mutex> l(mu_);
  built_here_.insert(number);
}

bool LearnedTableBook::BuiltHere(uint64_t number) const {
  std::lock_guard<std::mutex> l(mu_);
  return built_here_.count(number) > 0;
}

}  // namespace leveldb

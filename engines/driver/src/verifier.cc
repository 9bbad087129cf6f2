#include "verifier.h"

#include <algorithm>
#include <cstdio>

#include "records.h"

namespace lsmbench {

namespace {

std::string Hex(uint64_t k) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "%llu", static_cast<unsigned long long>(k));
  return buf;
}

}  // namespace

Verifier::Verifier(const std::vector<uint64_t>* keys, size_t value_bytes,
                   const KeyCodec& codec)
    : keys_(keys), value_bytes_(value_bytes), codec_(codec) {}

uint64_t Verifier::NotePut(uint64_t key) {
  uint64_t v = next_version_++;
  written_[key] = v;
  return v;
}

void Verifier::NoteDelete(uint64_t key) { written_[key] = kDeleted; }

bool Verifier::Lookup(uint64_t key, uint64_t* version) const {
  auto it = written_.find(key);
  if (it != written_.end()) {
    *version = it->second;
    return it->second != kDeleted;
  }
  *version = 0;
  return std::binary_search(keys_->begin(), keys_->end(), key);
}

bool Verifier::Wrong(const Op& op, std::string what) {
  wrong_++;
  if (examples_.size() < 10) {
    examples_.push_back(std::string(OpName(op.type)) + " " + Hex(op.key) + ": " + what);
  }
  return false;
}

bool Verifier::CheckGet(const Op& op, bool found, std::string_view value) {
  verified_++;
  uint64_t version = 0;
  bool present;
  if (op.expect == Expect::kUnknown || !written_.empty()) {
    present = Lookup(op.key, &version);
  } else {
    present = op.expect == Expect::kPresent;
  }
  if (found != present) {
    return Wrong(op, present ? "present key reported absent" : "absent key reported present");
  }
  if (!found) return true;
  MakeValue(op.key, version, value_bytes_, &scratch_);
  if (value != scratch_) return Wrong(op, "wrong value");
  return true;
}

bool Verifier::CheckScan(const Op& op, const std::vector<KV>& got) {
  verified_++;
  // Expected: the merge of the loaded keys and the written ones (deleted
  // ones left out), from the first key >= op.key, op.scan_len entries.
  auto base = std::lower_bound(keys_->begin(), keys_->end(), op.key);
  auto extra = written_.lower_bound(op.key);
  size_t i = 0;
  while (i < op.scan_len) {
    bool base_left = base != keys_->end(), extra_left = extra != written_.end();
    if (!base_left && !extra_left) break;
    uint64_t key, version;
    if (extra_left && (!base_left || extra->first <= *base)) {
      key = extra->first;
      version = extra->second;
      if (base_left && *base == key) ++base;
      ++extra;
      if (version == kDeleted) continue;
    } else {
      key = *base++;
      version = 0;
    }
    if (i >= got.size()) return Wrong(op, "scan ended early at entry " + std::to_string(i));
    uint64_t got_key = 0;
    if (!codec_.Decode(got[i].first, &got_key) || got_key != key) {
      return Wrong(op, "scan entry " + std::to_string(i) + ": expected key " + Hex(key) +
                           ", got " + Hex(got_key) + " (" + std::to_string(got[i].first.size()) +
                           " bytes)");
    }
    MakeValue(key, version, value_bytes_, &scratch_);
    if (got[i].second != scratch_) {
      return Wrong(op, "scan entry " + std::to_string(i) + ": wrong value");
    }
    i++;
  }
  if (got.size() != i) return Wrong(op, "scan returned " + std::to_string(got.size()) +
                                            " entries, expected " + std::to_string(i));
  return true;
}

nlohmann::json Verifier::ToJson() const {
  return {{"verified", verified_}, {"wrong", wrong_}, {"examples", examples_}};
}

}  // namespace lsmbench

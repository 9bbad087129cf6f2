// fp: fence pointers, the LSM baseline. Keeps the first key of every block of
// `entries` keys and binary-searches them; the answer is the block, so the
// bound is at most `entries` - 1 wide and exact for no key in particular.
//
// Knobs: entries (keys per block, default 64).
//
// Usage:
//   lidx::FenceIndex<uint64_t> fp;
//   fp.Configure({{"entries", "128"}});
//   fp.Build(keys, n, nullptr);
//   lidx::Bound b = fp.Search(q);   // b.hi - b.lo < 128
#ifndef LIDX_FP_H_
#define LIDX_FP_H_

#include <algorithm>
#include <vector>

#include "lidx/detail/build_clock.h"
#include "lidx/detail/options.h"
#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"
#include "lidx/index.h"

namespace lidx {

template <typename K>
class FenceIndex final : public Index<K> {
 public:
  static constexpr uint32_t kFormatVersion = 1;

  Status Configure(const Options& o) {
    return detail::ParseKnobs(o, "fp", {{"entries", &entries_, 1, 1u << 30}});
  }

  std::string_view Id() const override { return "fp"; }
  bool Exact() const override { return false; }

  Status Build(const K* keys, size_t n, const uint32_t*) override {
    detail::BuildClock clock;
    n_ = n;
    fences_.clear();
    fences_.reserve((n + entries_ - 1) / entries_);
    for (size_t i = 0; i < n; i += entries_) fences_.push_back(keys[i]);
    detail::ShrinkToFit(&fences_);
    stats_ = BuildStats{n, fences_.size(), 1, 0};
    stats_.build_seconds = clock.Seconds();
    return Status::OK();
  }

  Bound Search(K q) const override {
    // s fences are < q: block s-1 holds a key < q, fence s is >= q, so the
    // first key >= q lies in ((s-1)*E, s*E].
    size_t s = std::lower_bound(fences_.begin(), fences_.end(), q) -
               fences_.begin();
    Bound b;
    b.lo = s == 0 ? 0 : (s - 1) * entries_ + 1;
    b.hi = std::min<size_t>(s * entries_, n_);
    if (b.lo > b.hi) b.lo = b.hi;  // only when n_ == 0
    b.pos = b.lo;
    return b;
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<K>(Id(), kFormatVersion);
    w.Pods<uint64_t, uint64_t>(entries_, n_);
    w.Vector(fences_);
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    uint64_t entries = 0, n = 0;
    std::vector<K> fences;
    BuildStats st;
    Status s = r.Header<K>(Id(), kFormatVersion);
    if (s.ok()) s = r.Pods({"entries", "n"}, &entries, &n);
    if (s.ok()) s = r.Vector(&fences, "fences");
    if (s.ok()) s = r.Stats(&st);
    if (s.ok()) s = r.Finish();
    if (!s.ok()) return s;
    if (entries == 0 || fences.size() != (n + entries - 1) / entries) {
      return detail::Reader::Corrupt("fp fence count does not match n");
    }
    entries_ = entries;
    n_ = n;
    fences_ = std::move(fences);
    stats_ = st;
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) + detail::VectorBytes(fences_);
  }
  BuildStats Stats() const override { return stats_; }

 private:
  uint64_t entries_ = 64;
  size_t n_ = 0;
  std::vector<K> fences_;
  BuildStats stats_;
};

}  // namespace lidx

#endif  // LIDX_FP_H_

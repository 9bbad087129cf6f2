// The property-test harness every index in lidx is held to. Engineers adding
// an index call CheckIndex() from their own tests with their knobs; the
// generic suite (harness_test.cc) runs it over every RegisteredIds() entry
// with default knobs on every dataset in datasets.h.
//
// CheckIndex proves, for one (index, knobs, keys):
//   1. Build succeeds and Stats().keys == n.
//   2. For every distinct present key, absent keys just below/above each key,
//      midpoints of gaps, 0, the maximum K, keys below the minimum and above
//      the maximum, and random keys: lo <= pos <= hi <= n and
//      lo <= std::lower_bound position <= hi; exact indexes return
//      lo == pos == hi == that position; LastMile() of every kind lands on it.
//   3. Serialize -> Deserialize into a fresh instance answers every query
//      identically, re-serializes byte-identically, and every truncation of
//      the bytes (and a corrupted magic) is rejected with an error.
//   4. MemoryBytes() is within max(64 B, 2%) of the live heap bytes the
//      allocation counter saw MakeIndex()+Build() leave behind and
//      destroying the index frees exactly that much.
// It returns the widest bound seen so per-index tests can assert their knob.
#ifndef LIDX_TESTS_HARNESS_H_
#define LIDX_TESTS_HARNESS_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "alloc_counter.h"
#include "datasets.h"
#include "lidx/index.h"
#include "lidx/registry.h"

namespace lidx_test {

template <typename K>
std::string KeyStr(K k) {
  if constexpr (sizeof(K) <= 8) {
    return std::to_string(static_cast<uint64_t>(k));
  } else {
    std::ostringstream os;
    os << "0x" << std::hex << static_cast<uint64_t>(k >> 64) << ":"
       << static_cast<uint64_t>(k);
    return os.str();
  }
}

inline std::string OptStr(const lidx::Options& o) {
  std::string s;
  for (const auto& [k, v] : o) s += (s.empty() ? "" : ",") + k + "=" + v;
  return s.empty() ? "defaults" : s;
}

// Present keys, absent neighbours, extremes and random probes.
template <typename K>
std::vector<K> Queries(const std::vector<K>& keys, uint64_t seed) {
  const K kMax = static_cast<K>(~K(0));
  std::vector<K> q = {K(0), K(1), kMax, static_cast<K>(kMax - 1)};
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i > 0 && keys[i] == keys[i - 1]) continue;
    K k = keys[i];
    q.push_back(k);
    if (k > 0) q.push_back(k - 1);
    if (k < kMax) q.push_back(k + 1);
    if (i + 1 < keys.size() && keys[i + 1] > k) {
      q.push_back(k + (keys[i + 1] - k) / 2);
    }
  }
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 2000; ++i) {
    K r = static_cast<K>(rng());
    if constexpr (sizeof(K) > 8) r = (r << 64) | static_cast<K>(rng());
    q.push_back(r);
  }
  return q;
}

struct CheckResult {
  size_t max_width = 0;  // largest hi - lo over all queries
  size_t queries = 0;
  size_t memory_bytes = 0;
};

// `make` returns a fresh, configured, unbuilt index (or null).
template <typename K, typename Make>
CheckResult CheckIndexWith(const std::string& id, const lidx::Options& opts,
                           Make make, const std::vector<K>& keys,
                           const std::string& label) {
  CheckResult res;
  const size_t n = keys.size();
  SCOPED_TRACE("index=" + id + " opts=" + OptStr(opts) + " " + label +
               " (replay: LIDX_TEST_SEED=" + std::to_string(BaseSeed()) + ")");

  // 4 (memory) is measured around construction and Build(). The registry's
  // table is a function-local static made on first use: make it before
  // counting, or the first index built in a process is charged for it.
  lidx::registry_detail::Entries<K>();
  size_t live0 = LiveHeapBytes();
  std::unique_ptr<lidx::Index<K>> idx = make();
  if (!idx) {
    ADD_FAILURE() << "could not make the index";
    return res;
  }
  lidx::Status s = idx->Build(keys.data(), n, nullptr);
  size_t live1 = LiveHeapBytes();
  if (!s.ok()) {
    ADD_FAILURE() << "Build failed: " << s.message();
    return res;
  }
  res.memory_bytes = idx->MemoryBytes();
  {
    size_t seen = live1 - live0;
    size_t reported = idx->MemoryBytes();
    size_t diff = seen > reported ? seen - reported : reported - seen;
    EXPECT_LE(diff, std::max<size_t>(64, seen / 50))
        << "MemoryBytes()=" << reported << " but the allocator saw " << seen
        << " live bytes after MakeIndex+Build";
  }
  EXPECT_EQ(idx->Stats().keys, n);
  EXPECT_EQ(idx->Id(), id);

  // 2. Bounds.
  std::vector<K> qs = Queries(keys, Mix(BaseSeed(), label));
  res.queries = qs.size();
  int failures = 0;
  for (K q : qs) {
    size_t want = std::lower_bound(keys.begin(), keys.end(), q) - keys.begin();
    lidx::Bound b = idx->Search(q);
    bool ok = b.lo <= b.pos && b.pos <= b.hi && b.hi <= n && b.lo <= want &&
              want <= b.hi;
    if (ok && idx->Exact()) ok = b.lo == b.hi && b.lo == want;
    if (ok) {
      for (auto kind : {lidx::LastMileKind::kBinary, lidx::LastMileKind::kLinear,
                        lidx::LastMileKind::kExponential}) {
        ok = ok && lidx::LastMile(keys.data(), b, q, kind) == want;
      }
    }
    if (!ok && ++failures <= 5) {
      ADD_FAILURE() << "q=" << KeyStr(q) << " lower_bound=" << want
                    << " got [lo=" << b.lo << " pos=" << b.pos
                    << " hi=" << b.hi << "] n=" << n;
    }
    res.max_width = std::max(res.max_width, b.hi - b.lo);
  }
  EXPECT_EQ(failures, 0) << "bound violations";

  // 3. Serialization.
  std::string bytes;
  idx->Serialize(&bytes);
  auto copy = make();
  lidx::Status ds = copy->Deserialize(bytes);
  EXPECT_TRUE(ds.ok()) << ds.message();
  if (ds.ok()) {
    int diffs = 0;
    for (K q : qs) {
      lidx::Bound a = idx->Search(q), c = copy->Search(q);
      if ((a.lo != c.lo || a.pos != c.pos || a.hi != c.hi) && ++diffs <= 3) {
        ADD_FAILURE() << "round-tripped index differs at q=" << KeyStr(q);
      }
    }
    std::string again;
    copy->Serialize(&again);
    EXPECT_TRUE(again == bytes) << "re-serialized bytes differ";
    EXPECT_EQ(copy->Stats().segments, idx->Stats().segments);
  }
  // Every strict prefix must be rejected: a sampled set keeps this linear.
  std::vector<size_t> cuts = {0, 1, 3, 4, 5, bytes.size() / 2,
                              bytes.size() - 1};
  for (size_t i = 1; i < 64 && i < bytes.size(); ++i) cuts.push_back(i);
  for (size_t cut : cuts) {
    if (cut >= bytes.size()) continue;
    auto t = make();
    lidx::Status ts = t->Deserialize(std::string_view(bytes).substr(0, cut));
    EXPECT_FALSE(ts.ok()) << "accepted a " << cut << "-byte prefix of "
                          << bytes.size();
  }
  {
    std::string bad = bytes;
    bad[0] ^= 0x20;
    auto t = make();
    EXPECT_FALSE(t->Deserialize(bad).ok()) << "accepted a corrupted magic";
  }
  copy.reset();
  size_t before_free = LiveHeapBytes();
  idx.reset();
  EXPECT_EQ(before_free - LiveHeapBytes(), live1 - live0)
      << "destroying the index did not free exactly what Build() left";
  return res;
}

template <typename K>
CheckResult CheckIndex(const std::string& id, const lidx::Options& opts,
                       const std::vector<K>& keys, const std::string& label) {
  auto make = [&]() -> std::unique_ptr<lidx::Index<K>> {
    std::string err;
    auto idx = lidx::MakeIndex<K>(id, opts, &err);
    if (!idx) ADD_FAILURE() << "MakeIndex(" << id << "): " << err;
    return idx;
  };
  return CheckIndexWith<K>(id, opts, make, keys, label);
}

}  // namespace lidx_test

#endif  // LIDX_TESTS_HARNESS_H_

// Unit test of DobLIX's string index (plugin/doblix/doblix_string_index.h,
// DoblixModel::Locate): for key sets that need one level and several
// (64-byte keys sharing long parts, keys differing only in trailing zero
// bytes, one key's many versions, short strings, integers at 0 and
// 2^64-1), PLA and PRA over a sweep of E and B_max, every query's
// std::lower_bound lies where the index says (start of a block, past its
// end, or within the block model's range), the same after a serialization
// round trip (which also builds the nodes' radix tables); and every
// truncation of the model block is rejected.
// Built by engines/rocksdb-doblix/run_tests.sh against librocksdb.a.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "plugin/doblix/doblix_model.h"
#include "plugin/doblix/doblix_string_index.h"

#include "check.h"
using namespace ROCKSDB_NAMESPACE;

namespace {

using doblix_test::failures;

std::string Be64(uint64_t v) {
  std::string k;
  for (int i = 7; i >= 0; i--) k.push_back(static_cast<char>(v >> (8 * i)));
  return k;
}

// 64-byte keys: tenant / table / zero-padded id, so a table's keys share
// 8-byte chunks in runs at several depths.
std::string Hierarchical(std::mt19937_64& rng) {
  static const char* kTenants[] = {"alpha", "beta", "gamma"};
  char id[32];
  snprintf(id, sizeof(id), "%020llu", static_cast<unsigned long long>(rng() % 200000));
  std::string k = std::string("org/") + kTenants[rng() % 3] + "/table" +
                  std::to_string(rng() % 2) + "/row/" + id + "/v";
  k.resize(64, '#');
  return k;
}

std::vector<std::string> KeySet(int kind, std::mt19937_64& rng) {
  std::vector<std::string> keys;
  switch (kind) {
    case 0:
      for (int i = 0; i < 6000; i++) keys.push_back(Hierarchical(rng));
      break;
    case 1:  // differ only in trailing zero bytes, among other keys
      for (int i = 0; i < 300; i++) keys.push_back("a" + std::string(i, '\0'));
      for (int i = 0; i < 300; i++) keys.push_back("abcdefgh" + std::string(i % 40, '\0') + "z");
      for (int i = 0; i < 500; i++) keys.push_back("b" + std::to_string(rng() % 1000));
      break;
    case 2:  // one user key's many versions, and neighbours
      for (int i = 0; i < 2000; i++) keys.push_back("same-user-key-0123456789");
      for (int i = 0; i < 500; i++) keys.push_back("same-user-key-" + std::to_string(rng() % 100000));
      break;
    case 3:  // short strings over a small alphabet: deep sharing
      for (int i = 0; i < 5000; i++) {
        std::string k(1 + rng() % 30, 'a');
        for (char& c : k) c = static_cast<char>('a' + rng() % 2);
        keys.push_back(k);
      }
      break;
    default:  // 8-byte integers with runs at both ends
      for (int i = 0; i < 5000; i++) {
        uint64_t v = rng();
        if (i % 4 == 0) v %= 300;
        if (i % 4 == 1) v = ~uint64_t{0} - v % 300;
        keys.push_back(Be64(v));
      }
      keys.push_back(Be64(0));
      keys.push_back(Be64(~uint64_t{0}));
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::vector<std::string> Queries(const std::vector<std::string>& keys, std::mt19937_64& rng) {
  std::vector<std::string> q = {"", std::string(1, '\0'), std::string(70, '\xff'), Be64(0),
                                Be64(~uint64_t{0})};
  for (size_t i = 0; i < keys.size(); i += 1 + rng() % 3) {
    const std::string& k = keys[i];
    q.push_back(k);
    q.push_back(k + std::string(1, '\0'));
    q.push_back(k.substr(0, rng() % (k.size() + 1)));
    std::string up = k, down = k;
    if (!k.empty()) {
      size_t p = rng() % k.size();
      up[p] = static_cast<char>(up[p] + 1);
      down[p] = static_cast<char>(down[p] - 1);
      q.push_back(up);
      q.push_back(down);
    }
  }
  for (int i = 0; i < 500; i++) q.push_back(Hierarchical(rng));
  return q;
}

// Checks where the index puts every query's lower bound.
void CheckPlaces(const DoblixModel& m, const std::vector<DoblixCut>& cuts,
                 const std::vector<std::string>& keys, const std::vector<std::string>& queries,
                 const std::string& label) {
  for (const std::string& q : queries) {
    const size_t p = std::lower_bound(keys.begin(), keys.end(), q) - keys.begin();
    DoblixPlace place = m.Locate(q);
    CHECK(place.block < cuts.size(), "%s block %zu of %zu", label.c_str(), place.block,
          cuts.size());
    if (place.block >= cuts.size()) continue;
    const DoblixCut& c = cuts[place.block];
    if (place.where == DoblixPlace::kStart) {
      CHECK(p == c.begin, "%s query %s: start of block %zu (%zu) but lower bound %zu",
            label.c_str(), Slice(q).ToString(true).c_str(), place.block, c.begin, p);
    } else if (place.where == DoblixPlace::kEnd) {
      CHECK(p == c.end, "%s query %s: end of block %zu (%zu) but lower bound %zu", label.c_str(),
            Slice(q).ToString(true).c_str(), place.block, c.end, p);
    } else {
      uint32_t lo = 0, hi = 0;
      const uint32_t n = static_cast<uint32_t>(c.end - c.begin);
      m.SearchRange(place.block, place.x, n, &lo, &hi);
      // Past the block only inside a run B_max split (the reader walks it).
      const bool run_goes_on = hi == n && place.block + 1 < cuts.size() &&
                               m.segments[place.block + 1].cont &&
                               m.segments[place.block + 1].first_chunk == place.x;
      CHECK(p >= c.begin + lo && (p <= c.begin + hi || run_goes_on),
            "%s query %s: block %zu [%zu, %zu) range [%u, %u] but lower bound %zu", label.c_str(),
            Slice(q).ToString(true).c_str(), place.block, c.begin, c.end, lo, hi, p);
    }
  }
}

void Run(int kind, bool pra, uint32_t error, uint32_t max_block, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> keys = KeySet(kind, rng);
  std::string label = "set " + std::to_string(kind) + (pra ? " pra" : " pla E=" + std::to_string(error)) +
                      " B=" + std::to_string(max_block);
  std::vector<Slice> user_keys(keys.begin(), keys.end());
  std::vector<uint32_t> bytes;
  for (const std::string& k : keys) bytes.push_back(static_cast<uint32_t>(k.size() + 64 + 14));
  DoblixModel m;
  m.kind = pra ? DoblixModelKind::kPra : DoblixModelKind::kPla;
  m.prefix = keys.front().substr(0, Slice(keys.front()).difference_offset(keys.back()));
  std::vector<uint64_t> chunk_buffer;
  std::vector<DoblixCut> cuts =
      DoblixStringIndex::Build(user_keys, bytes, error, max_block, &m, &chunk_buffer);
  // Blocks tile the keys in order, each within B_max unless one entry.
  size_t next = 0;
  for (const DoblixCut& c : cuts) {
    CHECK(c.begin == next && c.end > c.begin, "%s blocks tile", label.c_str());
    uint64_t b = 0;
    for (size_t i = c.begin; i < c.end; i++) b += bytes[i];
    CHECK(b <= max_block || c.end == c.begin + 1, "%s block of %llu bytes", label.c_str(),
          static_cast<unsigned long long>(b));
    next = c.end;
  }
  CHECK(next == keys.size() && m.segments.size() == cuts.size(), "%s blocks cover", label.c_str());
  // Deep keys need children (short strings: once runs pass E); 8-byte
  // integers need none.
  if (kind == 0 || (kind == 3 && error <= 8)) CHECK(m.nodes.size() > 1, "%s no child nodes", label.c_str());
  if (kind == 4) CHECK(m.nodes.size() == 1, "%s %zu nodes", label.c_str(), m.nodes.size());
  std::vector<std::string> queries = Queries(keys, rng);
  CheckPlaces(m, cuts, keys, queries, label);

  // Offsets as the table builder sets them, then the round trip.
  uint64_t offset = 0;
  for (DoblixSegment& s : m.segments) {
    s.offset = offset;
    s.size = 100;
    offset += 104;
  }
  std::string enc;
  m.EncodeTo(&enc);
  DoblixModel d;
  Status s = d.DecodeFrom(enc);
  CHECK(s.ok(), "%s decode: %s", label.c_str(), s.ToString().c_str());
  CHECK(d.nodes.size() == m.nodes.size(), "%s nodes after decode", label.c_str());
  for (size_t i = 0; i < d.nodes.size() && i < m.nodes.size(); i++) {
    CHECK(d.nodes[i].skip == m.nodes[i].skip && d.nodes[i].extra == m.nodes[i].extra &&
              d.nodes[i].chunk == m.nodes[i].chunk && d.nodes[i].ref == m.nodes[i].ref &&
              d.nodes[i].first_block == m.nodes[i].first_block &&
              d.nodes[i].last_block == m.nodes[i].last_block,
          "%s node %zu differs after decode", label.c_str(), i);
  }
  // Loading builds the radix tables (the built model searches without).
  if (kind == 4 && max_block <= 4096) {
    CHECK(!d.nodes.empty() && !d.nodes[0].radix.empty(), "%s no radix table", label.c_str());
  }
  CheckPlaces(d, cuts, keys, queries, label + " decoded");
  std::string again;
  d.EncodeTo(&again);
  CHECK(again == enc, "%s re-encodes differently", label.c_str());
  for (size_t n = 0; n < enc.size(); n += 1 + enc.size() / 200) {
    CHECK(!d.DecodeFrom(Slice(enc.data(), n)).ok(), "%s truncated to %zu accepted", label.c_str(), n);
  }
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seed = argc > 1 ? strtoull(argv[1], nullptr, 10) : 1;
  int runs = 0;
  for (int kind = 0; kind < 5; kind++) {
    for (uint32_t max_block : {128u, 1024u, 4096u, 32768u}) {
      for (uint32_t error : {2u, 8u, 64u, 256u}) Run(kind, false, error, max_block, seed + kind), runs++;
      Run(kind, true, 64, max_block, seed + kind), runs++;
    }
  }
  if (failures != 0) {
    fprintf(stderr, "%d failures (seed %llu)\n", failures, (unsigned long long)seed);
    return 1;
  }
  printf("doblix_string_index_test: %d configurations passed (seed %llu)\n", runs,
         (unsigned long long)seed);
  return 0;
}

// PGM's bounds on the key sets that break learned indexes: tiny n, all-equal
// keys, long duplicate runs, keys at 0 and 2^64-1, gaps near 2^64, dense
// runs, each over epsilons from 1 to 2^30 and recursive epsilons that force
// deep descents. Every query is checked against std::lower_bound: all
// integers of the key range where it is small, otherwise every key, its
// neighbours, gap midpoints and the extremes. The lookup's window clamping,
// sentinel caps and fixed-width counts (pgm.h) are exercised at both ends of
// every level this way, and so is LowerBound(), the lookup with PGM's own
// last mile (its answer must be lower_bound's position exactly).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "datasets.h"
#include "lidx/pgm.h"

namespace lidx_test {
namespace {

using Keys = std::vector<uint64_t>;
constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

struct KeySet {
  std::string name;
  Keys keys;
};

std::vector<KeySet> AdversarialSets(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<KeySet> sets = {
      {"one 0", {0}},
      {"one max", {kMax}},
      {"0 and max", {0, kMax}},
      {"two equal", {5, 5}},
      {"three", {1, 2, 3}},
      {"max run", {kMax - 1, kMax, kMax, kMax}},
      {"all equal 7", Keys(3000, 7)},
      {"all equal 0", Keys(500, 0)},
      {"all equal max", Keys(500, kMax)},
  };
  Keys dup;  // runs of 1..300 copies over a small universe
  for (uint64_t k = 0; dup.size() < 20000; k += 1 + rng() % 5) {
    dup.insert(dup.end(), 1 + rng() % (rng() % 8 == 0 ? 300 : 3), k);
  }
  sets.push_back({"duplicate runs", dup});
  Keys ends;  // dense at both ends of the key space
  for (uint64_t i = 0; i < 3000; ++i) ends.push_back(i);
  for (uint64_t i = 0; i < 3000; ++i) ends.push_back(kMax - 2999 + i);
  sets.push_back({"0.. and ..max", ends});
  Keys gaps;  // clusters separated by gaps of ~2^60
  for (uint64_t c = 0; c < 15; ++c) {
    for (uint64_t i = 0; i < 700; ++i) gaps.push_back(c * (uint64_t{1} << 60) + i * (1 + c));
  }
  gaps.push_back(kMax);
  sets.push_back({"huge gaps", gaps});
  Keys smallu(30000);  // random keys in [0, 2^15): dense with duplicates
  for (auto& k : smallu) k = rng() % (1u << 15);
  std::sort(smallu.begin(), smallu.end());
  sets.push_back({"small universe", smallu});
  Keys wide(30000);
  for (auto& k : wide) k = rng() >> (rng() % 64);  // every magnitude
  std::sort(wide.begin(), wide.end());
  sets.push_back({"every magnitude", wide});
  return sets;
}

// Every integer when the keys span < 2^17, else each key's neighbourhood,
// the gaps' midpoints and the extremes.
Keys QueriesFor(const Keys& keys) {
  Keys q = {0, 1, 2, kMax, kMax - 1, kMax - 2};
  if (keys.back() - keys.front() < (uint64_t{1} << 17)) {
    // From one below the first key to two past the last (wrapping at 2^64).
    const uint64_t span = keys.back() - keys.front() + 4;
    for (uint64_t i = 0; i < span; ++i) q.push_back(keys.front() - 1 + i);
    return q;
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    for (uint64_t d : {uint64_t{0}, uint64_t{1}, uint64_t{2}}) {
      q.push_back(keys[i] - d);
      q.push_back(keys[i] + d);
    }
    if (i + 1 < keys.size()) q.push_back(keys[i] + (keys[i + 1] - keys[i]) / 2);
  }
  return q;
}

TEST(PgmAdversarial, EveryBoundHoldsTheLowerBound) {
  const uint64_t seed = Mix(BaseSeed(), "pgm-adversarial");
  struct Knobs {
    uint64_t eps, eps_rec;
  };
  const Knobs knobs[] = {{1, 1},  {1, 4},   {2, 1},  {3, 2},         {8, 4},
                         {8, 1},  {64, 4},  {64, 64}, {1000, 4}, {1u << 30, 1u << 30}};
  for (const KeySet& set : AdversarialSets(seed)) {
    const Keys& keys = set.keys;
    ASSERT_TRUE(std::is_sorted(keys.begin(), keys.end())) << set.name;
    const Keys queries = QueriesFor(keys);
    for (Knobs k : knobs) {
      lidx::PgmIndex<uint64_t> idx;
      ASSERT_TRUE(idx.Configure({{"epsilon", std::to_string(k.eps)},
                                 {"epsilon_recursive", std::to_string(k.eps_rec)}})
                      .ok());
      ASSERT_TRUE(idx.Build(keys.data(), keys.size(), nullptr).ok());
      const std::string what = set.name + " n=" + std::to_string(keys.size()) +
                               " eps=" + std::to_string(k.eps) + " eps_rec=" +
                               std::to_string(k.eps_rec) +
                               " levels=" + std::to_string(idx.NumLevels()) +
                               " LIDX_TEST_SEED=" + std::to_string(BaseSeed());
      for (size_t l = 0; l < idx.NumLevels(); ++l) {
        const lidx::detail::Errors e = idx.LevelErrors(l);
        EXPECT_LE(static_cast<uint64_t>(e.lo + e.hi), 2 * (l ? k.eps_rec : k.eps) + 2)
            << what << " level " << l;
      }
      size_t wrong = 0;
      for (uint64_t q : queries) {
        const size_t want = static_cast<size_t>(
            std::lower_bound(keys.begin(), keys.end(), q) - keys.begin());
        const lidx::Bound b = idx.Search(q);
        const size_t found = idx.LowerBound(keys.data(), q);
        const bool ok = b.lo <= want && want <= b.hi && b.hi <= keys.size() &&
                        b.lo <= b.pos && b.pos <= b.hi &&
                        b.hi - b.lo <= 2 * k.eps + 2 && found == want;
        if (!ok && ++wrong <= 5) {
          ADD_FAILURE() << what << ": q=" << q << " lower_bound=" << want
                        << " bound=[" << b.lo << ", " << b.pos << ", " << b.hi << "]"
                        << " LowerBound=" << found;
        }
      }
      EXPECT_EQ(wrong, 0u) << what << " of " << queries.size() << " queries";
    }
  }
}

// LowerBound's last mile is unrolled for the width of level 0's bounds
// (prefetched lines, a first step, then halvings): every epsilon 1..80 and a
// few wide ones, on keys with irregular gaps, give widths whose candidate
// counts are and are not powers of two, windows of one to over eight lines
// and more than eight halvings; each key, its neighbours and gap midpoints
// are checked.
TEST(PgmAdversarial, LastMileOfEveryWidth) {
  std::mt19937_64 rng(Mix(BaseSeed(), "pgm-last-mile"));
  Keys keys(6000);
  uint64_t cur = 0;
  for (auto& k : keys) {
    cur += 1 + rng() % (rng() % 16 == 0 ? 100000 : 50);
    k = cur;
  }
  const Keys queries = QueriesFor(keys);
  std::vector<uint64_t> epsilons;
  for (uint64_t e = 1; e <= 80; ++e) epsilons.push_back(e);
  for (uint64_t e : {127, 128, 255, 256, 700, 1000}) epsilons.push_back(e);
  for (uint64_t eps : epsilons) {
    lidx::PgmIndex<uint64_t> idx;
    ASSERT_TRUE(idx.Configure({{"epsilon", std::to_string(eps)}}).ok());
    ASSERT_TRUE(idx.Build(keys.data(), keys.size(), nullptr).ok());
    size_t wrong = 0;
    for (uint64_t q : queries) {
      const size_t want = static_cast<size_t>(
          std::lower_bound(keys.begin(), keys.end(), q) - keys.begin());
      const size_t found = idx.LowerBound(keys.data(), q);
      if (found != want && ++wrong <= 5) {
        ADD_FAILURE() << "eps=" << eps << " q=" << q << " lower_bound=" << want
                      << " LowerBound=" << found << " LIDX_TEST_SEED=" << BaseSeed();
      }
    }
    EXPECT_EQ(wrong, 0u) << "eps=" << eps;
  }
}

// Offsets are converted by one signed conversion only when no segment spans
// 2^63 keys (pgm.h, Offset): an index rebuilt from narrow keys onto keys
// spanning 2^64, and back, must measure and answer with the right one.
TEST(PgmAdversarial, RebuildBetweenNarrowAndWideKeys) {
  std::mt19937_64 rng(Mix(BaseSeed(), "pgm-narrow-wide"));
  // At epsilon 1000 each set is one segment: over [0, 2^62) (narrow), and
  // over [0, 2^64) with a slope that moves predictions by hundreds of
  // positions across it (wide).
  Keys narrow(3000), wide(3000);
  for (auto& k : narrow) k = rng() >> 2;
  for (auto& k : wide) k = rng();
  std::sort(narrow.begin(), narrow.end());
  std::sort(wide.begin(), wide.end());
  lidx::PgmIndex<uint64_t> idx;
  ASSERT_TRUE(idx.Configure({{"epsilon", "1000"}}).ok());
  for (const Keys* keys : {&narrow, &wide, &narrow}) {
    ASSERT_TRUE(idx.Build(keys->data(), keys->size(), nullptr).ok());
    size_t wrong = 0;
    for (uint64_t q : QueriesFor(*keys)) {
      const size_t want = static_cast<size_t>(
          std::lower_bound(keys->begin(), keys->end(), q) - keys->begin());
      const lidx::Bound b = idx.Search(q);
      const size_t found = idx.LowerBound(keys->data(), q);
      if ((b.lo > want || want > b.hi || b.hi - b.lo > 2002 || found != want) &&
          ++wrong <= 5) {
        ADD_FAILURE() << (keys == &wide ? "wide" : "narrow") << " q=" << q
                      << " lower_bound=" << want << " bound=[" << b.lo << ", "
                      << b.hi << "] LowerBound=" << found
                      << " LIDX_TEST_SEED=" << BaseSeed();
      }
    }
    EXPECT_EQ(wrong, 0u);
  }
}

// Deep descents over a level whose windows hit both ends: eps 1 everywhere
// on 2^16 keys gives four or more levels.
TEST(PgmAdversarial, DeepDescentExhaustive) {
  std::mt19937_64 rng(Mix(BaseSeed(), "pgm-deep"));
  Keys keys(1 << 16);
  for (auto& k : keys) k = rng() % (uint64_t{1} << 18);
  std::sort(keys.begin(), keys.end());
  lidx::PgmIndex<uint64_t> idx;
  ASSERT_TRUE(idx.Configure({{"epsilon", "1"}, {"epsilon_recursive", "1"}}).ok());
  ASSERT_TRUE(idx.Build(keys.data(), keys.size(), nullptr).ok());
  EXPECT_GE(idx.NumLevels(), 4u);
  for (uint64_t q = 0; q <= keys.back() + 1; ++q) {
    const size_t want = static_cast<size_t>(
        std::lower_bound(keys.begin(), keys.end(), q) - keys.begin());
    const lidx::Bound b = idx.Search(q);
    const size_t found = idx.LowerBound(keys.data(), q);
    ASSERT_TRUE(b.lo <= want && want <= b.hi && b.hi - b.lo <= 4 && found == want)
        << "q=" << q << " lower_bound=" << want << " bound=[" << b.lo << ", "
        << b.hi << "] LowerBound=" << found << " LIDX_TEST_SEED=" << BaseSeed();
  }
}

}  // namespace
}  // namespace lidx_test

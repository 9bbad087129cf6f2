// DILI's first phase: the bottom-up BU-tree. Each BU level partitions the
// level below (the keys, then the first keys of the segments below) into
// segments with one least-squares line each, choosing the number of segments
// with a cost model. DILI only keeps, per level, where segments start: the
// top-down phase (dili.h) reads fanouts off them. Not a public interface.
//
// Partition of one level (after DILI's greedy interval merging):
//   1. Start from runs of r consecutive points, r = max(2, N / 2^20) (DILI
//      starts from pairs; the floor bounds memory at ~1M runs).
//   2. Repeatedly merge the adjacent pair whose merged line adds the least
//      squared error, down to one segment, keeping the running total error.
//   3. Keep the segment count m minimizing
//        cost(m) = log(N) / log(N / m)     levels a tree of fanout N/m needs
//                + log2(1 + rmse(m))        leaf conflicts / search per key
//      and undo the merges made after it.
// Errors come from mergeable moments (LineFit), so each merge is O(log M).
#ifndef LIDX_DETAIL_DILI_BUTREE_H_
#define LIDX_DETAIL_DILI_BUTREE_H_

#include <cmath>
#include <cstdint>
#include <queue>
#include <vector>

#include "lidx/detail/alex_lipp_dili_common.h"

namespace lidx {
namespace detail {

inline double DiliLevelCost(double n, double m, long double sse) {
  double stages = m <= 1 ? 1.0 : std::log(n) / std::log(n / m);
  double rmse = std::sqrt(static_cast<double>(sse) / n);
  return stages + std::log2(1 + rmse);
}

// Start indices (ascending, first 0) of the segments chosen for x[0, n).
template <typename K>
std::vector<size_t> DiliPartition(const K* x, size_t n) {
  const size_t run = std::max<size_t>(2, n >> 20);
  if (n < 2 * run) return {0};
  const size_t runs = n / run;  // the last run takes the remainder
  std::vector<LineFit> fit(runs);
  std::vector<size_t> start(runs);
  std::vector<uint32_t> prev(runs), next(runs), version(runs, 0);
  long double total = 0;
  for (size_t r = 0; r < runs; ++r) {
    start[r] = r * run;
    size_t end = r + 1 == runs ? n : start[r] + run;
    for (size_t i = start[r]; i < end; ++i) {
      fit[r].Add(KeyOffsetL(x[i], x[0]), static_cast<long double>(i));
    }
    total += fit[r].Sse();
    prev[r] = static_cast<uint32_t>(r - 1);  // wraps for r == 0: unused
    next[r] = static_cast<uint32_t>(r + 1);
  }
  struct Cand {
    long double cost;
    uint32_t left, right, vl, vr;
    bool operator>(const Cand& o) const { return cost > o.cost; }
  };
  auto cand = [&](uint32_t l, uint32_t r) {
    long double c =
        LineFit::Merge(fit[l], fit[r]).Sse() - fit[l].Sse() - fit[r].Sse();
    return Cand{c, l, r, version[l], version[r]};
  };
  std::priority_queue<Cand, std::vector<Cand>, std::greater<Cand>> heap;
  for (uint32_t r = 0; r + 1 < runs; ++r) heap.push(cand(r, r + 1));

  std::vector<uint32_t> merged_away;  // right run of each merge, in order
  merged_away.reserve(runs);
  size_t alive = runs, best_merges = 0;
  double best = DiliLevelCost(n, alive, total);
  while (alive > 1 && !heap.empty()) {
    Cand c = heap.top();
    heap.pop();
    if (c.vl != version[c.left] || c.vr != version[c.right]) continue;
    long double before = fit[c.left].Sse() + fit[c.right].Sse();
    fit[c.left] = LineFit::Merge(fit[c.left], fit[c.right]);
    total += fit[c.left].Sse() - before;
    if (total < 0) total = 0;
    ++version[c.left];
    version[c.right] = UINT32_MAX;  // dead: every pair naming it is stale
    uint32_t nr = next[c.right];
    next[c.left] = nr;
    if (nr < runs) {
      prev[nr] = c.left;
      heap.push(cand(c.left, nr));
    }
    if (c.left > 0 && start[c.left] > 0) heap.push(cand(prev[c.left], c.left));
    merged_away.push_back(c.right);
    --alive;
    double cost = DiliLevelCost(n, alive, total);
    if (cost < best) {
      best = cost;
      best_merges = merged_away.size();
    }
  }
  std::vector<char> gone(runs, 0);
  for (size_t i = 0; i < best_merges; ++i) gone[merged_away[i]] = 1;
  std::vector<size_t> borders;
  for (size_t r = 0; r < runs; ++r) {
    if (!gone[r]) borders.push_back(start[r]);
  }
  return borders;
}

}  // namespace detail
}  // namespace lidx

#endif  // LIDX_DETAIL_DILI_BUTREE_H_

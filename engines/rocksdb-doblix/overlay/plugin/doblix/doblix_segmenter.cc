#include "plugin/doblix/doblix_segmenter.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "plugin/doblix/doblix_model.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// Calls f(x, y) for every staircase point of block [begin, end), y relative.
template <typename F>
void ForEachPoint(const std::vector<uint64_t>& chunks, size_t begin, size_t end, F&& f) {
  for (size_t i = begin; i < end; i++) {
    if (i > begin && chunks[i] == chunks[i - 1]) continue;
    double y = static_cast<double>(i - begin);
    if (i > begin && chunks[i - 1] + 1 < chunks[i]) f(chunks[i - 1] + 1, y);
    f(chunks[i], y);
  }
  // The staircase's end: past the last integer the lower bound is the block size.
  if (chunks[end - 1] != std::numeric_limits<uint64_t>::max()) {
    f(chunks[end - 1] + 1, static_cast<double>(end - begin));
  }
}

}  // namespace

void DoblixSegmenter::Measure(const std::vector<uint64_t>& chunks, DoblixCut* cut) {
  const uint64_t first = chunks[cut->begin];
  double worst = 0;
  ForEachPoint(chunks, cut->begin, cut->end, [&](uint64_t x, double y) {
    worst = std::max(worst, std::fabs(DoblixPredict(first, cut->slope, cut->intercept, x) - y));
  });
  cut->error = static_cast<uint32_t>(std::min(std::ceil(worst), 1e9));
}

std::vector<DoblixCut> DoblixSegmenter::Pla(const std::vector<uint64_t>& chunks,
                                            const std::vector<uint32_t>& bytes, uint32_t error,
                                            uint32_t max_block, size_t begin, size_t end) {
  std::vector<DoblixCut> cuts;
  const double e = error;
  end = std::min(end, chunks.size());
  while (begin < end) {
    const uint64_t x0 = chunks[begin];
    uint64_t size = bytes[begin];
    double lo = 0, hi = std::numeric_limits<double>::infinity();
    size_t i = begin + 1;
    for (; i < end; i++) {
      // Data access first (lexicographic): never pass B_max.
      if (size + bytes[i] > max_block) break;
      if (chunks[i] != chunks[i - 1]) {
        double y = static_cast<double>(i - begin);
        double nlo = lo, nhi = hi;
        auto narrow = [&](uint64_t x) {
          double dx = static_cast<double>(x - x0);
          nlo = std::max(nlo, (y - e) / dx);
          nhi = std::min(nhi, (y + e) / dx);
        };
        if (chunks[i - 1] + 1 < chunks[i]) narrow(chunks[i - 1] + 1);
        narrow(chunks[i]);
        if (nlo > nhi) break;  // APE(line, block) would exceed E
        lo = nlo;
        hi = nhi;
      }
      size += bytes[i];
    }
    DoblixCut cut;
    cut.begin = begin;
    cut.end = i;
    cut.slope = static_cast<float>(std::isinf(hi) ? 0.0 : (lo + hi) / 2);
    Measure(chunks, &cut);
    cuts.push_back(cut);
    begin = i;
  }
  return cuts;
}

std::vector<DoblixCut> DoblixSegmenter::Pra(const std::vector<uint64_t>& chunks,
                                            const std::vector<uint32_t>& bytes,
                                            uint32_t max_block, size_t begin, size_t end) {
  std::vector<DoblixCut> cuts;
  end = std::min(end, chunks.size());
  while (begin < end) {
    // Algorithm 2: fill the partition up to B_max bytes.
    uint64_t size = bytes[begin];
    size_t stop = begin + 1;
    while (stop < end && size + bytes[stop] <= max_block) size += bytes[stop++];
    // Algorithm 3: a least-squares line per partition.
    cuts.push_back(Fit(chunks, begin, stop));
    begin = stop;
  }
  return cuts;
}

DoblixCut DoblixSegmenter::Fit(const std::vector<uint64_t>& chunks, size_t begin, size_t end) {
  const uint64_t x0 = chunks[begin];
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  ForEachPoint(chunks, begin, end, [&](uint64_t x, double y) {
    double dx = static_cast<double>(x - x0);
    n += 1;
    sx += dx;
    sy += y;
    sxx += dx * dx;
    sxy += dx * y;
  });
  double var = sxx - sx * sx / n;
  double slope = var > 0 ? (sxy - sx * sy / n) / var : 0.0;
  if (!(slope > 0) || !std::isfinite(slope)) slope = 0;  // monotone lines only
  DoblixCut cut;
  cut.begin = begin;
  cut.end = end;
  cut.slope = static_cast<float>(slope);
  cut.intercept = static_cast<float>((sy - slope * sx) / n);
  Measure(chunks, &cut);
  return cut;
}

std::vector<DoblixCut> DoblixSegmenter::Bourbon(const std::vector<uint64_t>& chunks,
                                                const std::vector<uint32_t>& bytes,
                                                uint32_t error, uint32_t max_block,
                                                DoblixModel* model) {
  // The PLR ignores block bytes: the dual objective is what Bourbon lacks.
  std::vector<DoblixCut> segments =
      Pla(chunks, bytes, error, std::numeric_limits<uint32_t>::max());
  model->entries = chunks.size();
  model->plr.clear();
  for (const DoblixCut& c : segments) {
    DoblixPlrSegment p;
    p.first_chunk = chunks[c.begin];
    p.begin = c.begin;
    p.slope = c.slope;
    p.error = c.error;
    model->plr.push_back(p);
  }
  std::vector<DoblixCut> blocks;
  model->block_first_entry.clear();
  size_t begin = 0;
  while (begin < chunks.size()) {
    uint64_t size = bytes[begin];
    size_t end = begin + 1;
    while (end < chunks.size() && size + bytes[end] <= max_block) size += bytes[end++];
    DoblixCut b;
    b.begin = begin;
    b.end = end;
    blocks.push_back(b);
    model->block_first_entry.push_back(begin);
    begin = end;
  }
  return blocks;
}

std::vector<DoblixCut> DoblixSegmenter::Rmi(const std::vector<uint64_t>& chunks, uint32_t leaves,
                                            DoblixModel* model) {
  // Root: one least-squares line over the table's staircase.
  DoblixCut root = Fit(chunks, 0, chunks.size());
  model->root_x0 = chunks.front();
  model->root_slope = root.slope;
  model->root_intercept = root.intercept;
  model->root_entries = chunks.size();
  model->leaf_to_block.assign(leaves == 0 ? 1 : leaves, 0);
  std::vector<DoblixCut> cuts;
  size_t begin = 0;
  uint32_t next_leaf = 0;  // leaves below it already point at a block
  while (begin < chunks.size()) {
    uint32_t leaf = model->LeafOf(chunks[begin]);
    size_t end = begin + 1;
    while (end < chunks.size() && model->LeafOf(chunks[end]) == leaf) end++;
    // Empty leaves before this one lead to this block (their keys' lower
    // bound is its first entry).
    for (; next_leaf <= leaf; next_leaf++) model->leaf_to_block[next_leaf] = cuts.size();
    cuts.push_back(Fit(chunks, begin, end));
    begin = end;
  }
  for (; next_leaf < model->leaf_to_block.size(); next_leaf++) {
    model->leaf_to_block[next_leaf] = static_cast<uint32_t>(cuts.size());
  }
  return cuts;
}

}  // namespace ROCKSDB_NAMESPACE

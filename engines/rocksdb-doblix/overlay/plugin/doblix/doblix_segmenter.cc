#include "plugin/doblix/doblix_segmenter.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "plugin/doblix/doblix_bourbon.h"
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
  model->entries = chunks.size();
  auto plr = std::make_shared<DoblixBourbonModel>();
  plr->Train(chunks, error);
  model->plr = std::move(plr);
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

namespace {
// Least squares y = intercept + slope * (x - x0) over entries [begin, end)
// (every entry, as TridentKV's LAPACK fit), centred for precision; a
// falling or undefined slope becomes a flat line (offsets never fall).
void FitOffsets(const std::vector<uint64_t>& chunks, const std::vector<double>& offsets,
                uint64_t x0, size_t begin, size_t end, double* slope, double* intercept) {
  auto dx = [&](size_t i) { return DoblixRmiDx(chunks[i], x0); };
  const double n = static_cast<double>(end - begin);
  double mx = 0, my = 0;
  for (size_t i = begin; i < end; i++) {
    mx += dx(i);
    my += offsets[i];
  }
  mx /= n;
  my /= n;
  double sxx = 0, sxy = 0;
  for (size_t i = begin; i < end; i++) {
    sxx += (dx(i) - mx) * (dx(i) - mx);
    sxy += (dx(i) - mx) * (offsets[i] - my);
  }
  *slope = sxx > 0 ? sxy / sxx : 0.0;
  if (!(*slope > 0) || !std::isfinite(*slope)) *slope = 0;
  *intercept = my - *slope * mx;
}
}  // namespace

std::vector<DoblixCut> DoblixSegmenter::Rmi(const std::vector<uint64_t>& chunks,
                                            const std::vector<uint32_t>& kv_bytes,
                                            uint32_t leaves, uint32_t block_bytes,
                                            DoblixModel* model) {
  const size_t n = chunks.size();
  std::vector<double> offsets(n);
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++) {
    total += kv_bytes[i];  // TridentKV: `_bytes` grows before the key is inserted
    offsets[i] = static_cast<double>(total);
  }
  model->root_x0 = chunks.front();
  model->rmi_bytes = total;
  model->rmi_block_bytes = block_bytes;
  model->rmi_leaves.assign(leaves == 0 ? 1 : leaves, DoblixModel::RmiLeaf());
  FitOffsets(chunks, offsets, model->root_x0, 0, n, &model->root_slope, &model->root_intercept);
  // The root is monotone, so each leaf's entries are one run; TridentKV
  // trains a leaf on its entries plus its neighbours' nearest (its AUG).
  std::vector<size_t> first(model->rmi_leaves.size() + 1, n);
  for (size_t i = n; i-- > 0;) first[model->LeafOf(chunks[i])] = i;
  for (size_t j = model->rmi_leaves.size(); j-- > 0;) first[j] = std::min(first[j], first[j + 1]);
  for (size_t j = 0; j < model->rmi_leaves.size(); j++) {
    if (first[j] == first[j + 1]) continue;  // empty
    FitOffsets(chunks, offsets, model->root_x0, first[j] > 0 ? first[j] - 1 : 0,
               std::min(first[j + 1] + 1, n), &model->rmi_leaves[j].slope,
               &model->rmi_leaves[j].intercept);
  }
  // Block numbers, made non-decreasing over the entries; each leaf's clamp
  // is its first and last entry's number (an empty leaf: the next entry's),
  // which RmiNumber then reproduces for every entry (the running maximum
  // within a leaf is the clamp of its own monotone line).
  std::vector<DoblixCut> cuts;
  model->rmi_block_of.clear();
  uint32_t number = 0;
  for (size_t j = 0; j < model->rmi_leaves.size(); j++) {
    DoblixModel::RmiLeaf& leaf = model->rmi_leaves[j];
    if (first[j] == first[j + 1]) {
      // Filled in below, once the next entry's number is known.
      leaf.lo = leaf.hi = UINT32_MAX;
      continue;
    }
    for (size_t i = first[j]; i < first[j + 1]; i++) {
      const uint32_t raw = model->RmiRawNumber(static_cast<uint32_t>(j), chunks[i]);
      if (i == 0 || raw > number) {
        number = std::max(raw, number);
        // Numbers no entry has lead to the next block.
        model->rmi_block_of.resize(number + 1, static_cast<uint32_t>(cuts.size()));
        if (!cuts.empty()) cuts.back().end = i;
        DoblixCut c;
        c.begin = i;
        cuts.push_back(c);
      }
      if (i == first[j]) leaf.lo = number;
    }
    leaf.hi = number;
  }
  cuts.back().end = n;
  uint32_t next = number;  // past the last entry: the last block's number
  for (size_t j = model->rmi_leaves.size(); j-- > 0;) {
    DoblixModel::RmiLeaf& leaf = model->rmi_leaves[j];
    if (leaf.lo == UINT32_MAX) {
      leaf.lo = leaf.hi = next;
    } else {
      next = leaf.lo;
    }
  }
  return cuts;
}

}  // namespace ROCKSDB_NAMESPACE

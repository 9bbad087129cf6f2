#include "layers/learned/rmi_leaves.h"

#include <algorithm>
#include <cmath>

#include "lidx/registry.h"

namespace leveldb {

namespace {
// The corrected model aims at this share of the boundary, so that the
// prediction's error more often lands inside than outside it.
constexpr double kMargin = 0.9;
}  // namespace

double MeanBoundWidth(const lidx::Index<uint64_t>& index, const std::vector<uint64_t>& keys) {
  const uint64_t n = keys.size();
  const uint64_t step = std::max<uint64_t>(1, n / 1024);
  double sum = 0;
  uint64_t count = 0;
  for (uint64_t i = 0; i < n; i += step, count++) {
    const lidx::Bound b = index.Search(keys[i]);
    sum += static_cast<double>(b.hi - b.lo);
  }
  return count ? sum / count : 0.0;
}

// Why the mean width and this prediction. RMI's bound is an outcome of its
// second-level size (seed 000 §4.2: the size of the second level "in turn
// affects the position boundary"), so the boundary is held by choosing that
// size. Held is the mean width hi - lo over a sample of the keys, what a
// lookup reads on average; not the max, since a leaf's error is its worst
// key and one leaf across a cluster edge would push every table toward n
// leaves (the error-bounded indexes' width is the same for every lookup, so
// their mean is their max). A leaf's error grows with the keys it covers
// as a random walk's does, with their square root (measured: uniform and
// lognormal tables, rmi_sizing_bench.cc; 1/L predicted 3x too many leaves
// when shrinking), so from the first model's width w0 at L0 leaves,
// L1 = L0 * (w0 / (0.9 * boundary))^2. Capped at n leaves
// (24 bytes a key): keys the radix root cannot spread (decimal digits fill
// 10 of every 256 byte values) stay wider there (README, "RMI's position
// boundary").
lidx::Status SizeRmiLeaves(const LearnedTableConfig& c, const std::vector<uint64_t>& mapped,
                           std::unique_ptr<lidx::Index<uint64_t>>* model, uint64_t* trainings,
                           std::string* err) {
  const uint64_t n = mapped.size();
  const double boundary = static_cast<double>(c.position_boundary);
  const lidx::IndexInfo* info = lidx::FindIndexInfo(c.index);
  // The leaf count width w at l leaves predicts, if width ~ leaves^-p.
  auto predict = [&](uint64_t l, double w, double p) {
    const double want = l * std::pow(w / (kMargin * boundary), 1.0 / p);
    return static_cast<uint64_t>(std::clamp(std::ceil(want), 1.0, static_cast<double>(n)));
  };
  uint64_t l0 = std::max<uint64_t>(1, n / c.position_boundary);
  double w0 = MeanBoundWidth(**model, mapped);
  uint64_t l1 = predict(l0, w0, 0.5);
  // Within the boundary and a correction would save little: keep it.
  if (n == 0 || l1 == l0 || (w0 <= boundary && l1 * 5 > l0 * 4)) return lidx::Status::OK();
  for (int pass = 0; pass < 2; pass++) {
    lidx::Options knobs = TableIndexKnobs(c, n);
    knobs[std::string(info->knob)] = std::to_string(l1);
    std::unique_ptr<lidx::Index<uint64_t>> m = lidx::MakeIndex<uint64_t>(c.index, knobs, err);
    if (m == nullptr) return lidx::Status::Error(*err);
    lidx::Status s = m->Build(mapped.data(), n, nullptr);
    if (!s.ok()) return s;
    *trainings += 1;
    const double w1 = MeanBoundWidth(*m, mapped);
    // Keep the one that holds the boundary (the correction when both do:
    // fewer leaves), else the narrower.
    const bool keep_new = w1 <= boundary ? true : w0 <= boundary ? false : w1 < w0;
    if (keep_new) *model = std::move(m);
    // A second correction only where growing fell short and n leaves are
    // not reached yet: from the exponent the two models measured.
    if (w1 <= boundary || w0 <= boundary || l1 <= l0 || l1 >= n) break;
    const double p = std::clamp(std::log(w0 / std::max(w1, 1e-9)) /
                                    std::log(static_cast<double>(l1) / l0), 0.1, 2.0);
    // At most 8x: an exponent measured between two points far off the
    // boundary overshoots (decimal keys at 128 went to n leaves).
    const uint64_t l2 = std::clamp(predict(l1, w1, p), l1 + 1, 8 * l1);
    l0 = l1;
    w0 = std::min(w0, w1);
    l1 = std::min(l2, n);
  }
  return lidx::Status::OK();
}

}  // namespace leveldb

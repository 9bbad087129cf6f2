// ALEX's bulk load (alex.h's header describes the cost model): the
// definition of AlexIndex<K>::Builder, kept apart from the index it fills.
// Included by alex.h; not for direct use.
#ifndef LIDX_DETAIL_ALEX_BUILD_H_
#define LIDX_DETAIL_ALEX_BUILD_H_

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "lidx/alex.h"
#include "lidx/detail/alex_lipp_dili_common.h"

namespace lidx {

template <typename K>
struct AlexIndex<K>::Builder {
  AlexIndex* idx;
  detail::DistinctInput<K> in;
  detail::BuildBudget budget;
  const K* keys = in.keys;
  size_t count = in.count;

  size_t Capacity(size_t m) const {
    size_t c = static_cast<size_t>(std::ceil(m / idx->init_density_));
    return std::max(c, std::max<size_t>(m, 1));
  }
  size_t DataBytes(size_t m) const {
    size_t c = Capacity(m);
    return c * (sizeof(K) + sizeof(uint32_t)) + (c + 63) / 64 * 8;
  }
  static size_t SampleStep(size_t m) {
    return std::max<size_t>(1, m / kMaxSamples);
  }

  // Least-squares rank model of keys[b, e) (rank 0 at keys[b]), on a
  // sample for large nodes; *rmse is its error in ranks.
  Model FitRanks(size_t b, size_t e, double* rmse) const {
    detail::LineFit fit;
    size_t step = SampleStep(e - b);
    for (size_t i = b; i < e; i += step) {
      fit.Add(detail::KeyOffsetL(keys[i], keys[b]),
              static_cast<long double>(i - b));
    }
    Model m;
    m.base = keys[b];
    m.slope = static_cast<double>(fit.Slope());
    m.intercept = static_cast<double>(fit.Intercept());
    *rmse = fit.n > 0 ? std::sqrt(static_cast<double>(fit.Sse() / fit.n)) : 0;
    return m;
  }

  // The rank model stretched onto `slots` slots; falls back to the line
  // through the end keys if the fit is unusable (it must be increasing for
  // lookups to be monotone).
  Model Scaled(const Model& rm, size_t b, size_t e, size_t slots) const {
    size_t m = e - b;
    double scale = static_cast<double>(slots) / static_cast<double>(m);
    Model s{rm.slope * scale, rm.intercept * scale, rm.base};
    if (!(s.slope > 0) || !std::isfinite(s.slope) ||
        !std::isfinite(s.intercept)) {
      double span = detail::KeyOffset(keys[e - 1], keys[b]);
      s.slope = span > 0 ? static_cast<double>(slots - 1) / span : 0;
      s.intercept = 0;
    }
    return s;
  }

  // Expected cost of splitting keys[b, e) into `f` children, in search
  // steps per key (see the header comment).
  double SplitCost(size_t b, size_t e, const Model& rm, size_t f) const {
    size_t m = e - b, step = SampleStep(m);
    Model im = Scaled(rm, b, e, f);
    size_t max_keys = Capacity(m);  // any key count whose array fits
    while (max_keys > 1 && DataBytes(max_keys) > idx->max_data_node_bytes_) {
      max_keys /= 2;
    }
    double cost = 0, samples = 0, nodes = 0;
    uint32_t cur = UINT32_MAX;
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
    size_t first = b;
    auto flush = [&](size_t end) {
      if (n == 0) return;
      double cxx = sxx - sx * sx / n, cxy = sxy - sx * sy / n;
      double sse = syy - sy * sy / n - (cxx > 0 ? cxy * cxy / cxx : 0);
      double rmse = sse > 0 ? std::sqrt(sse / n) : 0;
      cost += n * (std::log2(1 + rmse) + (end - first > max_keys ? 1 : 0));
      samples += n;
      nodes += 1;
    };
    for (size_t i = b; i < e; i += step) {
      uint32_t c = Slot(im, keys[i], static_cast<uint32_t>(f));
      if (c != cur) {
        flush(i);
        cur = c;
        first = i;
        n = sx = sy = sxx = sxy = syy = 0;
      }
      double x = detail::KeyOffset(keys[i], keys[first]);
      double y = static_cast<double>(i - first);
      n += 1;
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
      syy += y * y;
    }
    flush(e);
    double bytes = (nodes + 1) * kNodeOverheadBytes + f * sizeof(uint32_t);
    return 1 + cost / samples + kSizeWeight * bytes * count / m;
  }

  Status Node(size_t b, size_t e, size_t depth, uint32_t* ref) {
    if (!budget.DepthOk(depth)) return budget.DepthError("alex");
    idx->max_level_ = std::max(idx->max_level_, depth);
    size_t m = e - b;
    if (m == 0) return MakeData(b, e, Model{}, ref);
    double rmse;
    Model rm = FitRanks(b, e, &rmse);
    bool fits = DataBytes(m) <= idx->max_data_node_bytes_;
    if (fits && m <= 16) return MakeData(b, e, rm, ref);
    double best = std::numeric_limits<double>::infinity();
    size_t best_f = 2;
    for (size_t f = 2; f <= std::min<size_t>(m, size_t{1} << 20); f *= 2) {
      double c = SplitCost(b, e, rm, f);
      if (c < best) {
        best = c;
        best_f = f;
      }
    }
    double data_cost =
        std::log2(1 + rmse) + kSizeWeight * kNodeOverheadBytes * count / m;
    if (fits && data_cost <= best) return MakeData(b, e, rm, ref);
    return MakeInner(b, e, depth, rm, best_f, ref);
  }

  Status MakeInner(size_t b, size_t e, size_t depth, const Model& rm,
                   size_t f, uint32_t* ref) {
    if (!budget.Charge(sizeof(Inner) + f * sizeof(uint32_t))) {
      return budget.MemoryError("alex");
    }
    size_t m = e - b;
    Inner in;
    in.model = Scaled(rm, b, e, f);
    in.fanout = static_cast<uint32_t>(f);
    in.first_child = static_cast<uint32_t>(idx->children_.size());
    const uint32_t id = static_cast<uint32_t>(idx->inners_.size());
    idx->inners_.push_back(in);
    idx->children_.resize(idx->children_.size() + f);
    *ref = id;
    std::vector<size_t> start(f + 1, 0);
    for (size_t i = b; i < e; ++i) ++start[Slot(in.model, keys[i], in.fanout) + 1];
    for (size_t c = 0; c < f; ++c) start[c + 1] += start[c];
    // Group adjacent children up to the average child size; empty children
    // join a neighbour (their lookups end at its end_pos or first key).
    const size_t limit = std::max<size_t>(16, m / f);
    for (size_t c = 0; c < f;) {
      size_t g = c, total = start[c + 1] - start[c];
      for (++c; c < f; ++c) {
        size_t k = start[c + 1] - start[c];
        if (k != 0 && total != 0 && total + k > limit) break;
        total += k;
      }
      if (total == m && g == 0 && c == f) {
        return Status::Error("alex: inner model cannot split " +
                             std::to_string(m) + " keys");
      }
      uint32_t child;
      Status s = Node(b + start[g], b + start[c], depth + 1, &child);
      if (!s.ok()) return s;
      for (size_t t = g; t < c; ++t) idx->children_[in.first_child + t] = child;
    }
    return Status::OK();
  }

  // Gapped array filled by model-based inserts: each key goes to its
  // predicted slot, or the first free slot after the previous key, leaving
  // room for the keys still to come.
  Status MakeData(size_t b, size_t e, const Model& rm, uint32_t* ref) {
    size_t m = e - b, cap = Capacity(m);
    if (!budget.Charge(sizeof(Data) + DataBytes(m))) {
      return budget.MemoryError("alex");
    }
    Data d;
    d.capacity = static_cast<uint32_t>(cap);
    d.end_pos = in.PosAt(e);
    if (m > 0) d.model = Scaled(rm, b, e, cap);
    d.keys.assign(cap, std::numeric_limits<K>::max());
    d.pos.assign(cap, d.end_pos);
    d.occupied.assign((cap + 63) / 64, 0);
    size_t next_free = 0;
    for (size_t i = 0; i < m; ++i) {
      size_t p = Slot(d.model, keys[b + i], d.capacity);
      p = std::min(std::max(p, next_free), cap - (m - i));
      d.keys[p] = keys[b + i];
      d.pos[p] = in.PosAt(b + i);
      d.occupied[p >> 6] |= uint64_t{1} << (p & 63);
      next_free = p + 1;
    }
    for (size_t p = cap - 1; p-- > 0;) {
      if (!((d.occupied[p >> 6] >> (p & 63)) & 1)) {
        d.keys[p] = d.keys[p + 1];
        d.pos[p] = d.pos[p + 1];
      }
    }
    *ref = kDataBit | static_cast<uint32_t>(idx->data_.size());
    idx->data_.push_back(std::move(d));
    return Status::OK();
  }
};

}  // namespace lidx

#endif  // LIDX_DETAIL_ALEX_BUILD_H_

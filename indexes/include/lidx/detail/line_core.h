// The state plr and ft share: one level of line segments over the data, its
// measured errors, and the first/last key. The indexes differ only in how
// they cut segments (the fitter) and how they find a query's segment.
#ifndef LIDX_DETAIL_LINE_CORE_H_
#define LIDX_DETAIL_LINE_CORE_H_

#include <vector>

#include "lidx/detail/segments.h"
#include "lidx/detail/serialize.h"

namespace lidx {
namespace detail {

template <typename K>
struct LineCore {
  size_t n = 0;
  K last_key = 0;
  Errors err;
  std::vector<LineSeg<K>> segs;

  template <typename Fitter>
  void Build(const K* keys, size_t num, Fitter& fit) {
    n = num;
    segs = FitLines(keys, num, fit);
    err = MeasureLineErrors(keys, num, segs);
    last_key = num ? keys[num - 1] : K(0);
  }

  // Handles the cases no segment serves; returns false when a segment must.
  bool Trivial(K q, Bound* b) const {
    if (n == 0 || q <= segs[0].x) {
      *b = Bound{0, 0, 0};
      return true;
    }
    if (q > last_key) {
      *b = Bound{n, n, n};
      return true;
    }
    return false;
  }

  void Serialize(Writer* w) const {
    w->Pods<uint64_t, K, int64_t, int64_t>(n, last_key, err.lo, err.hi);
    w->Vector(segs);
  }

  Status Deserialize(Reader* r) {
    uint64_t num = 0;
    K last = 0;
    Errors e;
    std::vector<LineSeg<K>> s;
    Status st = r->Pod(&num, "n");
    if (st.ok()) {
      st = r->Pods({"last key", "error below", "error above"}, &last, &e.lo,
                   &e.hi);
    }
    if (st.ok()) st = r->Vector(&s, "segments");
    if (st.ok()) st = CheckStoredPoints(num, e, s, "segments");
    if (!st.ok()) return st;
    n = num;
    last_key = last;
    err = e;
    segs = std::move(s);
    return Status::OK();
  }

  size_t HeapBytes() const { return VectorBytes(segs); }
};

}  // namespace detail
}  // namespace lidx

#endif  // LIDX_DETAIL_LINE_CORE_H_

#include "plugin/doblix/doblix_bourbon.h"

#include <algorithm>
#include <string_view>

#include "lidx/detail/line_core.h"
#include "lidx/plr.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

struct DoblixBourbonModel::Core {
  lidx::detail::LineCore<uint64_t> lines;
};

DoblixBourbonModel::DoblixBourbonModel() : core_(new Core) {}
DoblixBourbonModel::~DoblixBourbonModel() = default;

void DoblixBourbonModel::Train(const std::vector<uint64_t>& chunks, uint32_t error) {
  lidx::detail::GreedyPlrFitter<uint64_t> fit(static_cast<double>(error));
  lidx::detail::LineCore<uint64_t>& c = core_->lines;
  c.Build(chunks.data(), chunks.size(), fit);
  // Bourbon reads positions pos - δ through pos + δ (seed 004 §4.3), not
  // the tighter error the lines turned out to have; the measured error
  // only where rounding took it past δ.
  c.err.lo = std::max<int64_t>(c.err.lo, error);
  c.err.hi = std::max<int64_t>(c.err.hi, error);
}

void DoblixBourbonModel::Range(uint64_t x, uint64_t* lo, uint64_t* hi) const {
  const lidx::detail::LineCore<uint64_t>& c = core_->lines;
  // lidx::PlrIndex::Search: the segment by binary search over the
  // segments' first keys, then its line within the measured error.
  auto search = [&c](uint64_t q) {
    lidx::Bound b;
    if (c.Trivial(q, &b)) return b;
    const size_t s = lidx::detail::LastSegAtOrBefore(c.segs.data(), 0, c.segs.size(), q);
    return lidx::detail::LineBound(c.segs.data(), c.segs.size(), s, q, c.n, c.err);
  };
  // Keys sharing x have their lower bounds between those of x and x + 1.
  *lo = search(x).lo;
  *hi = x == ~uint64_t{0} ? c.n : search(x + 1).hi;
  if (*hi < *lo) *hi = *lo;
}

uint64_t DoblixBourbonModel::entries() const { return core_->lines.n; }
size_t DoblixBourbonModel::segments() const { return core_->lines.segs.size(); }
size_t DoblixBourbonModel::MemoryBytes() const {
  return sizeof(*this) + sizeof(Core) + core_->lines.HeapBytes();
}

void DoblixBourbonModel::EncodeTo(std::string* out) const {
  std::string body;
  lidx::detail::Writer w(&body);
  core_->lines.Serialize(&w);
  PutLengthPrefixedSlice(out, body);
}

Status DoblixBourbonModel::DecodeFrom(Slice* in) {
  Slice body;
  if (!GetLengthPrefixedSlice(in, &body)) {
    return Status::Corruption("doblix model block: bourbon plr length");
  }
  lidx::detail::Reader r(std::string_view(body.data(), body.size()));
  lidx::detail::LineCore<uint64_t> lines;
  lidx::Status s = lines.Deserialize(&r);
  if (s.ok()) s = r.Finish();
  if (!s.ok()) return Status::Corruption("doblix model block: bourbon plr", s.message());
  core_->lines = std::move(lines);
  return Status::OK();
}

}  // namespace ROCKSDB_NAMESPACE

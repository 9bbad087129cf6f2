#include "plugin/doblix/doblix_model.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "plugin/doblix/doblix_bourbon.h"
#include "plugin/doblix/doblix_format.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

namespace {
constexpr uint32_t kModelMagic = 0x58424f44;  // "DOBX"

uint32_t FloatBits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof(u));
  return u;
}
float BitsFloat(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof(f));
  return f;
}
uint64_t DoubleBits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof(u));
  return u;
}
bool GetDouble(Slice* in, double* d) {
  if (in->size() < 8) return false;
  uint64_t u = DecodeFixed64(in->data());
  in->remove_prefix(8);
  memcpy(d, &u, sizeof(*d));
  return std::isfinite(*d);
}
}  // namespace

void DoblixModel::EncodeTo(std::string* out) const {
  const size_t start = out->size();
  PutFixed32(out, kModelMagic);
  out->push_back(static_cast<char>(kind));
  PutLengthPrefixedSlice(out, prefix);
  PutVarint64(out, segments.size());
  // Blocks are contiguous from offset 0, so sizes alone place them.
  // TridentKV-style: its index block places them (doblix_tridentkv_index.h).
  for (const DoblixSegment& s : segments) {
    if (kind == DoblixModelKind::kRmi) break;
    PutFixed64(out, s.first_chunk);
    PutVarint32(out, s.size);
    PutVarint32(out, (s.error << 1) | (s.cont ? 1u : 0u));
    // no per-block model
    if (kind == DoblixModelKind::kPlr || kind == DoblixModelKind::kRmi) continue;
    PutFixed32(out, FloatBits(s.slope));
    if (kind != DoblixModelKind::kPla) PutFixed32(out, FloatBits(s.intercept));
  }
  if (!nodes.empty()) EncodeNode(0, out);
  if (kind == DoblixModelKind::kPlr) {
    PutVarint64(out, entries);
    uint64_t prev = 0;
    for (uint64_t f : block_first_entry) {
      PutVarint64(out, f - prev);
      prev = f;
    }
    if (plr != nullptr) plr->EncodeTo(out);
  }
  // A table of range deletions only has no blocks and no RMI.
  if (kind == DoblixModelKind::kRmi && !segments.empty()) {
    PutFixed64(out, root_x0);
    PutFixed64(out, DoubleBits(root_slope));
    PutFixed64(out, DoubleBits(root_intercept));
    PutVarint64(out, rmi_bytes);
    PutVarint32(out, rmi_block_bytes);
    PutVarint32(out, static_cast<uint32_t>(rmi_leaves.size()));
    uint32_t prev = 0;  // lo and hi never fall from leaf to leaf
    for (const RmiLeaf& l : rmi_leaves) {
      PutFixed64(out, DoubleBits(l.slope));
      PutFixed64(out, DoubleBits(l.intercept));
      PutVarint32(out, l.lo - prev);
      PutVarint32(out, l.hi - l.lo);
      prev = l.hi;
    }
    PutVarint32(out, static_cast<uint32_t>(rmi_block_of.size()));
    prev = 0;
    for (uint32_t b : rmi_block_of) {
      PutVarint32(out, b - prev);
      prev = b;
    }
  }
  PutFixed32(out, DoblixChecksum(out->data() + start, out->size() - start));
}

Status DoblixModel::DecodeFrom(const Slice& block) {
  Slice in;
  Status s = DecodeHeader(block, &in);
  if (s.ok()) s = DecodeSegments(&in);
  if (!s.ok()) return s;
  nodes.clear();
  if ((kind == DoblixModelKind::kPla || kind == DoblixModelKind::kPra) && !segments.empty()) {
    uint32_t next_block = 0;
    nodes.emplace_back();
    s = DecodeNode(&in, 0, static_cast<uint32_t>(prefix.size()), 0, &next_block);
    if (!s.ok()) return s;
    if (next_block != segments.size()) {
      return Status::Corruption("doblix model block: string index misses blocks");
    }
  }
  if (kind == DoblixModelKind::kRmi && !segments.empty()) {
    s = DecodeRmi(&in);
    if (!s.ok()) return s;
  }
  if (kind == DoblixModelKind::kPlr) {
    s = DecodePlr(&in);
    if (!s.ok()) return s;
  }
  if (!in.empty()) return Status::Corruption("doblix model block: trailing bytes");
  return Status::OK();
}

// The block's frame: checksum, magic, the model kind; *in is left at the
// key prefix.
Status DoblixModel::DecodeHeader(const Slice& block, Slice* in) {
  if (block.size() < 8) return Status::Corruption("doblix model block: truncated");
  const size_t body = block.size() - 4;
  if (DecodeFixed32(block.data() + body) != DoblixChecksum(block.data(), body)) {
    return Status::Corruption("doblix model block: checksum mismatch");
  }
  *in = Slice(block.data(), body);
  if (DecodeFixed32(in->data()) != kModelMagic) {
    return Status::Corruption("doblix model block: bad magic");
  }
  in->remove_prefix(4);
  if (in->empty()) return Status::Corruption("doblix model block: no kind");
  uint8_t k = static_cast<uint8_t>((*in)[0]);
  in->remove_prefix(1);
  if (k != static_cast<uint8_t>(DoblixModelKind::kPla) &&
      k != static_cast<uint8_t>(DoblixModelKind::kPra) &&
      k != static_cast<uint8_t>(DoblixModelKind::kRmi) &&
      k != static_cast<uint8_t>(DoblixModelKind::kPlr)) {
    return Status::Corruption("doblix model block: unknown model kind " + std::to_string(k));
  }
  kind = static_cast<DoblixModelKind>(k);
  return Status::OK();
}

// The key prefix and the blocks: each one's first chunk, size, error, and
// its own line where the kind has one per block.
Status DoblixModel::DecodeSegments(Slice* in) {
  Slice p;
  uint64_t count = 0;
  if (!GetLengthPrefixedSlice(in, &p)) return Status::Corruption("doblix model block: prefix");
  prefix = p.ToString();
  // A block costs at least one byte of the model (TridentKV-style: of its
  // RMI's block map).
  if (!GetVarint64(in, &count) || count > in->size()) {
    return Status::Corruption("doblix model block: segment count");
  }
  segments.assign(count, DoblixSegment());
  // TridentKV-style's blocks are placed by its index block; one block
  // number's keys never span two blocks.
  if (kind == DoblixModelKind::kRmi) {
    runs_split = false;
    return Status::OK();
  }
  uint64_t offset = 0;
  for (DoblixSegment& s : segments) {
    uint32_t err_cont = 0, slope = 0, intercept = 0;
    if (in->size() < 8) return Status::Corruption("doblix model block: segment key");
    s.first_chunk = DecodeFixed64(in->data());
    in->remove_prefix(8);
    // The baselines have no line per block (Bourbon: one PLR over the
    // table; TridentKV: RocksDB's search over the whole block).
    const bool own_model = kind != DoblixModelKind::kPlr && kind != DoblixModelKind::kRmi;
    if (!GetVarint32(in, &s.size) || !GetVarint32(in, &err_cont) ||
        (own_model && !GetFixed32(in, &slope)) ||
        (own_model && kind != DoblixModelKind::kPla && !GetFixed32(in, &intercept))) {
      return Status::Corruption("doblix model block: segment fields");
    }
    s.offset = offset;
    offset += s.size + kDoblixBlockTrailerSize;
    s.error = err_cont >> 1;
    s.cont = (err_cont & 1) != 0;
    s.slope = BitsFloat(slope);
    s.intercept = BitsFloat(intercept);
    if (!std::isfinite(s.slope) || !std::isfinite(s.intercept)) {
      return Status::Corruption("doblix model block: non-finite coefficient");
    }
  }
  runs_split = std::any_of(segments.begin(), segments.end(),
                           [](const DoblixSegment& s) { return s.cont; });
  return Status::OK();
}

// Bourbon-style's one PLR over the table: the entry count, each block's
// first entry, then the segments.
Status DoblixModel::DecodePlr(Slice* in) {
  uint64_t pos = 0;
  if (!GetVarint64(in, &entries)) return Status::Corruption("doblix model block: entries");
  block_first_entry.resize(segments.size());
  for (uint64_t& f : block_first_entry) {
    uint64_t d = 0;
    if (!GetVarint64(in, &d)) return Status::Corruption("doblix model block: block positions");
    pos += d;
    if (pos > entries) return Status::Corruption("doblix model block: block position");
    f = pos;
  }
  if (segments.empty()) return Status::OK();  // range deletions only: no PLR
  auto model = std::make_shared<DoblixBourbonModel>();
  Status s = model->DecodeFrom(in);
  if (!s.ok()) return s;
  if (model->entries() != entries) {
    return Status::Corruption("doblix model block: bourbon plr entries",
                              std::to_string(model->entries()) + " against " +
                                  std::to_string(entries));
  }
  plr = std::move(model);
  return Status::OK();
}

// A node: (children only) its extra prefix, then tokens until a 0: an even
// token 2k stands for the next k blocks, the token 1 for a child (its first
// integer, then the child node). Blocks are numbered in key order, so a
// node's blocks are implicit, and so are their first integers (kept in the
// segments).
void DoblixModel::EncodeNode(size_t id, std::string* out) const {
  const DoblixNode& n = nodes[id];
  if (id != 0) PutLengthPrefixedSlice(out, n.extra);
  size_t i = 0;
  while (i < n.ref.size()) {
    if ((n.ref[i] & DoblixNode::kChild) != 0) {
      PutVarint64(out, 1);
      PutFixed64(out, n.chunk[i]);
      EncodeNode(n.ref[i] & ~DoblixNode::kChild, out);
      i++;
      continue;
    }
    size_t j = i;
    while (j < n.ref.size() && (n.ref[j] & DoblixNode::kChild) == 0) j++;
    PutVarint64(out, static_cast<uint64_t>(j - i) << 1);
    i = j;
  }
  PutVarint64(out, 0);
}

Status DoblixModel::DecodeNode(Slice* in, size_t id, uint32_t base, int depth,
                               uint32_t* next_block) {
  auto bad = [](const char* what) {
    return Status::Corruption(std::string("doblix model block: string index ") + what);
  };
  // A node without blocks of its own has two items or more (its keys
  // differ in its 8 bytes), so there are at most 2 x blocks + 1 nodes; each
  // level moves 8 bytes or more into the key.
  if (depth > 1024 || nodes.size() > 2 * segments.size() + 1) {
    return Status::Corruption("doblix model block: string index too deep",
                              std::to_string(nodes.size()) + " nodes, " +
                                  std::to_string(segments.size()) + " blocks, depth " +
                                  std::to_string(depth));
  }
  uint32_t skip = base;
  if (id != 0) {
    Slice extra;
    if (!GetLengthPrefixedSlice(in, &extra)) return bad("prefix");
    nodes[id].extra = extra.ToString();
    skip += static_cast<uint32_t>(extra.size());
  }
  nodes[id].skip = skip;
  nodes[id].first_block = *next_block;
  for (;;) {
    uint64_t token = 0;
    if (!GetVarint64(in, &token)) return bad("item");
    if (token == 0) break;
    if (token == 1) {
      if (in->size() < 8) return bad("child key");
      uint64_t chunk = DecodeFixed64(in->data());
      in->remove_prefix(8);
      const size_t child = nodes.size();
      nodes.emplace_back();
      nodes[id].chunk.push_back(chunk);
      nodes[id].ref.push_back(DoblixNode::kChild | static_cast<uint32_t>(child));
      Status s = DecodeNode(in, child, skip + 8, depth + 1, next_block);
      if (!s.ok()) return s;
      continue;
    }
    if ((token & 1) != 0 || (token >> 1) > segments.size() - *next_block) return bad("blocks");
    for (uint64_t k = token >> 1; k > 0; k--, (*next_block)++) {
      nodes[id].chunk.push_back(segments[*next_block].first_chunk);
      nodes[id].ref.push_back(*next_block);
    }
  }
  const DoblixNode& n = nodes[id];
  if (n.ref.empty() || *next_block == n.first_block) return bad("empty node");
  if (!std::is_sorted(n.chunk.begin(), n.chunk.end())) return bad("order");
  nodes[id].last_block = *next_block - 1;
  nodes[id].BuildRadix(depth);
  return Status::OK();
}

size_t DoblixNode::UpperBound(uint64_t x) const {
  if (radix.empty() || x < radix_base) {
    return static_cast<size_t>(std::upper_bound(chunk.begin(), chunk.end(), x) - chunk.begin());
  }
  const uint64_t p = std::min<uint64_t>((x - radix_base) >> radix_shift, radix.size() - 2);
  return static_cast<size_t>(
      std::upper_bound(chunk.begin() + radix[p], chunk.begin() + radix[p + 1], x) -
      chunk.begin());
}

void DoblixNode::BuildRadix(int depth) {
  radix.clear();
  blocks_only = true;
  for (size_t j = 0; j < ref.size() && blocks_only; j++) {
    blocks_only = ref[j] == first_block + j;
  }
  radix_base = chunk.empty() ? 0 : chunk.front();
  const size_t n = chunk.size();
  const uint64_t span = n == 0 ? 0 : chunk.back() - chunk.front();
  if (n < 16 || span == 0) return;
  int bits = depth == 0 ? 18 : depth == 1 ? 12 : 8;
  int need = 1;
  while ((size_t{1} << need) < n && need < 62) need++;
  bits = std::min(bits, need + 1);
  int top = 63 - __builtin_clzll(span);  // highest set bit of the span
  radix_shift = static_cast<uint8_t>(std::max(0, top + 1 - bits));
  const uint64_t slots = (span >> radix_shift) + 1;
  radix.assign(slots + 1, 0);
  size_t i = 0;
  for (uint64_t p = 0; p <= slots; p++) {
    while (i < n && ((chunk[i] - chunk.front()) >> radix_shift) < p) i++;
    radix[p] = static_cast<uint32_t>(i);
  }
}

DoblixPlace DoblixModel::Locate(const Slice& user_key) const {
  DoblixPlace place;
  if (nodes.empty()) {
    place.x = ChunkOf(user_key);
    place.block = FindBlock(place.x);
    if (place.block >= segments.size()) {
      place.block = segments.size() - 1;
      place.where = DoblixPlace::kEnd;
    }
    return place;
  }
  const int side = DoblixPrefixSide(user_key, prefix);
  if (side != 0) {
    place.block = side < 0 ? 0 : segments.size() - 1;
    place.where = side < 0 ? DoblixPlace::kStart : DoblixPlace::kEnd;
    return place;
  }
  const DoblixNode* n = &nodes[0];
  for (;;) {
    place.x = DoblixChunk(user_key, n->skip);
    const size_t upper = n->UpperBound(place.x);
    if (upper == 0) {
      place.block = n->first_block;
      place.where = DoblixPlace::kStart;
      return place;
    }
    const size_t j = upper - 1;
    const uint32_t ref = n->blocks_only ? n->first_block + static_cast<uint32_t>(j) : n->ref[j];
    if ((ref & DoblixNode::kChild) != 0) {
      const DoblixNode& c = nodes[ref & ~DoblixNode::kChild];
      // Past the run's integer, or outside its shared bytes: before or
      // after all of its keys.
      int cmp = n->chunk[j] < place.x ? 1 : DoblixPaddedCompare(user_key, n->skip + 8, c.extra);
      if (cmp != 0) {
        place.block = cmp < 0 ? c.first_block : c.last_block;
        place.where = cmp < 0 ? DoblixPlace::kStart : DoblixPlace::kEnd;
        return place;
      }
      n = &c;
      continue;
    }
    size_t b = ref;
    // A run of x split by B_max over blocks of this node: start at its first.
    while (runs_split && b > n->first_block && segments[b].cont &&
           segments[b].first_chunk == place.x) {
      b--;
    }
    place.block = b;
    place.where = DoblixPlace::kModel;
    return place;
  }
}

uint64_t DoblixModel::ChunkOf(const Slice& user_key) const {
  int side = DoblixPrefixSide(user_key, prefix);
  if (side < 0) return 0;
  if (side > 0) return ~uint64_t{0};
  return DoblixChunk(user_key, prefix.size());
}

uint32_t DoblixModel::LeafOf(uint64_t x) const {
  const double offset = root_intercept + root_slope * DoblixRmiDx(x, root_x0);
  const double leaves = static_cast<double>(rmi_leaves.size());
  const double leaf =
      std::floor(offset * leaves / static_cast<double>(rmi_bytes == 0 ? 1 : rmi_bytes));
  if (!(leaf > 0)) return 0;
  return leaf >= leaves ? static_cast<uint32_t>(leaves) - 1 : static_cast<uint32_t>(leaf);
}

uint32_t DoblixModel::RmiRawNumber(uint32_t leaf, uint64_t x) const {
  const RmiLeaf& l = rmi_leaves[leaf];
  const double n = std::floor((l.intercept + l.slope * DoblixRmiDx(x, root_x0)) / rmi_block_bytes);
  if (!(n > 0)) return 0;
  return n >= 4294967295.0 ? 4294967295u : static_cast<uint32_t>(n);
}

uint32_t DoblixModel::RmiNumber(uint64_t x) const {
  const uint32_t leaf = LeafOf(x);
  const RmiLeaf& l = rmi_leaves[leaf];
  return std::min(std::max(RmiRawNumber(leaf, x), l.lo), l.hi);
}

Status DoblixModel::DecodeRmi(Slice* in) {
  uint32_t leaves = 0, numbers = 0;
  if (in->size() < 8) return Status::Corruption("doblix model block: rmi root");
  root_x0 = DecodeFixed64(in->data());
  in->remove_prefix(8);
  if (!GetDouble(in, &root_slope) || !GetDouble(in, &root_intercept) ||
      !GetVarint64(in, &rmi_bytes) || !GetVarint32(in, &rmi_block_bytes) ||
      rmi_block_bytes == 0 || !GetVarint32(in, &leaves) || leaves == 0 ||
      leaves > in->size() / 16) {
    return Status::Corruption("doblix model block: rmi root fields");
  }
  rmi_leaves.resize(leaves);
  uint32_t prev = 0;
  for (RmiLeaf& l : rmi_leaves) {
    uint32_t lo = 0, span = 0;
    if (!GetDouble(in, &l.slope) || !GetDouble(in, &l.intercept) || !GetVarint32(in, &lo) ||
        !GetVarint32(in, &span)) {
      return Status::Corruption("doblix model block: rmi leaf");
    }
    l.lo = prev + lo;
    l.hi = l.lo + span;
    if (l.lo < prev || l.hi < l.lo) return Status::Corruption("doblix model block: rmi leaf range");
    prev = l.hi;
  }
  // Every number a leaf can give (up to the last leaf's hi) names a block.
  if (!GetVarint32(in, &numbers) || numbers != static_cast<uint64_t>(prev) + 1 ||
      numbers > in->size()) {
    return Status::Corruption("doblix model block: rmi block numbers");
  }
  rmi_block_of.resize(numbers);
  uint32_t b = 0;
  for (uint32_t& n : rmi_block_of) {
    uint32_t delta = 0;
    if (!GetVarint32(in, &delta)) return Status::Corruption("doblix model block: rmi block map");
    b += delta;
    if (b >= segments.size()) return Status::Corruption("doblix model block: rmi map's block");
    n = b;
  }
  return Status::OK();
}

size_t DoblixModel::BlockOfPosition(uint64_t pos) const {
  auto it = std::upper_bound(block_first_entry.begin(), block_first_entry.end(), pos);
  return it == block_first_entry.begin() ? 0 : static_cast<size_t>(it - block_first_entry.begin()) - 1;
}

size_t DoblixModel::MemoryBytes() const {
  size_t node_bytes = nodes.capacity() * sizeof(DoblixNode);
  for (const DoblixNode& n : nodes) {
    node_bytes += n.extra.capacity() + n.chunk.capacity() * sizeof(uint64_t) +
                  (n.ref.capacity() + n.radix.capacity()) * sizeof(uint32_t);
  }
  return sizeof(*this) + node_bytes + prefix.capacity() +
         segments.capacity() * sizeof(DoblixSegment) + rmi_leaves.capacity() * sizeof(RmiLeaf) +
         rmi_block_of.capacity() * sizeof(uint32_t) +
         (plr != nullptr ? plr->MemoryBytes() : 0) +
         block_first_entry.capacity() * sizeof(uint64_t);
}

size_t DoblixModel::FindBlock(uint64_t x) const {
  if (kind == DoblixModelKind::kRmi) return rmi_block_of[RmiNumber(x)];
  // The paper's binary search over the segments' first keys (I_IndexBlock).
  auto it = std::upper_bound(segments.begin(), segments.end(), x,
                             [](uint64_t v, const DoblixSegment& s) { return v < s.first_chunk; });
  size_t b = it == segments.begin() ? 0 : static_cast<size_t>(it - segments.begin()) - 1;
  while (b > 0 && segments[b].cont && segments[b].first_chunk == x) b--;
  return b;
}

double DoblixModel::Predict(size_t b, uint64_t x) const {
  const DoblixSegment& s = segments[b];
  return DoblixPredict(s.first_chunk, s.slope, s.intercept, x);
}

void DoblixModel::SearchRange(size_t b, uint64_t x, uint32_t n, uint32_t* lo,
                              uint32_t* hi) const {
  if (kind == DoblixModelKind::kRmi) {  // TridentKV searches the whole block
    *lo = 0;
    *hi = n;
    return;
  }
  const DoblixSegment& s = segments[b];
  // The lower bound of any key with integer x lies between the positions of
  // x and x+1 (keys sharing 8 bytes share an integer), each within error.
  double l = x <= s.first_chunk ? 0.0 : std::floor(Predict(b, x) - s.error);
  double h = x == ~uint64_t{0} ? n : std::ceil(Predict(b, x + 1) + s.error) + 1;
  *lo = l <= 0 ? 0 : (l >= n ? n : static_cast<uint32_t>(l));
  *hi = h <= 0 ? 0 : (h >= n ? n : static_cast<uint32_t>(h));
  if (*hi < *lo) *hi = *lo;
}

}  // namespace ROCKSDB_NAMESPACE

// lits: a learned index for variable-length strings after LITS (Yang and
// Chen, VLDB 2024; summarized in seed 000 §3): a trie whose inner nodes are
// either learned models or byte-branching trie nodes, over a global string
// model.
//
// Design, and where it follows or departs from LITS:
//   * Global model: LITS's Hash-enhanced Prefix Table (detail/lits_hpt.h),
//     trained on each key's distinguishing prefix and, unlike LITS,
//     evaluated in fixed point: exactly monotone in bytewise order, which the
//     exact lower_bound below relies on (LITS checks monotonicity per node
//     and falls back when floating point breaks it).
//   * Model node (LITS's item array): keys share a prefix of `depth` bytes;
//     slot = (HPT(key from depth) - HPT(first key)) * k over count * `scale`
//     slots. A slot holds nothing, one key, a compact leaf of up to
//     `cnode_size` keys (LITS's cnode, binary searched here) or a child node.
//   * Trie node (LITS uses HOT sub-tries): branches on the byte at `depth`.
//     Chosen where the model cannot separate the keys (all in one slot), or
//     where the group's partial key length (LITS's GPKL: mean distinguishing
//     prefix length minus the common prefix) is at most `trie_gpkl`, i.e. one
//     byte already tells the keys apart. LITS decides with a trained decision
//     tree (PMSS) over (size, GPKL); this threshold is our stand-in.
//   * Every slot records the rank of its first key, so an absent query gets
//     its exact lower_bound without walking to a neighbour: keys in earlier
//     slots are smaller, in later slots larger (monotone model).
//   * Keys are copied (distinct keys once, plus first positions of
//     duplicates) and counted in MemoryBytes(), as LITS stores full strings.
//     No updates: SSTables are immutable.
//
// Contract: StringIndex (string_index.h). Exact. Limits: n < 2^32 and total
// key bytes < 2^32. LitsIndex<K> (lits_index.h) adapts it to Index<K> (id
// "lits" in the integer registry) through big-endian key bytes;
// MakeStringIndex (string_registry.h) builds it by id.
//
// Knobs: cnode_size (16), scale (2 slots per key), trie_gpkl (1.2),
//        ps_bits (5), fc_bits (5): HPT row hash widths as in LITS.
//
// Usage:
//   lidx::Lits lits;
//   lits.Configure({{"cnode_size", "8"}});
//   lits.Build(keys.data(), keys.size(), nullptr);   // std::string_view keys
//   size_t pos = lits.Search(q).pos;                 // exact lower_bound
#ifndef LIDX_LITS_H_
#define LIDX_LITS_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "lidx/detail/build_clock.h"
#include "lidx/detail/lits_hpt.h"
#include "lidx/detail/no_fma.h"
#include "lidx/detail/options.h"
#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"
#include "lidx/index.h"
#include "lidx/string_index.h"

namespace lidx {

class Lits final : public StringIndex {
 public:
  static constexpr uint32_t kFormatVersion = 1;

  Status Configure(const Options& o) {
    return detail::ParseKnobs(o, "lits",
                              {{"cnode_size", &cnode_size_, 1, 1u << 20},
                               {"scale", &scale_, 1, 64},
                               {"ps_bits", &hpt_.ps_bits, 0, 8},
                               {"fc_bits", &hpt_.fc_bits, 0, 8}},
                              {{"trie_gpkl", &trie_gpkl_, 0, 1e9}});
  }

  std::string_view Id() const override { return "lits"; }
  bool Exact() const override { return true; }

  Status Build(const std::string_view* keys, size_t n,
               const uint32_t*) override {
    const detail::BuildClock clock;
    Clear();
    if (n >= kNone) return Status::Error("lits: n must be < 2^32");
    n_ = n;
    // Distinct keys, with the first position of each when there are
    // duplicates (a lower_bound lands on the first of a run).
    uint64_t total = 0;
    bool dups = false;
    for (size_t i = 0; i < n; ++i) {
      if (i > 0 && keys[i] < keys[i - 1]) {
        Clear();
        return Status::Error("lits: keys not sorted at position " +
                             std::to_string(i));
      }
      if (i > 0 && keys[i] == keys[i - 1]) {
        dups = true;
        continue;
      }
      total += keys[i].size();
    }
    if (total >= kNone) {
      Clear();
      return Status::Error("lits: total key bytes must be < 2^32");
    }
    bytes_.reserve(total);
    for (size_t i = 0; i < n; ++i) {
      if (i > 0 && keys[i] == keys[i - 1]) continue;
      offs_.push_back(static_cast<uint32_t>(bytes_.size()));
      bytes_.insert(bytes_.end(), keys[i].begin(), keys[i].end());
      if (dups) pos_.push_back(static_cast<uint32_t>(i));
    }
    m_ = offs_.size();
    offs_.push_back(static_cast<uint32_t>(bytes_.size()));
    if (dups) pos_.push_back(static_cast<uint32_t>(n));

    hpt_.Train(m_, [this](size_t r) { return Key(r); });
    BuildTree();

    detail::ShrinkToFit(&bytes_);
    detail::ShrinkToFit(&offs_);
    detail::ShrinkToFit(&pos_);
    detail::ShrinkToFit(&nodes_);
    detail::ShrinkToFit(&items_);
    detail::ShrinkToFit(&labels_);
    stats_ = BuildStats{n, nodes_.size(), levels_, 0};
    stats_.build_seconds = clock.Seconds();
    return Status::OK();
  }

  Bound Search(std::string_view q) const override {
    const size_t r = Rank(q);
    const size_t p = pos_.empty() ? r : pos_[r];
    return Bound{p, p, p};
  }

  void Serialize(std::string* out) const override {
    detail::Writer w(out);
    w.Header<char>(Id(), kFormatVersion);
    w.Pods<uint64_t, uint64_t, uint64_t, uint64_t, double, uint64_t, uint64_t>(
        cnode_size_, scale_, hpt_.ps_bits, hpt_.fc_bits, trie_gpkl_, n_,
        levels_);
    w.Vectors(bytes_, offs_, pos_);
    hpt_.WriteTables(&w);
    w.Vectors(nodes_, items_, labels_);
    w.Stats(stats_);
  }

  Status Deserialize(std::string_view in) override {
    detail::Reader r(in);
    Lits t;
    Status s = r.Header<char>(Id(), kFormatVersion);
    if (s.ok()) {
      s = r.Pods({"cnode_size", "scale", "ps_bits", "fc_bits", "trie_gpkl", "n",
                  "levels"},
                 &t.cnode_size_, &t.scale_, &t.hpt_.ps_bits, &t.hpt_.fc_bits,
                 &t.trie_gpkl_, &t.n_, &t.levels_);
    }
    if (s.ok()) {
      s = r.Vectors({"bytes", "offsets", "positions"}, &t.bytes_, &t.offs_,
                    &t.pos_);
    }
    if (s.ok()) s = t.hpt_.ReadTables(&r);
    if (s.ok()) {
      s = r.Vectors({"nodes", "items", "labels"}, &t.nodes_, &t.items_,
                    &t.labels_);
    }
    if (s.ok()) s = r.Stats(&t.stats_);
    if (s.ok()) s = r.Finish();
    if (!s.ok()) return s;
    t.m_ = t.offs_.empty() ? 0 : t.offs_.size() - 1;
    if (!t.Valid()) return detail::Reader::Corrupt("lits structure");
    *this = std::move(t);
    return Status::OK();
  }

  size_t MemoryBytes() const override {
    return sizeof(*this) + detail::VectorBytes(bytes_) +
           detail::VectorBytes(offs_) + detail::VectorBytes(pos_) +
           hpt_.Bytes() +
           detail::VectorBytes(nodes_) + detail::VectorBytes(items_) +
           detail::VectorBytes(labels_);
  }

  BuildStats Stats() const override { return stats_; }

  // Structure counts, for tests and reports.
  size_t ModelNodes() const { return CountKind(kModel); }
  size_t TrieNodes() const { return CountKind(kTrie); }
  size_t HptBytes() const { return hpt_.Bytes(); }

 private:
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  static constexpr uint64_t kScale0 = detail::Hpt::kScale0;
  static constexpr uint32_t kModel = 0, kTrie = 1;

  // No implicit padding: nodes are serialized as raw bytes.
  struct Node {
    double k;            // model: slots per HPT unit
    double base;         // model: HPT value of the node's first key
    uint64_t min_scale;  // model: stop the HPT walk below this scale
    uint32_t kind;       // kModel or kTrie
    uint32_t depth;      // bytes every key of the node shares
    uint32_t rank_lo;    // node holds distinct keys [rank_lo, rank_hi)
    uint32_t rank_hi;
    uint32_t items;      // first of nslots + 1 items (the last a sentinel)
    uint32_t nslots;
    uint32_t labels;     // trie: first of nslots - 1 branch bytes
    uint32_t pad;
  };
  // A slot covers ranks [rank, next slot's rank); `child` is a node index
  // when it holds more than cnode_size keys, else kNone.
  struct Item {
    uint32_t rank;
    uint32_t child;
  };

  void Clear() {
    n_ = m_ = levels_ = 0;
    bytes_.clear();
    offs_.clear();
    pos_.clear();
    hpt_.Clear();
    nodes_.clear();
    items_.clear();
    labels_.clear();
  }

  std::string_view Key(size_t r) const {
    return std::string_view(bytes_.data() + offs_[r], offs_[r + 1] - offs_[r]);
  }

  // Monotone in v: each IEEE step is monotone and the clamp keeps it so.
  static uint32_t ModelSlot(const Node& nd, uint64_t v) {
    const double x =
        detail::Materialize((static_cast<double>(v) - nd.base)) * nd.k;
    if (!(x > 0)) return 0;
    if (x >= static_cast<double>(nd.nslots - 1)) return nd.nslots - 1;
    return static_cast<uint32_t>(x);
  }

  // ---- build ------------------------------------------------------------

  struct Task {
    uint32_t lo, hi;  // distinct-key ranks of the node
    uint32_t item;    // parent's item to point at the node, or kNone
    uint32_t level;
  };

  void BuildTree() {
    if (m_ <= cnode_size_) return;  // the root is one compact leaf
    // Adjacent LCPs, for GPKL: lcp_[r] = lcp(key r-1, key r).
    std::vector<uint32_t> lcp(m_ + 1, 0);
    for (size_t r = 1; r < m_; ++r) {
      lcp[r] = static_cast<uint32_t>(detail::Lcp(Key(r - 1), Key(r)));
    }
    std::vector<Task> todo{{0, static_cast<uint32_t>(m_), kNone, 1}};
    std::vector<uint32_t> slot_of;
    // FIFO: nodes are numbered breadth first, so a child's index is always
    // larger than its parent's (Valid() relies on it).
    for (size_t t = 0; t < todo.size(); ++t) {
      const Task task = todo[t];
      const uint32_t id = static_cast<uint32_t>(nodes_.size());
      if (task.item != kNone) items_[task.item].child = id;
      levels_ = std::max<uint64_t>(levels_, task.level);
      Node nd{};
      nd.rank_lo = task.lo;
      nd.rank_hi = task.hi;
      nd.depth =
          static_cast<uint32_t>(detail::Lcp(Key(task.lo), Key(task.hi - 1)));
      nd.items = static_cast<uint32_t>(items_.size());
      const size_t count = task.hi - task.lo;
      if (detail::Gpkl(lcp, task.lo, task.hi, nd.depth) <= trie_gpkl_ ||
          !TryModel(&nd, count, &slot_of)) {
        MakeTrie(&nd, &slot_of);
      }
      // slot_of[i] is the slot of key task.lo + i; emit items in order.
      items_.resize(nd.items + nd.nslots + 1, Item{0, kNone});
      size_t r = task.lo;
      for (uint32_t s = 0; s <= nd.nslots; ++s) {
        items_[nd.items + s].rank = static_cast<uint32_t>(r);
        const size_t begin = r;
        while (r < task.hi && slot_of[r - task.lo] == s) ++r;
        if (r - begin > cnode_size_) {
          todo.push_back({static_cast<uint32_t>(begin),
                          static_cast<uint32_t>(r), nd.items + s,
                          task.level + 1});
        }
      }
      nodes_.push_back(nd);
    }
  }

  bool TryModel(Node* nd, size_t count, std::vector<uint32_t>* slot_of) {
    const uint64_t vmin = hpt_.Estimate(Key(nd->rank_lo), nd->depth, 1);
    const uint64_t vmax = hpt_.Estimate(Key(nd->rank_hi - 1), nd->depth, 1);
    if (vmax <= vmin) return false;
    const uint64_t slots64 = std::min<uint64_t>(count * scale_, kNone / 2);
    nd->kind = kModel;
    nd->nslots = static_cast<uint32_t>(std::max<uint64_t>(2, slots64));
    nd->base = static_cast<double>(vmin);
    nd->k = static_cast<double>(nd->nslots - 1) /
            (static_cast<double>(vmax) - static_cast<double>(vmin));
    if (!(nd->k > 0) || !(nd->k < std::numeric_limits<double>::max())) {
      return false;
    }
    // Stop the HPT walk once the rest moves the key by under 1/8 slot: only
    // speed, the estimate stays monotone wherever it stops.
    const double ms = 0.125 / nd->k;
    nd->min_scale = ms >= static_cast<double>(kScale0)
                        ? kScale0
                        : std::max<uint64_t>(1, static_cast<uint64_t>(ms));
    slot_of->resize(count);
    uint32_t first = kNone, last = 0;
    for (size_t i = 0; i < count; ++i) {
      const uint64_t v =
          hpt_.Estimate(Key(nd->rank_lo + i), nd->depth, nd->min_scale);
      const uint32_t s = ModelSlot(*nd, v);
      (*slot_of)[i] = s;
      // Monotone by construction (see Hpt); checked anyway because the
      // slot emission in BuildTree depends on it.
      if (i > 0 && s < (*slot_of)[i - 1]) return false;
      first = std::min(first, s);
      last = std::max(last, s);
    }
    // All keys in one slot: the model does not separate them (LITS's
    // first/last check); a trie node always does.
    return first != last;
  }

  void MakeTrie(Node* nd, std::vector<uint32_t>* slot_of) {
    nd->kind = kTrie;
    nd->k = nd->base = 0;
    nd->min_scale = 0;
    nd->labels = static_cast<uint32_t>(labels_.size());
    const size_t count = nd->rank_hi - nd->rank_lo;
    slot_of->resize(count);
    // Slot 0: the key that ends at depth (at most one, keys are distinct).
    uint32_t slot = 0;
    int prev = -1;
    for (size_t i = 0; i < count; ++i) {
      const std::string_view k = Key(nd->rank_lo + i);
      if (k.size() > nd->depth) {
        const unsigned char c = k[nd->depth];
        if (c != prev) {
          labels_.push_back(c);
          prev = c;
          ++slot;
        }
      }
      (*slot_of)[i] = slot;
    }
    nd->nslots = slot + 1;
  }

  // ---- search -----------------------------------------------------------

  // Rank of q among the distinct keys (their lower_bound).
  size_t Rank(std::string_view q) const {
    if (m_ == 0) return 0;
    if (nodes_.empty()) return LeafRank(q, 0, m_, 0);
    size_t confirmed = 0;  // q's bytes known equal to the node's keys'
    uint32_t id = 0;
    for (;;) {
      const Node& nd = nodes_[id];
      // q reached this node by its model slot, not by its bytes: check the
      // shared prefix first. A mismatch puts q before or after every key.
      const std::string_view first = Key(nd.rank_lo);
      const size_t l = std::min<size_t>(nd.depth, q.size());
      const int c = std::memcmp(q.data() + std::min(confirmed, l),
                                first.data() + std::min(confirmed, l),
                                l - std::min(confirmed, l));
      if (c < 0 || (c == 0 && q.size() < nd.depth)) return nd.rank_lo;
      if (c > 0) return nd.rank_hi;
      confirmed = nd.depth;
      uint32_t s;
      if (nd.kind == kModel) {
        s = ModelSlot(nd, hpt_.Estimate(q, nd.depth, nd.min_scale));
      } else {
        if (q.size() == nd.depth) return nd.rank_lo;  // q is the prefix
        const unsigned char b = q[nd.depth];
        const unsigned char* lb = labels_.data() + nd.labels;
        const unsigned char* le = lb + (nd.nslots - 1);
        const unsigned char* it = std::lower_bound(lb, le, b);
        if (it == le || *it != b) return items_[nd.items + 1 + (it - lb)].rank;
        s = static_cast<uint32_t>(1 + (it - lb));
        confirmed = nd.depth + 1;
      }
      const Item& item = items_[nd.items + s];
      if (item.child != kNone) {
        id = item.child;
        continue;
      }
      return LeafRank(q, item.rank, items_[nd.items + s + 1].rank, confirmed);
    }
  }

  // Binary search of a compact leaf; its keys share q's first `skip` bytes.
  size_t LeafRank(std::string_view q, size_t lo, size_t hi,
                  size_t skip) const {
    const std::string_view qs = q.substr(std::min(skip, q.size()));
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      const std::string_view k = Key(mid);
      if (k.substr(std::min(skip, k.size())) < qs) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  size_t CountKind(uint32_t kind) const {
    size_t c = 0;
    for (const Node& nd : nodes_) c += nd.kind == kind;
    return c;
  }

  // Everything Search() indexes without checks, checked once after reading
  // untrusted bytes.
  bool Valid() const {
    if (offs_.empty() || offs_.front() != 0 || offs_.back() != bytes_.size()) {
      return false;
    }
    // Every offset in order first: Key(r) reads up to offs_[r + 1], which a
    // later, smaller offset would not have bounded yet.
    for (size_t r = 0; r + 1 < offs_.size(); ++r) {
      if (offs_[r] > offs_[r + 1]) return false;
    }
    for (size_t r = 1; r + 1 < offs_.size(); ++r) {
      if (!(Key(r - 1) < Key(r))) return false;
    }
    if (!pos_.empty()) {
      if (pos_.size() != m_ + 1 || pos_.back() != n_) return false;
      for (size_t r = 0; r < m_; ++r) {
        if (pos_[r] >= pos_[r + 1]) return false;
      }
    } else if (m_ != n_) {
      return false;
    }
    if (cnode_size_ == 0 || !hpt_.Valid()) return false;
    if (nodes_.empty()) return m_ <= cnode_size_ && items_.empty();
    for (size_t id = 0; id < nodes_.size(); ++id) {
      const Node& nd = nodes_[id];
      if ((nd.kind != kModel && nd.kind != kTrie) || nd.nslots < 1 ||
          nd.rank_lo >= nd.rank_hi || nd.rank_hi > m_ ||
          nd.depth > Key(nd.rank_lo).size() ||
          uint64_t{nd.items} + nd.nslots + 1 > items_.size() ||
          (nd.kind == kModel && nd.nslots < 2) ||
          (nd.kind == kTrie &&
           uint64_t{nd.labels} + nd.nslots - 1 > labels_.size())) {
        return false;
      }
      const Item* it = &items_[nd.items];
      if (it[0].rank != nd.rank_lo || it[nd.nslots].rank != nd.rank_hi) {
        return false;
      }
      for (uint32_t s = 0; s < nd.nslots; ++s) {
        if (it[s].rank > it[s + 1].rank) return false;
        // Children come later (no cycles) and cover exactly their slot.
        if (it[s].child != kNone &&
            (it[s].child <= id || it[s].child >= nodes_.size() ||
             nodes_[it[s].child].rank_lo != it[s].rank ||
             nodes_[it[s].child].rank_hi != it[s + 1].rank)) {
          return false;
        }
      }
    }
    return true;
  }

  uint64_t cnode_size_ = 16;
  uint64_t scale_ = 2;
  double trie_gpkl_ = 1.2;

  uint64_t n_ = 0;
  uint64_t m_ = 0;  // distinct keys
  uint64_t levels_ = 0;
  std::vector<char> bytes_;       // distinct keys, concatenated
  std::vector<uint32_t> offs_;    // m + 1 offsets into bytes_
  std::vector<uint32_t> pos_;     // m + 1 first positions; empty w/o dups
  detail::Hpt hpt_;               // the global model
  std::vector<Node> nodes_;       // breadth first; 0 is the root
  std::vector<Item> items_;
  std::vector<unsigned char> labels_;
  BuildStats stats_;
};

}  // namespace lidx

#endif  // LIDX_LITS_H_

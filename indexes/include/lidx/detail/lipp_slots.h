// LIPP's node layout: a linear model predicts one slot per key, and each slot
// holds an entry, a child node (the keys that conflicted there) or nothing.
// lipp.h builds whole trees of these with FMCD models; dili.h uses them as
// leaves with least-squares models (DILI's leaf "local optimization" is the
// same conflict-to-child rule). Not part of the public interface.
//
// Exact lower_bound without a last mile: models are monotone in the key and
// keys are placed by the same Slot() that lookups use, so every key stored
// left of q's slot is < q and every key right of it is > q. Hence:
//   * an entry slot stores its key's position and `next`, the position of
//     the following distinct key: the answer is pos if key >= q, else next;
//   * an empty slot stores in `pos` the position of the first key stored
//     right of it (in this subtree or after it): that is the answer;
//   * a child slot stores the child's node index in `pos`; descend.
// So an absent key costs exactly what a present one does.
#ifndef LIDX_DETAIL_LIPP_SLOTS_H_
#define LIDX_DETAIL_LIPP_SLOTS_H_

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lidx/detail/alex_lipp_dili_common.h"
#include "lidx/detail/serialize.h"
#include "lidx/detail/shrink.h"
#include "lidx/index.h"

namespace lidx {
namespace detail {

// slot = slope * (key - base) + intercept, over `num_items` slots.
struct SlotModel {
  double slope = 0;
  double intercept = 0;
  size_t num_items = 1;
};

// Two keys in 8 slots, at slots 2 and 5 (LIPP's special two-key node): room
// on both sides keeps the model sane for later keys routed here.
template <typename K>
SlotModel TwoKeyModel(const K* keys) {
  SlotModel m;
  m.num_items = 8;
  m.slope = 3.0 / static_cast<double>(keys[1] - keys[0]);
  m.intercept = 2.5;
  return m;
}

// First key to slot 0, last to the last slot. Used when a fitted model puts
// every key in one slot (it cannot split them, so building would not end).
template <typename K>
SlotModel EndpointModel(const K* keys, size_t m, size_t num_items) {
  SlotModel md;
  md.num_items = num_items < 2 ? 2 : num_items;
  md.slope = static_cast<double>(md.num_items - 1) /
             static_cast<double>(keys[m - 1] - keys[0]);
  md.intercept = 0.5;
  return md;
}

template <typename K>
class SlotNodes {
 public:
  struct Item {
    K key;
    uint32_t pos;   // entry: its position; empty: the answer; child: node id
    uint32_t next;  // entry: position of the next distinct key
  };
  struct Node {
    double slope = 0;
    double intercept = 0;
    K base = 0;
    uint32_t num_items = 0;
    std::vector<Item> items;
    // Word 2w flags empty slots 64w..64w+63, word 2w+1 child slots; the two
    // words sit together so a lookup touches one cache line of flags.
    std::vector<uint64_t> bits;

    uint32_t Slot(K q) const {
      double v = slope * KeyOffset(q, base) + intercept;
      if (!(v > 0)) return 0;
      if (v >= static_cast<double>(num_items - 1)) return num_items - 1;
      return static_cast<uint32_t>(v);
    }
  };

  // Builds a tree over in.keys[b, e) and stores its root's node id in *root.
  // fit(keys, m) returns the model of a node holding keys[0, m), m >= 1.
  template <typename Fit>
  Status Build(const DistinctInput<K>& in, size_t b, size_t e, size_t depth,
               const Fit& fit, BuildBudget* budget, std::string_view id,
               uint32_t* root) {
    struct Seg {
      size_t b, e, depth;
      uint32_t node;
    };
    *root = NewNode();
    std::vector<Seg> stack{{b, e, depth, *root}};
    std::vector<uint32_t> slots;  // predicted slot per key of the segment
    while (!stack.empty()) {
      Seg sg = stack.back();
      stack.pop_back();
      if (!budget->DepthOk(sg.depth)) return budget->DepthError(id);
      if (sg.depth > max_depth_) max_depth_ = sg.depth;
      const K* k = in.keys + sg.b;
      size_t m = sg.e - sg.b;
      SlotModel md = m == 0 ? SlotModel{} : fit(k, m);
      if (!(md.slope >= 0) || !std::isfinite(md.slope) ||
          !std::isfinite(md.intercept) || md.num_items == 0) {
        md = EndpointModel(k, m, md.num_items);
      }
      if (md.num_items > UINT32_MAX / 2) {
        return Status::Error(std::string(id) + ": node too large");
      }
      size_t words = (md.num_items + 63) / 64;
      if (!budget->Charge(sizeof(Node) + md.num_items * sizeof(Item) +
                          words * 2 * sizeof(uint64_t))) {
        return budget->MemoryError(id);
      }
      Node& nd = nodes_[sg.node];
      SetModel(&nd, md, m ? k[0] : K(0));
      if (m >= 2 && nd.Slot(k[0]) == nd.Slot(k[m - 1])) {
        SetModel(&nd, EndpointModel(k, m, md.num_items), k[0]);
        if (nd.Slot(k[0]) == nd.Slot(k[m - 1])) {
          return Status::Error(std::string(id) +
                               ": keys indistinguishable in double precision");
        }
      }
      nd.items.assign(nd.num_items, Item{});
      nd.bits.assign(words * 2, 0);
      slots.resize(m);
      for (size_t i = 0; i < m; ++i) slots[i] = nd.Slot(k[i]);
      // Walk runs of keys sharing a slot; fill the empty slots before each.
      std::vector<Seg> children;
      uint32_t next_free = 0;
      for (size_t i = 0; i < m;) {
        size_t j = i + 1;
        while (j < m && slots[j] == slots[i]) ++j;
        uint32_t s = slots[i];
        for (uint32_t t = next_free; t < s; ++t) SetEmpty(&nd, t, in.PosAt(sg.b + i));
        Item& it = nd.items[s];
        if (j - i == 1) {
          it.key = k[i];
          it.pos = in.PosAt(sg.b + i);
          it.next = in.PosAt(sg.b + i + 1);
        } else {
          nd.bits[2 * (s >> 6) + 1] |= uint64_t{1} << (s & 63);
          children.push_back({sg.b + i, sg.b + j, sg.depth + 1, s});
        }
        next_free = s + 1;
        i = j;
      }
      for (uint32_t t = next_free; t < nd.num_items; ++t) {
        SetEmpty(&nd, t, in.PosAt(sg.e));
      }
      // NewNode() may move nodes_: finish with `nd` before creating children.
      for (Seg& c : children) {
        uint32_t child = NewNode();
        nodes_[sg.node].items[c.node].pos = child;
        c.node = child;
        stack.push_back(c);
      }
    }
    return Status::OK();
  }

  size_t Lookup(uint32_t root, K q) const {
    const Node* nd = &nodes_[root];
    for (;;) {
      uint32_t s = nd->Slot(q);
      const uint64_t* w = nd->bits.data() + 2 * (s >> 6);
      const uint64_t bit = uint64_t{1} << (s & 63);
      const Item& it = nd->items[s];
      if (w[1] & bit) {
        nd = &nodes_[it.pos];
        continue;
      }
      if ((w[0] & bit) || !(it.key < q)) return it.pos;
      return it.next;
    }
  }

  void Clear() {
    nodes_.clear();
    detail::ShrinkToFit(&nodes_);
    max_depth_ = 0;
  }
  size_t size() const { return nodes_.size(); }
  size_t max_depth() const { return max_depth_; }

  size_t MemoryBytes() const {
    size_t bytes = VectorBytes(nodes_);
    for (const Node& nd : nodes_) {
      bytes += VectorBytes(nd.items) + VectorBytes(nd.bits);
    }
    return bytes;
  }

  void Write(Writer* w) const {
    w->Pods<uint64_t, uint64_t>(nodes_.size(), max_depth_);
    for (const Node& nd : nodes_) {
      w->Pod(nd.slope);
      w->Pod(nd.intercept);
      w->Pod(nd.base);
      w->Pod(nd.num_items);
      w->Vectors(nd.items, nd.bits);
    }
  }

  // Reads what Write() wrote and checks it cannot make Lookup() loop or read
  // out of bounds: children have larger ids than parents, sizes agree.
  Status Read(Reader* r, size_t n) {
    uint64_t count = 0, depth = 0;
    Status s = r->Pod(&count, "slot node count");
    if (s.ok()) s = r->Pod(&depth, "slot depth");
    if (!s.ok()) return s;
    if (count > r->remaining()) return Reader::Corrupt("slot node count");
    std::vector<Node> nodes(count);
    for (uint64_t i = 0; i < count && s.ok(); ++i) {
      Node& nd = nodes[i];
      s = r->Pod(&nd.slope, "slope");
      if (s.ok()) {
        s = r->Pods({"intercept", "base", "num_items"}, &nd.intercept, &nd.base,
                    &nd.num_items);
      }
      if (s.ok()) s = r->Vectors({"items", "bits"}, &nd.items, &nd.bits);
      if (s.ok()) s = Check(nd, i, count, n);
    }
    if (!s.ok()) return s;
    nodes_ = std::move(nodes);
    max_depth_ = depth;
    return Status::OK();
  }

 private:
  uint32_t NewNode() {
    nodes_.emplace_back();
    return static_cast<uint32_t>(nodes_.size() - 1);
  }

  static void SetModel(Node* nd, const SlotModel& md, K base) {
    nd->slope = md.slope;
    nd->intercept = md.intercept;
    nd->base = base;
    nd->num_items = static_cast<uint32_t>(md.num_items);
  }

  static void SetEmpty(Node* nd, uint32_t s, uint32_t answer) {
    nd->items[s].pos = answer;
    nd->bits[2 * (s >> 6)] |= uint64_t{1} << (s & 63);
  }

  static Status Check(const Node& nd, uint64_t id, uint64_t count, size_t n) {
    if (nd.num_items == 0 || nd.items.size() != nd.num_items ||
        nd.bits.size() != 2 * ((nd.num_items + 63) / 64) ||
        !std::isfinite(nd.slope) || !std::isfinite(nd.intercept)) {
      return Reader::Corrupt("slot node " + std::to_string(id) + " shape");
    }
    for (uint32_t s = 0; s < nd.num_items; ++s) {
      const Item& it = nd.items[s];
      bool child = (nd.bits[2 * (s >> 6) + 1] >> (s & 63)) & 1;
      bool ok = child ? it.pos > id && it.pos < count
                      : it.pos <= n && it.next <= n;
      if (!ok) {
        return Reader::Corrupt("slot node " + std::to_string(id) + " slot " +
                               std::to_string(s));
      }
    }
    return Status::OK();
  }

  std::vector<Node> nodes_;
  size_t max_depth_ = 0;
};

}  // namespace detail
}  // namespace lidx

#endif  // LIDX_DETAIL_LIPP_SLOTS_H_

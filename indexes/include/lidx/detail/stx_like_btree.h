// A static B+-tree laid out as STX B+-tree 0.9 lays out its nodes (map
// traits), bulk-loaded as its bulk_load() fills them. The EDBT study's
// FITing-Tree (000, footnote 10: github.com/RKolla99/FITing-Tree) keeps its
// segments in an stx::btree_map keyed by each segment's first key, the
// leaves holding full copies; ft.h builds this tree so that its memory and
// its lookup path (pointer descent, then a leaf's slots) are that code's.
// Written here from STX's documented sizing, not copied:
//   leaf slots  = max(8, 256 / (sizeof(key) + sizeof(data)))
//   inner slots = max(8, 256 / (sizeof(key) + sizeof(void*)))  (keys; one more child)
// bulk_load spreads n items over ceil(n / leaf slots) leaves evenly, and a
// level's children over ceil((children) / (inner slots + 1)) parents
// evenly.
#ifndef LIDX_DETAIL_STX_LIKE_BTREE_H_
#define LIDX_DETAIL_STX_LIKE_BTREE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lidx {
namespace detail {

constexpr size_t StxSlots(size_t key_bytes, size_t value_bytes) {
  return std::max<size_t>(8, 256 / (key_bytes + value_bytes));
}

template <typename K, typename V>
class StxLikeBtree {
 public:
  static constexpr size_t kLeafSlots = StxSlots(sizeof(K), sizeof(V));
  static constexpr size_t kInnerSlots = StxSlots(sizeof(K), sizeof(void*));

  struct Leaf {  // STX leaf_node: level, slotuse, prev/next leaf, keys, values
    uint16_t level = 0, slotuse = 0;
    Leaf* prev = nullptr;
    Leaf* next = nullptr;
    K keys[kLeafSlots];
    V data[kLeafSlots];
  };

  // A position in the tree: a leaf and one of its slots.
  struct Slot {
    const Leaf* leaf = nullptr;
    size_t i = 0;
    const V& value() const { return leaf->data[i]; }
    // The slot after this one (possibly in the next leaf); leaf is null past the end.
    Slot Next() const {
      if (i + 1 < leaf->slotuse) return Slot{leaf, i + 1};
      return Slot{leaf->next, 0};
    }
  };

  StxLikeBtree() = default;
  StxLikeBtree(const StxLikeBtree&) = delete;  // nodes point into its own storage
  StxLikeBtree& operator=(const StxLikeBtree&) = delete;
  StxLikeBtree(StxLikeBtree&&) = default;
  StxLikeBtree& operator=(StxLikeBtree&&) = default;

  // keys[i] sorted ascending, values[i] its value. inner_slots: keys an
  // inner node uses, 2..kInnerSlots (fewer than STX's make deeper trees in
  // tests; the node keeps STX's size).
  void BulkLoad(const std::vector<K>& keys, const std::vector<V>& values, size_t inner_slots) {
    inner_slots_ = std::clamp<size_t>(inner_slots, 2, kInnerSlots);
    leaves_.clear();
    inner_.clear();
    const size_t n = keys.size();
    if (n == 0) return;
    const size_t num_leaves = (n + kLeafSlots - 1) / kLeafSlots;
    leaves_.resize(num_leaves);  // sized once: nodes point at each other
    size_t at = 0, left = n;
    for (size_t l = 0; l < num_leaves; ++l) {
      Leaf& leaf = leaves_[l];
      leaf.slotuse = static_cast<uint16_t>(left / (num_leaves - l));
      for (size_t s = 0; s < leaf.slotuse; ++s, ++at) {
        leaf.keys[s] = keys[at];
        leaf.data[s] = values[at];
      }
      left -= leaf.slotuse;
      leaf.prev = l ? &leaves_[l - 1] : nullptr;
      leaf.next = l + 1 < num_leaves ? &leaves_[l + 1] : nullptr;
    }
    // Inner levels bottom-up: a child's smallest key separates it from the one before.
    std::vector<const void*> children;
    std::vector<K> mins;
    for (const Leaf& leaf : leaves_) {
      children.push_back(&leaf);
      mins.push_back(leaf.keys[0]);
    }
    size_t level = 1;
    while (children.size() > 1) {
      const size_t num_parents = (children.size() + inner_slots_) / (inner_slots_ + 1);
      std::vector<Inner> parents(num_parents);
      std::vector<const void*> up;
      std::vector<K> up_mins;
      size_t c = 0, remaining = children.size();
      for (size_t p = 0; p < num_parents; ++p) {
        Inner& node = parents[p];
        const size_t take = remaining / (num_parents - p);
        node.level = static_cast<uint16_t>(level);
        node.slotuse = static_cast<uint16_t>(take - 1);
        for (size_t k = 0; k < take; ++k, ++c) {
          node.child[k] = children[c];
          if (k) node.keys[k - 1] = mins[c];
        }
        up_mins.push_back(mins[c - take]);
        remaining -= take;
      }
      inner_.push_back(std::move(parents));
      for (const Inner& node : inner_.back()) up.push_back(&node);
      children.swap(up);
      mins.swap(up_mins);
      ++level;
    }
  }

  bool empty() const { return leaves_.empty(); }
  size_t levels() const { return leaves_.empty() ? 0 : 1 + inner_.size(); }

  // The slot of the last key <= q (the first slot when q is below every key).
  Slot LastAtOrBefore(K q) const {
    const void* node = inner_.empty() ? static_cast<const void*>(leaves_.data()) : &inner_.back()[0];
    for (size_t l = inner_.size(); l-- > 0;) {
      const Inner* in = static_cast<const Inner*>(node);
      size_t i = 0;
      while (i < in->slotuse && in->keys[i] <= q) ++i;
      node = in->child[i];
    }
    const Leaf* leaf = static_cast<const Leaf*>(node);
    size_t i = 1;
    while (i < leaf->slotuse && leaf->keys[i] <= q) ++i;
    return Slot{leaf, i - 1};
  }

  // Bytes its nodes take, as STX allocates them (one node per allocation).
  size_t NodeBytes() const {
    size_t b = leaves_.size() * sizeof(Leaf);
    for (const auto& level : inner_) b += level.size() * sizeof(Inner);
    return b;
  }

 private:
  struct Inner {  // STX inner_node: level, slotuse, keys, one more child than keys
    uint16_t level = 0, slotuse = 0;
    K keys[kInnerSlots];
    const void* child[kInnerSlots + 1];
  };

  size_t inner_slots_ = 16;
  std::vector<Leaf> leaves_;
  std::vector<std::vector<Inner>> inner_;  // inner_[0] just above the leaves; back() holds the root
};

}  // namespace detail
}  // namespace lidx

#endif  // LIDX_DETAIL_STX_LIKE_BTREE_H_

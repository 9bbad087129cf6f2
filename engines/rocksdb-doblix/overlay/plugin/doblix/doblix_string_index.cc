#include "plugin/doblix/doblix_string_index.h"

#include <algorithm>

#include "plugin/doblix/doblix_format.h"
#include "plugin/doblix/doblix_model.h"

namespace ROCKSDB_NAMESPACE {

namespace {

class TreeBuilder {
 public:
  TreeBuilder(const std::vector<Slice>& keys, size_t trailer, const std::vector<uint32_t>& bytes,
              uint32_t error, uint32_t max_block, DoblixModel* model,
              std::vector<uint64_t>* chunks)
      : keys_(keys), trailer_(trailer), bytes_(bytes), error_(error), max_block_(max_block),
        model_(model), chunks_(*chunks) {
    chunks_.resize(keys.size());
  }

  // The root when every key's integer is already in chunks_ and no key
  // reaches past them: no run can have a child (ChildSkip would be 0), so
  // the root is one stretch, as Build would cut it.
  void BuildFlat(uint32_t skip) {
    model_->nodes[0].skip = skip;
    model_->nodes[0].first_block = 0;
    Stretch(0, 0, keys_.size());
    model_->nodes[0].last_block = static_cast<uint32_t>(cuts_.size() - 1);
  }

  // Node `id` over keys [begin, end); with `ready`, chunks_ holds their
  // integers at `skip` already.
  void Build(size_t id, size_t begin, size_t end, uint32_t skip, int depth, bool ready) {
    if (!ready) {
      for (size_t i = begin; i < end; i++) chunks_[i] = DoblixChunk(UserKey(i), skip);
    }
    Build(id, begin, end, skip, depth);
  }

  // Node `id` over keys [begin, end), which share their padded bytes
  // before `skip`, their integers at `skip` in chunks_.
  void Build(size_t id, size_t begin, size_t end, uint32_t skip, int depth) {
    model_->nodes[id].skip = skip;
    model_->nodes[id].first_block = static_cast<uint32_t>(cuts_.size());
    // A child overwrites its run's integers with its own; the parent has
    // no more use for them by then.
    size_t stretch = begin;
    for (size_t i = begin; i < end;) {
      size_t j = i + 1;
      uint64_t run_bytes = bytes_[i];
      while (j < end && chunks_[j] == chunks_[i]) run_bytes += bytes_[j++];
      uint32_t child_skip = 0;
      if (j - i >= 2 && (j - i > error_ || run_bytes > max_block_) && depth < DoblixStringIndex::kMaxDepth) {
        child_skip = ChildSkip(i, j, skip);
      }
      if (child_skip != 0) {
        Stretch(id, stretch, i);
        const size_t child = model_->nodes.size();
        model_->nodes.emplace_back();
        std::string& extra = model_->nodes[child].extra;
        for (size_t p = skip + 8; p < child_skip; p++) {
          const Slice key = UserKey(i);
          extra.push_back(p < key.size() ? key[p] : '\0');
        }
        model_->nodes[id].chunk.push_back(chunks_[i]);
        model_->nodes[id].ref.push_back(DoblixNode::kChild | static_cast<uint32_t>(child));
        Build(child, i, j, child_skip, depth + 1, false);
        stretch = j;
      }
      i = j;
    }
    Stretch(id, stretch, end);
    model_->nodes[id].last_block = static_cast<uint32_t>(cuts_.size() - 1);
  }

  std::vector<DoblixCut> TakeCuts() { return std::move(cuts_); }

 private:
  // Where run [begin, end)'s keys stop sharing padded bytes past skip + 8
  // (>= skip + 8), or 0 if they never do (they differ only in trailing
  // zero bytes or are one key's versions: no deeper chunk tells them apart).
  uint32_t ChildSkip(size_t begin, size_t end, uint32_t skip) const {
    const Slice a = UserKey(begin);
    const Slice b = UserKey(end - 1);
    const size_t longest = std::max(a.size(), b.size());
    for (size_t p = skip + 8; p < longest; p++) {
      char ca = p < a.size() ? a[p] : '\0', cb = p < b.size() ? b[p] : '\0';
      if (ca != cb) return static_cast<uint32_t>(p);
    }
    return 0;
  }

  // Blocks and their model segments for keys [begin, end) of node `id`.
  void Stretch(size_t id, size_t begin, size_t end) {
    if (begin == end) return;
    std::vector<DoblixCut> cuts =
        model_->kind == DoblixModelKind::kPra
            ? DoblixSegmenter::Pra(chunks_, bytes_, max_block_, begin, end)
            : DoblixSegmenter::Pla(chunks_, bytes_, error_, max_block_, begin, end);
    for (const DoblixCut& cut : cuts) {
      DoblixSegment s;
      s.first_chunk = chunks_[cut.begin];
      s.cont = cut.begin > begin && chunks_[cut.begin] == chunks_[cut.begin - 1];
      s.slope = cut.slope;
      s.intercept = cut.intercept;
      s.error = cut.error;
      model_->nodes[id].chunk.push_back(s.first_chunk);
      model_->nodes[id].ref.push_back(static_cast<uint32_t>(model_->segments.size()));
      model_->segments.push_back(s);
      cuts_.push_back(cut);
    }
  }

  Slice UserKey(size_t i) const {
    return Slice(keys_[i].data(), keys_[i].size() - trailer_);
  }

  const std::vector<Slice>& keys_;
  const size_t trailer_;
  const std::vector<uint32_t>& bytes_;
  const uint32_t error_, max_block_;
  DoblixModel* model_;
  std::vector<uint64_t>& chunks_;
  std::vector<DoblixCut> cuts_;
};

}  // namespace

std::vector<DoblixCut> DoblixStringIndex::Build(const std::vector<Slice>& keys, size_t trailer,
                                                const std::vector<uint32_t>& bytes,
                                                uint32_t error, uint32_t max_block,
                                                DoblixModel* model,
                                                std::vector<uint64_t>* chunk_buffer,
                                                bool chunks_ready, size_t longest) {
  model->nodes.clear();
  model->segments.clear();
  if (keys.empty()) return {};
  TreeBuilder tree(keys, trailer, bytes, error, max_block, model, chunk_buffer);
  model->nodes.emplace_back();
  const uint32_t skip = static_cast<uint32_t>(model->prefix.size());
  if (chunks_ready && longest <= static_cast<size_t>(skip) + 8) {
    tree.BuildFlat(skip);
  } else {
    tree.Build(0, 0, keys.size(), skip, 0, chunks_ready);
  }
  return tree.TakeCuts();
}

}  // namespace ROCKSDB_NAMESPACE

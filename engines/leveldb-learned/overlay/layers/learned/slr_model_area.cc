#include "layers/learned/slr_model_area.h"

#include <string_view>

#include "util/coding.h"

namespace leveldb {

namespace {

bool GetFixed32Checked(Slice* in, uint32_t* v) {
  if (in->size() < 4) return false;
  *v = DecodeFixed32(in->data());
  in->remove_prefix(4);
  return true;
}

bool GetFixed64Checked(Slice* in, uint64_t* v) {
  if (in->size() < 8) return false;
  *v = DecodeFixed64(in->data());
  in->remove_prefix(8);
  return true;
}

Status Bad() { return Status::Corruption("slr model area malformed"); }

}  // namespace

void SlrModelArea::EncodeTo(std::string* out) const {
  PutFixed32(out, static_cast<uint32_t>(prefix.size()));
  *out += prefix;
  std::string blob;
  index_model->Serialize(&blob);
  PutFixed64(out, blob.size());
  *out += blob;
  PutFixed32(out, static_cast<uint32_t>(block_models.size()));
  for (const auto& m : block_models) {
    blob.clear();
    if (m) m->Serialize(&blob);
    PutFixed32(out, static_cast<uint32_t>(blob.size()));
    *out += blob;
  }
}

Status SlrModelArea::DecodeFrom(const Slice& area, uint32_t blocks) {
  Slice in = area;
  uint32_t plen;
  uint64_t mlen;
  if (!GetFixed32Checked(&in, &plen) || in.size() < plen) return Bad();
  prefix.assign(in.data(), plen);
  in.remove_prefix(plen);
  if (!GetFixed64Checked(&in, &mlen) || in.size() < mlen) return Bad();
  index_model.reset(new SlrModel);
  lidx::Status ls = index_model->Deserialize(std::string_view(in.data(), mlen));
  if (!ls.ok()) return Status::Corruption("slr model", ls.message());
  in.remove_prefix(mlen);
  uint32_t stored;
  if (!GetFixed32Checked(&in, &stored) || stored != blocks) return Bad();
  block_models.resize(blocks);
  for (uint32_t i = 0; i < blocks; i++) {
    uint32_t len;
    if (!GetFixed32Checked(&in, &len) || in.size() < len) return Bad();
    if (len > 0) {
      block_models[i].reset(new SlrModel);
      ls = block_models[i]->Deserialize(std::string_view(in.data(), len));
      if (!ls.ok()) return Status::Corruption("slr block model", ls.message());
      in.remove_prefix(len);
    }
  }
  return in.empty() ? Status::OK() : Bad();
}

}  // namespace leveldb

// LevelDB's own tables (leveldb, wisckey): no spec.
#include "crash_format.h"

namespace {

class PlainFormat : public CrashFormat {
 public:
  bool Configure(const std::string&, leveldb::Options*, std::string*) override { return true; }
};

}  // namespace

std::unique_ptr<CrashFormat> NewCrashFormat(const std::string& spec, std::string* err) {
  if (!spec.empty()) {
    *err = "format '" + spec + "': this engine has LevelDB's own tables only (no spec)";
    return nullptr;
  }
  return std::make_unique<PlainFormat>();
}

// leveldb-learned: a learned table configuration as LEVELDB_TABLE_FORMAT
// writes it ("index=pgm,position_boundary=16", "index=native,slr=eq"),
// plus "granularity=level" for the level models over the tables.
#include "crash_format.h"
#include "layers/learned/learned_table_format.h"
#include "layers/learned/level_models.h"

namespace {

class LearnedFormat : public CrashFormat {
 public:
  LearnedFormat(leveldb::LearnedTableConfig c, bool level_models)
      : config_(std::move(c)), level_models_(level_models) {}

  bool Configure(const std::string& dir, leveldb::Options* options, std::string* err) override {
    format_ = leveldb::LearnedTableFormat::Make(config_, err);
    if (format_ == nullptr) return false;
    options->table_format = format_.get();
    if (level_models_) {
      levels_ = std::make_unique<leveldb::LevelModels>(config_, dir);
      options->hooks = levels_.get();
    }
    return true;
  }

 private:
  const leveldb::LearnedTableConfig config_;
  const bool level_models_;
  std::unique_ptr<leveldb::LearnedTableFormat> format_;
  std::unique_ptr<leveldb::LevelModels> levels_;
};

}  // namespace

std::unique_ptr<CrashFormat> NewCrashFormat(const std::string& spec, std::string* err) {
  std::string rest = spec;
  const std::string level = ",granularity=level";
  const bool level_models = rest.size() > level.size() &&
                            rest.compare(rest.size() - level.size(), level.size(), level) == 0;
  if (level_models) rest.resize(rest.size() - level.size());
  leveldb::LearnedTableConfig c;
  if (!leveldb::ParseLearnedTableConfig(rest, &c, err)) return nullptr;
  return std::make_unique<LearnedFormat>(std::move(c), level_models);
}

// bourbon: "learning=always|cba|offline,granularity=file|level,
// error_bound=N,t_wait_us=N" (all optional), its learner running in the
// background of the load, so kills land in learning too.
#include <cstdlib>
#include <sstream>

#include "crash_format.h"
#include "layers/bourbon/bourbon.h"

namespace {

using leveldb::bourbon::Config;

class BourbonFormat : public CrashFormat {
 public:
  explicit BourbonFormat(const Config& c) : config_(c) {}

  bool Configure(const std::string& dir, leveldb::Options* options, std::string*) override {
    Config c = config_;
    c.max_file_size = options->max_file_size;
    options->block_restart_interval = 1;  // a position is a byte offset (README)
    options->compression = leveldb::kNoCompression;  // a compressed table is never learned
    bourbon_ = std::make_unique<leveldb::bourbon::Bourbon>(c, *options, dir);
    options->table_format = bourbon_.get();
    options->hooks = bourbon_.get();
    return true;
  }
  void Opened(leveldb::DB* db) override { bourbon_->Attach(db); }
  void LearnNow() override { bourbon_->LearnAll(); }
  void Closing() override { bourbon_->Detach(); }

 private:
  const Config config_;
  std::unique_ptr<leveldb::bourbon::Bourbon> bourbon_;
};

}  // namespace

std::unique_ptr<CrashFormat> NewCrashFormat(const std::string& spec, std::string* err) {
  Config c;
  std::istringstream items(spec);
  std::string item;
  while (std::getline(items, item, ',')) {
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (key == "learning" && (value == "always" || value == "cba" || value == "offline")) {
      c.learning = value == "always" ? leveldb::bourbon::Learning::kAlways
                   : value == "cba"  ? leveldb::bourbon::Learning::kCba
                                     : leveldb::bourbon::Learning::kOffline;
    } else if (key == "granularity" && (value == "file" || value == "level")) {
      c.granularity = value == "level" ? leveldb::bourbon::Granularity::kLevel
                                       : leveldb::bourbon::Granularity::kFile;
    } else if (key == "error_bound" && std::atoi(value.c_str()) >= 1) {
      c.error_bound = std::atoi(value.c_str());
    } else if (key == "t_wait_us" && !value.empty()) {
      c.t_wait_seconds = std::atof(value.c_str()) / 1e6;
    } else {
      *err = "format item '" + item + "': expected learning=always|cba|offline, "
             "granularity=file|level, error_bound=N (>= 1) or t_wait_us=N";
      return nullptr;
    }
  }
  return std::make_unique<BourbonFormat>(c);
}

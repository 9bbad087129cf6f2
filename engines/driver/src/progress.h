// A progress bar on stderr for long phases; never written into the log.
// On a terminal it redraws in place; otherwise it prints a line per 10%.
#ifndef LSMBENCH_PROGRESS_H_
#define LSMBENCH_PROGRESS_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

#include "clock.h"

namespace lsmbench {

class Progress {
 public:
  Progress(std::string label, uint64_t total, bool enabled)
      : label_(std::move(label)), total_(total), enabled_(enabled && total > 0),
        tty_(isatty(STDERR_FILENO)), start_(NowNanos()) {
    step_ = total_ / (tty_ ? 200 : 10);
    if (step_ == 0) step_ = 1;
    next_ = step_;
  }
  // Cheap enough to call per operation: one compare until the next mark.
  void Tick(uint64_t done) {
    if (enabled_ && done >= next_) Draw(done);
  }
  void Done() {
    if (enabled_) {
      Draw(total_);
      if (tty_) std::fputc('\n', stderr);
    }
  }

 private:
  void Draw(uint64_t done) {
    next_ = done + step_;
    double frac = static_cast<double>(done) / total_;
    double secs = (NowNanos() - start_) / 1e9;
    double eta = frac > 0 ? secs / frac - secs : 0;
    if (tty_) {
      int width = 30, filled = static_cast<int>(frac * width);
      std::fprintf(stderr, "\r%s [%.*s%*s] %5.1f%% %llu/%llu eta %.0fs", label_.c_str(),
                   filled, "##############################", width - filled, "",
                   frac * 100, static_cast<unsigned long long>(done),
                   static_cast<unsigned long long>(total_), eta);
    } else {
      std::fprintf(stderr, "%s %3.0f%% %llu/%llu (%.1fs)\n", label_.c_str(), frac * 100,
                   static_cast<unsigned long long>(done),
                   static_cast<unsigned long long>(total_), secs);
    }
    std::fflush(stderr);
  }

  std::string label_;
  uint64_t total_, step_, next_;
  bool enabled_, tty_;
  uint64_t start_;
};

}  // namespace lsmbench

#endif  // LSMBENCH_PROGRESS_H_

// The clock behind BuildStats::build_seconds: started where Build() starts,
// read where it ends.
#ifndef LIDX_DETAIL_BUILD_CLOCK_H_
#define LIDX_DETAIL_BUILD_CLOCK_H_

#include <chrono>

namespace lidx {
namespace detail {

class BuildClock {
 public:
  double Seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start_)
        .count();
  }

 private:
  std::chrono::steady_clock::time_point start_ =
      std::chrono::steady_clock::now();
};

}  // namespace detail
}  // namespace lidx

#endif  // LIDX_DETAIL_BUILD_CLOCK_H_

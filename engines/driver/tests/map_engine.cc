// lsmbench_map: lsmbench over MapEngine, so the driver's whole command line,
// runner and log writer run in the tests without an engine build.
#include <memory>

#include "map_engine.h"

namespace lsmbench {

std::unique_ptr<Engine> NewEngine() { return std::make_unique<MapEngine>(); }

}  // namespace lsmbench

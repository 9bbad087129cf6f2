// lsmbench adapter for pristine LevelDB 1.23 (the class is shared with the
// LevelDB forks: leveldb_engine.h).
#include "leveldb_engine.h"

namespace lsmbench {

std::unique_ptr<Engine> NewEngine() { return std::make_unique<LevelDBEngine>(); }

}  // namespace lsmbench

#include "layers/hooks/lsm_hooks.h"

namespace leveldb {

const char* CompactionTriggerName(CompactionTrigger trigger) {
  switch (trigger) {
    case CompactionTrigger::kFlush:
      return "flush";
    case CompactionTrigger::kSize:
      return "size";
    case CompactionTrigger::kSeek:
      return "seek";
    case CompactionTrigger::kManual:
      return "manual";
  }
  return "unknown";
}

}  // namespace leveldb

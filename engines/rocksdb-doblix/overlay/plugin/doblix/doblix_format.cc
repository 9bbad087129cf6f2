#include "plugin/doblix/doblix_format.h"

#include "table/format.h"

namespace ROCKSDB_NAMESPACE {

const std::string kDoblixModelBlockName = "doblix.model";
const std::string kDoblixRangeDelBlockName = "doblix.range_del";
const std::string kDoblixFilterBlockName = "doblix.filter";
const std::string kDoblixPropModel = "doblix.model";
const std::string kDoblixPropError = "doblix.error";
const std::string kDoblixPropMaxBlock = "doblix.max_block";
const std::string kDoblixPropTrainMicros = "doblix.train_micros";
const std::string kDoblixPropWriteMicros = "doblix.serialize_micros";
const std::string kDoblixPropIndexNodes = "doblix.index_nodes";

uint32_t DoblixChecksum(const char* data, size_t n) {
  return ComputeBuiltinChecksum(kXXH3, data, n);
}

}  // namespace ROCKSDB_NAMESPACE

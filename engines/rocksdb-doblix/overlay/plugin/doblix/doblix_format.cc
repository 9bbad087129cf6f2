#include "plugin/doblix/doblix_format.h"

namespace ROCKSDB_NAMESPACE {

const std::string kDoblixModelBlockName = "doblix.model";
const std::string kDoblixRangeDelBlockName = "doblix.range_del";
const std::string kDoblixPropModel = "doblix.model";
const std::string kDoblixPropError = "doblix.error";
const std::string kDoblixPropMaxBlock = "doblix.max_block";
const std::string kDoblixPropTrainMicros = "doblix.train_micros";
const std::string kDoblixPropWriteMicros = "doblix.serialize_micros";

}  // namespace ROCKSDB_NAMESPACE

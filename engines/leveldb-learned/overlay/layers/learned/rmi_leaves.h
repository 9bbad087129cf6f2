// RMI's leaf count sized to the position boundary, in at most one
// corrective training (issue 34; it replaced a retrain-with-doubled-leaves
// loop, TuneRmiLeaves, which trained up to log2(boundary)+1 more times).
#ifndef STORAGE_LEVELDB_LAYERS_LEARNED_RMI_LEAVES_H_
#define STORAGE_LEVELDB_LAYERS_LEARNED_RMI_LEAVES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "layers/learned/learned_table_config.h"
#include "lidx/index.h"

namespace leveldb {

// *model: c's RMI already trained over `mapped` with the registry's
// n / boundary leaves. Measures its mean bound width over a sample of the
// keys and, when that is off the boundary, trains once more with the leaf
// count the measurement predicts, keeping whichever model holds the
// boundary with fewer leaves (or, when neither holds it, the narrower).
// Adds the extra training to *trainings.
lidx::Status SizeRmiLeaves(const LearnedTableConfig& c, const std::vector<uint64_t>& mapped,
                           std::unique_ptr<lidx::Index<uint64_t>>* model, uint64_t* trainings,
                           std::string* err);

// The mean of hi - lo over about 1,024 of `keys` (evenly spaced).
double MeanBoundWidth(const lidx::Index<uint64_t>& index, const std::vector<uint64_t>& keys);

}  // namespace leveldb

#endif  // STORAGE_LEVELDB_LAYERS_LEARNED_RMI_LEAVES_H_

#include "plugin/doblix/doblix_table_factory.h"

#include <unordered_map>

#include "plugin/doblix/doblix_agent.h"
#include "plugin/doblix/doblix_table_builder.h"
#include "plugin/doblix/doblix_table_reader.h"
#include "rocksdb/utilities/options_type.h"

namespace ROCKSDB_NAMESPACE {

namespace {
std::unordered_map<std::string, OptionTypeInfo> doblix_table_type_info = {
    {"model",
     {offsetof(struct DoblixTableOptions, model), OptionType::kString,
      OptionVerificationType::kNormal, OptionTypeFlags::kNone}},
    {"error",
     {offsetof(struct DoblixTableOptions, error), OptionType::kUInt32T,
      OptionVerificationType::kNormal, OptionTypeFlags::kNone}},
    {"max_block_size",
     {offsetof(struct DoblixTableOptions, max_block_size), OptionType::kUInt32T,
      OptionVerificationType::kNormal, OptionTypeFlags::kNone}},
    {"nu",
     {offsetof(struct DoblixTableOptions, nu), OptionType::kDouble,
      OptionVerificationType::kNormal, OptionTypeFlags::kNone}},
    {"agent_seed",
     {offsetof(struct DoblixTableOptions, agent_seed), OptionType::kUInt64T,
      OptionVerificationType::kNormal, OptionTypeFlags::kNone}},
    {"agent_period",
     {offsetof(struct DoblixTableOptions, agent_period), OptionType::kUInt32T,
      OptionVerificationType::kNormal, OptionTypeFlags::kNone}},
    {"filter_policy",
     OptionTypeInfo::AsCustomSharedPtr<const FilterPolicy>(
         offsetof(struct DoblixTableOptions, filter_policy),
         OptionVerificationType::kByNameAllowFromNull, OptionTypeFlags::kNone)},
    {"rmi_leaves",
     {offsetof(struct DoblixTableOptions, rmi_leaves), OptionType::kUInt32T,
      OptionVerificationType::kNormal, OptionTypeFlags::kNone}},
};
}  // namespace

DoblixTableFactory::DoblixTableFactory(const DoblixTableOptions& options) : options_(options) {
  RegisterOptions(&options_, &doblix_table_type_info);
  // As the block-based table does when given none: a 32 MiB LRU cache.
  if (options_.block_cache == nullptr) options_.block_cache = NewLRUCache(32 << 20);
  agent_episodes_ = [this]() -> std::string {
    std::lock_guard<std::mutex> lock(agent_mu_);
    return agent_ != nullptr ? agent_->EpisodesJson() : "[]";
  };
}

DoblixTableOptions DoblixTableFactory::Effective() const {
  DoblixTableOptions o = options_;
  if (o.model == "agent") {
    std::lock_guard<std::mutex> lock(agent_mu_);
    if (agent_ == nullptr) {
      agent_ = std::make_shared<DoblixAgent>(o.nu, o.agent_seed, o.agent_period);
    }
    o.agent = agent_;
  }
  return o;
}

const void* DoblixTableFactory::GetOptionsPtr(const std::string& name) const {
  if (name == kBlockCacheOpts()) return options_.block_cache.get();
  // The shared_ptr itself, so a program without this plugin's headers (the
  // lsmbench adapter) can hand the factory the cache its other table uses.
  if (name == "DoblixBlockCache") return &options_.block_cache;
  // The agent's episodes as JSON, for the run log (same reason).
  if (name == "DoblixAgentEpisodes") return &agent_episodes_;
  // The calling thread's step timers (a DoblixStepNanos, four uint64_t).
  if (name == "DoblixStepNanos") return &doblix_step_nanos;
  if (name == "DoblixModelMisses") return &DoblixTableReader::model_misses;
  return TableFactory::GetOptionsPtr(name);
}

Status DoblixTableFactory::ValidateOptions(const DBOptions& db_opts,
                                           const ColumnFamilyOptions& cf_opts) const {
  if (options_.model != "pla" && options_.model != "pra" && options_.model != "agent" &&
      options_.model != "tridentkv" && options_.model != "bourbon") {
    return Status::InvalidArgument(
        "DoblixTable: model must be pla, pra, agent, bourbon or tridentkv, got " +
                                   options_.model);
  }
  if (options_.rmi_leaves == 0) {
    return Status::InvalidArgument("DoblixTable: rmi_leaves must be >= 1");
  }
  if (options_.max_block_size < 64) {
    return Status::InvalidArgument("DoblixTable: max_block_size must be >= 64");
  }
  if (options_.error == 0) return Status::InvalidArgument("DoblixTable: error must be >= 1");
  if (options_.agent_period == 0) {
    return Status::InvalidArgument("DoblixTable: agent_period must be >= 1");
  }
  return TableFactory::ValidateOptions(db_opts, cf_opts);
}

Status DoblixTableFactory::NewTableReader(const ReadOptions& /*ro*/,
                                          const TableReaderOptions& tro,
                                          std::unique_ptr<RandomAccessFileReader>&& file,
                                          uint64_t file_size,
                                          std::unique_ptr<TableReader>* table_reader,
                                          bool /*prefetch_index_and_filter_in_cache*/) const {
  return DoblixTableReader::Open(tro, Effective(), std::move(file), file_size, table_reader);
}

TableBuilder* DoblixTableFactory::NewTableBuilder(const TableBuilderOptions& tbo,
                                                  WritableFileWriter* file) const {
  DoblixTableOptions o = Effective();
  if (o.agent != nullptr) {
    DoblixKnobs k = o.agent->Knobs();
    o.model = k.pra ? "pra" : "pla";
    o.error = k.error;
    o.max_block_size = k.max_block;
  }
  return new DoblixTableBuilder(tbo, o, file);
}

}  // namespace ROCKSDB_NAMESPACE

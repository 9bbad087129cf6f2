// The DobLIX table factory, registered as "DoblixTable" in RocksDB's
// ObjectRegistry (doblix_registration.cc).
#pragma once

#include <functional>
#include <mutex>
#include <string>

#include "plugin/doblix/doblix_table_options.h"
#include "rocksdb/table.h"

namespace ROCKSDB_NAMESPACE {

class DoblixTableFactory : public TableFactory {
 public:
  explicit DoblixTableFactory(const DoblixTableOptions& options = DoblixTableOptions());

  static const char* kClassName() { return "DoblixTable"; }
  const char* Name() const override { return kClassName(); }

  using TableFactory::NewTableReader;
  Status NewTableReader(const ReadOptions& ro, const TableReaderOptions& tro,
                        std::unique_ptr<RandomAccessFileReader>&& file, uint64_t file_size,
                        std::unique_ptr<TableReader>* table_reader,
                        bool prefetch_index_and_filter_in_cache) const override;
  TableBuilder* NewTableBuilder(const TableBuilderOptions& tbo,
                                WritableFileWriter* file) const override;
  bool IsDeleteRangeSupported() const override { return true; }
  Status ValidateOptions(const DBOptions& db_opts, const ColumnFamilyOptions& cf_opts) const override;
  // The block cache, for DB properties such as rocksdb.block-cache-usage.
  const void* GetOptionsPtr(const std::string& name) const override;

 private:
  // The options a table is built or read with: model=agent adds the agent
  // (made on first use, after the options are configured).
  DoblixTableOptions Effective() const;

  DoblixTableOptions options_;
  mutable std::mutex agent_mu_;
  mutable std::shared_ptr<DoblixAgent> agent_;
  std::function<std::string()> agent_episodes_;
};

}  // namespace ROCKSDB_NAMESPACE

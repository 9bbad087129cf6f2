// The plugin's registration function (doblix.mk names it in doblix_FUNC):
// RocksDB's generated build_version.cc calls it for the default
// ObjectRegistry, so "DoblixTable" resolves in TableFactory::CreateFromString,
// OPTIONS files, db_bench, db_stress and ldb.
#include "plugin/doblix/doblix_table_factory.h"
#include "rocksdb/utilities/object_registry.h"

extern "C" int RegisterDoblixTables(ROCKSDB_NAMESPACE::ObjectLibrary& library,
                                     const std::string& /*arg*/) {
  using ROCKSDB_NAMESPACE::DoblixTableFactory;
  using ROCKSDB_NAMESPACE::TableFactory;
  library.AddFactory<TableFactory>(
      DoblixTableFactory::kClassName(),
      [](const std::string& /*uri*/, std::unique_ptr<TableFactory>* guard,
         std::string* /*errmsg*/) {
        guard->reset(new DoblixTableFactory());
        return guard->get();
      });
  return 1;
}

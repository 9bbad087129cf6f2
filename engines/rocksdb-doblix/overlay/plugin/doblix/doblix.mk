# RocksDB plugin convention (plugin/README.md): sources compiled into the
# library, and the function that registers the table factory by name.
doblix_SOURCES = doblix_registration.cc doblix_table_factory.cc doblix_table_builder.cc doblix_table_reader.cc doblix_table_iterator.cc doblix_block.cc doblix_model.cc doblix_segmenter.cc doblix_format.cc doblix_agent.cc doblix_string_index.cc doblix_builder_scratch.cc doblix_bourbon.cc doblix_tridentkv_index.cc
doblix_FUNC = RegisterDoblixTables

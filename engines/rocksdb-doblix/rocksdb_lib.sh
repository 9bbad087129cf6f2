# Sourced by the DobLIX scripts that compile against the rocksdb engine's
# build (run from the repository root): sets `src` (the unpacked RocksDB with
# the plugin laid over it) and `lib` (its static library), or stops.
build=${BUILD_DIR:-build}
src="$build/engines/rocksdb/src"
lib="$build/engines/rocksdb/lib-build/librocksdb.a"
if [ ! -f "$lib" ]; then
  echo "error: $lib missing: build the rocksdb engine first (./reproduce engines)" >&2
  exit 2
fi
# RocksDB's Release build has no RTTI; code deriving from its classes must match.
# Its internal headers (util/coding.h, db/dbformat.h) need the platform that
# its own build defines on Linux.
rocksdb_cxx=(${CXX:-c++} -std=c++17 -fno-rtti -DROCKSDB_PLATFORM_POSIX -DROCKSDB_LIB_IO_POSIX
             -I"$src" -I"$src/include" -Iindexes/include)
rocksdb_libs=(-lsnappy -llz4 -lzstd -lz -lgflags -lpthread -ldl)

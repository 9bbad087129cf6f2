#!/usr/bin/env bash
# SSTable creation and read-back CPU of the DobLIX table against the
# block-based table, side by side (build_bench.cc), built against the
# rocksdb engine's library. A benchmark: it prints, nothing passes or fails.
#   engines/rocksdb-doblix/build_bench.sh results/local/datasets/books_uint64 [be64|be64_pad56] [TABLES] [ENTRIES] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD_DIR:-build}
src="$build/engines/rocksdb/src"
lib="$build/engines/rocksdb/lib-build/librocksdb.a"
if [ ! -f "$lib" ]; then
  echo "error: $lib missing: build the rocksdb engine first (./reproduce engines)" >&2
  exit 2
fi
out="$build/engines/rocksdb-doblix/build_bench"
mkdir -p "$(dirname "$out")"
${CXX:-c++} -std=c++17 -O2 -fno-rtti -I"$src" -I"$src/include" \
  engines/rocksdb-doblix/build_bench.cc "$lib" \
  -lsnappy -llz4 -lzstd -lz -lgflags -lpthread -ldl -o "$out"
exec "$out" "$@"

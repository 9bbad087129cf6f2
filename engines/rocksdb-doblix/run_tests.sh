#!/usr/bin/env bash
# Builds the DobLIX table's round-trip and corruption test
# (tests/doblix_table_test.cc) against the engine's RocksDB build and runs it.
#   engines/rocksdb-doblix/run_tests.sh [SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD_DIR:-build}
src="$build/engines/rocksdb/src"
lib="$build/engines/rocksdb/lib-build/librocksdb.a"
if [ ! -f "$lib" ]; then
  echo "error: $lib missing: build the rocksdb engine first (./reproduce engines)" >&2
  exit 2
fi
out="$build/engines/rocksdb-doblix/doblix_table_test"
mkdir -p "$(dirname "$out")"
# RocksDB's Release build has no RTTI; code deriving from its classes must match.
${CXX:-c++} -std=c++17 -O1 -g -fno-rtti -I"$src/include" \
  engines/rocksdb-doblix/tests/doblix_table_test.cc "$lib" \
  -lsnappy -llz4 -lzstd -lz -lgflags -lpthread -ldl -o "$out"
"$out" "${1:-1}"

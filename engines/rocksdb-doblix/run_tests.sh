#!/usr/bin/env bash
# Builds the DobLIX tests against the engine's RocksDB build and runs them:
# the string index's unit test (tests/doblix_string_index_test.cc, on the
# plugin's own classes) and the table's round-trip and corruption test
# through RocksDB's public API (tests/doblix_table_test.cc).
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
out="$build/engines/rocksdb-doblix"
mkdir -p "$out"
for t in doblix_string_index_test doblix_table_test; do
  # RocksDB's Release build has no RTTI; code deriving from its classes must match.
  ${CXX:-c++} -std=c++17 -O1 -g -fno-rtti -I"$src" -I"$src/include" \
    "engines/rocksdb-doblix/tests/$t.cc" "$lib" \
    -lsnappy -llz4 -lzstd -lz -lgflags -lpthread -ldl -o "$out/$t"
  "$out/$t" "${1:-1}"
done

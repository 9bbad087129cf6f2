#!/usr/bin/env bash
# Builds the DobLIX tests against the engine's RocksDB build and runs them:
# the data block's and the string index's unit tests
# (tests/doblix_block_test.cc, tests/doblix_string_index_test.cc, on the
# plugin's own classes), the table's round-trip and corruption test
# through RocksDB's public API (tests/doblix_table_test.cc) and its
# corruption sweep (tests/doblix_sweep_test.cc; DOBLIX_SWEEP_STRIDE=257 for
# the long one).
#   engines/rocksdb-doblix/run_tests.sh [SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
source engines/rocksdb-doblix/rocksdb_lib.sh
out="$build/engines/rocksdb-doblix"
mkdir -p "$out"
for t in doblix_block_test doblix_string_index_test doblix_table_test doblix_sweep_test; do
  "${rocksdb_cxx[@]}" -O1 -g "engines/rocksdb-doblix/tests/$t.cc" "$lib" "${rocksdb_libs[@]}" -o "$out/$t"
  "$out/$t" "${1:-1}"
done

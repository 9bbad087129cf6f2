#!/usr/bin/env bash
# SSTable creation and read-back CPU of the DobLIX table against the
# block-based table, side by side (build_bench.cc), built against the
# rocksdb engine's library. A benchmark: it prints, nothing passes or fails.
#   engines/rocksdb-doblix/build_bench.sh results/local/datasets/books_uint64 [be64|be64_pad56] [TABLES] [ENTRIES] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
source engines/rocksdb-doblix/rocksdb_lib.sh
out="$build/engines/rocksdb-doblix/build_bench"
mkdir -p "$(dirname "$out")"
"${rocksdb_cxx[@]}" -O2 engines/rocksdb-doblix/build_bench.cc "$lib" "${rocksdb_libs[@]}" -o "$out"
exec "$out" "$@"

#!/usr/bin/env bash
# RocksDB's own db_stress, built from the engine's one RocksDB build
# (build/engines/rocksdb), on each table configuration in turn: the table is
# chosen through an OPTIONS file (db_stress has no table flag). Fails on the
# first configuration that does not end in "Verification successful".
#
#   engines/rocksdb-doblix/stress.sh                  # the long run (200k ops/thread, all tables)
#   engines/rocksdb-doblix/stress.sh --ops 3000       # what ./run-tests runs
#   engines/rocksdb-doblix/stress.sh --tables "doblix-pla block"
set -euo pipefail
cd "$(dirname "$0")/../.."
ops=200000
build=build
tables="block doblix-pla doblix-pra doblix-agent doblix-bloom bourbon-style tridentkv-style"
while [ $# -gt 0 ]; do
  case "$1" in
    --ops) ops="$2"; shift 2 ;;
    --build-dir) build="$2"; shift 2 ;;
    --tables) tables="$2"; shift 2 ;;
    *) echo "error: unknown argument $1 (expected --ops N, --build-dir DIR, --tables LIST)" >&2; exit 2 ;;
  esac
done
lib_build="$build/engines/rocksdb/lib-build"
if [ ! -f "$lib_build/build.ninja" ]; then
  echo "error: $lib_build/build.ninja missing: build the rocksdb engine first" \
       "(./reproduce engines, or snakemake $build/engines/rocksdb/bin/lsmbench)" >&2
  exit 2
fi
# the base engines/build_engine.py compiles the library with (ccache_env)
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
cmake --build "$lib_build" --target db_stress -j "$(nproc)" > /dev/null
db_stress="$lib_build/db_stress_tool/db_stress"

table_section() {  # the OPTIONS-file lines that select table $1
  case "$1" in
    block) printf 'table_factory=BlockBasedTable\n[TableOptions/BlockBasedTable "default"]\n' ;;
    doblix-pla) printf 'table_factory=DoblixTable\n[TableOptions/DoblixTable "default"]\n  model=pla\n  error=8\n  max_block_size=1024\n' ;;
    doblix-pra) printf 'table_factory=DoblixTable\n[TableOptions/DoblixTable "default"]\n  model=pra\n  max_block_size=2048\n' ;;
    doblix-bloom) printf 'table_factory=DoblixTable\n[TableOptions/DoblixTable "default"]\n  model=pla\n  error=8\n  max_block_size=1024\n  filter_policy=bloomfilter:10:false\n' ;;
    doblix-agent) printf 'table_factory=DoblixTable\n[TableOptions/DoblixTable "default"]\n  model=agent\n  agent_period=2\n' ;;
    bourbon-style) printf 'table_factory=DoblixTable\n[TableOptions/DoblixTable "default"]\n  model=bourbon\n  error=8\n  max_block_size=1024\n' ;;
    tridentkv-style) printf 'table_factory=DoblixTable\n[TableOptions/DoblixTable "default"]\n  model=tridentkv\n' ;;
    *) echo "error: unknown table configuration '$1' (expected block, doblix-pla, doblix-pra, doblix-agent, doblix-bloom, bourbon-style, tridentkv-style)" >&2; exit 2 ;;
  esac
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in $tables; do
  mkdir -p "$work/$t/db" "$work/$t/expected"
  {
    printf '[Version]\n  rocksdb_version=7.8.3\n  options_file_version=1.1\n'
    printf '[DBOptions]\n  create_if_missing=true\n[CFOptions "default"]\n  '
    table_section "$t"
  } > "$work/$t/OPTIONS"
  start=$(date +%s)
  # Release-build constraints (engines/rocksdb-doblix/README.md): no read
  # fault injection, no column-family clearing.
  if ! "$db_stress" --options_file="$work/$t/OPTIONS" --db="$work/$t/db" \
      --expected_values_dir="$work/$t/expected" --read_fault_one_in=0 \
      --clear_column_family_one_in=0 --threads=2 --max_key=100000 --ops_per_thread="$ops" \
      --reopen=2 --write_buffer_size=65536 --target_file_size_base=262144 \
      --delpercent=10 --delrangepercent=5 --verify_checksum_one_in=1000 \
      > "$work/$t/out.txt" 2>&1 || ! grep -q "Verification successful" "$work/$t/out.txt"; then
    grep -v "finished" "$work/$t/out.txt" | tail -30 >&2
    echo "FAIL: db_stress with table $t" >&2
    exit 1
  fi
  if [ "$t" != block ] && ! grep -rqs "table_factory=DoblixTable" "$work/$t/db"/OPTIONS-*; then
    echo "FAIL: db_stress with table $t did not run the DobLIX table" >&2
    exit 1
  fi
  echo "ok: db_stress table=$t ops_per_thread=$ops threads=2 in $(( $(date +%s) - start ))s"
done

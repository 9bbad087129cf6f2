#!/usr/bin/env bash
# C++ unit tests of each component (ctest), then every engine and the data
# generator built once, then pytest on two workers (pytest-xdist: most tests
# wait on lsmbench or Snakemake, so two overlap on 2 cores), which includes
# the end-to-end smoke run of the pipeline (tests/test_pipeline_smoke.py).
# Each phase's wall and CPU seconds go to build/tests/phases.tsv, each test
# module's to build/tests/modules.tsv (tests/costs.py; scripts/test_costs.py
# reads both).
set -euo pipefail
cd "$(dirname "$0")/.."
# --long: the test command and its longer checks (README, "Longer checks"):
# the tests marked `long` (tests/conftest.py) and the Slurm integration test
# whether or not a file it covers changed.
long=()
if [[ ${1:-} == --long ]]; then
  shift
  long=(--long)
  export LSMREPRO_SLURM_TEST=${LSMREPRO_SLURM_TEST:-1}
fi
jobs=$(nproc)
workers=${LSMREPRO_TEST_WORKERS:-2}
phases=build/tests/phases.tsv
mkdir -p build/tests
printf 'phase\twall_s\tuser_s\tsys_s\n' > "$phases"

# phase NAME CMD...: runs CMD, appends its wall, user and sys seconds (its
# children's included) to $phases; CMD's own output is untouched.
phase() {
  local name=$1 TIMEFORMAT
  shift
  TIMEFORMAT="$name"$'\t%R\t%U\t%S'
  { time "$@" 2>&4; } 4>&2 2>> "$phases"
}

cxx_tests() {
  local component=$1 dir=build/tests/${1//\//-}
  mkdir -p "$dir"
  echo "== C++ tests: $component" >&2
  cmake -S "$component" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DLSMBENCH_TESTS=ON > "$dir.configure.log" 2>&1 \
    || { cat "$dir.configure.log" >&2; return 1; }
  cmake --build "$dir" -j "$jobs" > "$dir.build.log" 2>&1 || { tail -50 "$dir.build.log" >&2; return 1; }
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure --timeout 600 >&2
}

for component in indexes workloads engines/driver; do
  phase "ctest ${component}" cxx_tests "$component"
done

# Built before the workers start: two Snakemake instances building the same
# engine would refuse each other's lock; built, every later start finds
# nothing to do.
build_all() {
  echo "== Engines and the data generator (from the compiler cache when warm)" >&2
  .venv/bin/python -m snakemake --profile profiles/default engines build/workloads/datagen build/lidx-tools/lidx_hardness \
    > build/tests/engines.log 2>&1 || { tail -50 build/tests/engines.log >&2; return 1; }
}
phase "engines" build_all

echo "== Python and end-to-end tests ($workers workers)" >&2
parallel=()
((workers > 1)) && parallel=(-n "$workers" --dist loadfile --no-loadscope-reorder)
phase "pytest" .venv/bin/python -m pytest "${parallel[@]}" --module-costs build/tests/modules.tsv "${long[@]}" "$@"

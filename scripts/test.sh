#!/usr/bin/env bash
# C++ unit tests of each component (ctest), then pytest, which includes the
# end-to-end smoke run of the pipeline (tests/test_pipeline_smoke.py).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
for component in indexes workloads engines/driver; do
  dir=build/tests/${component//\//-}
  mkdir -p "$dir"
  echo "== C++ tests: $component" >&2
  cmake -S "$component" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DLSMBENCH_TESTS=ON > "$dir.configure.log" 2>&1 \
    || { cat "$dir.configure.log" >&2; exit 1; }
  cmake --build "$dir" -j "$jobs" > "$dir.build.log" 2>&1 || { tail -50 "$dir.build.log" >&2; exit 1; }
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure --timeout 600 >&2
done
echo "== Python and end-to-end tests" >&2
exec .venv/bin/python -m pytest "$@"

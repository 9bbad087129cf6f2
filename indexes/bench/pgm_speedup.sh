#!/usr/bin/env bash
# PGM's lookup against std::lower_bound (issue 34), one command: 10M and
# 100M keys, uniform and lognormal, epsilon 64 (default) and 8 (lsm-eval's
# position boundary 16), RS and RMI beside it. Each row's `speedup` is the
# median over 5 interleaved rounds of lower_bound's CPU ns / the index's,
# measured on the same array in the same process; the target is >= 2.
# Needs ~2 GB of memory at 100M keys. Run from anywhere in the repository.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build/indexes
cmake -S indexes -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DLIDX_BUILD_TESTS=OFF > /dev/null
cmake --build "$build" --target lidx_bench > /dev/null
uptime
for n in 10000000 100000000; do
  "$build/lidx_bench" --n "$n" --datasets uniform,lognormal \
    --indexes pgm,pgm:epsilon=8,rs,rmi --lookups 2000000 --repeat 5 2> /dev/null
done
uptime

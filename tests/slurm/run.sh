#!/usr/bin/env bash
# Slurm integration test (its own command; too slow for ./run-tests' budget):
#   tests/slurm/run.sh [--keep]
# Starts a throwaway single-node Slurm cluster (tests/slurm/cluster.sh:
# slurm-wlm and munge, no accounting daemon), runs the `smoke` scale of the
# `baseline` study through Snakemake's Slurm executor (profiles/slurm) in a
# copy of this checkout, then the same target locally (profiles/default),
# and fails unless both produced the same set of files under results/, every
# run log says it was measured in a Slurm job on the cluster's node, and every
# benchmark job had its node to itself. The cluster is torn down whatever
# happens (trap). Needs root; installs slurm-wlm and munge when missing.
# --keep leaves the work folder for inspection.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
keep=false
[[ ${1:-} == --keep ]] && keep=true
[[ $(id -u) -eq 0 ]] || { echo "tests/slurm/run.sh: needs root (it starts slurmctld, slurmd, munged)" >&2; exit 1; }
scripts/setup.sh
# The cluster's own packages, only for this test (not in scripts/setup.sh:
# the pipeline does not need them).
missing=()
for p in slurm-wlm munge; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "tests/slurm/run.sh: installing ${missing[*]}" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
export CCACHE_BASEDIR=$repo CCACHE_NOHASHDIR=1
say() { echo "== slurm test: $*" >&2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/lsmrepro-slurm.XXXXXX")
cleanup() {
  local rc=$?
  tests/slurm/cluster.sh stop "$work/cluster" || true
  if $keep; then say "work folder kept: $work"; else rm -rf "$work"; fi
  ((rc == 0)) && say "PASS in $SECONDS s" || say "FAIL (exit $rc) after $SECONDS s"
}
trap cleanup EXIT
# A stop signal is a failure: without these, the EXIT trap sees the status of
# the last command that finished before the signal and says PASS.
trap 'exit 130' INT
trap 'exit 143' TERM

# A clean copy of the checkout (tracked and untracked, not ignored files),
# with the pinned source tarballs already fetched as its drop folder.
mkdir -p "$work/repo/sources"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -c | tar -C "$work/repo" -x
for f in build/sources/*.tar.* sources/*; do [[ -f $f ]] && cp -p "$f" "$work/repo/sources/"; done

eval "$(tests/slurm/cluster.sh start "$work/cluster")"
node=$(sinfo -h -o %N)
say "cluster up: node $node, SLURM_CONF=$SLURM_CONF"

snakemake=$repo/.venv/bin/snakemake
# The copy shares this checkout's build folder; datagen's and lidx_hardness's CMake builds there
# belong to this checkout's sources, so bring it up to date here first (a
# rebuild from the copy would be refused: another source folder).
"$snakemake" --profile profiles/default --config "scale=smoke" -- build/workloads/datagen build/lidx-tools/lidx_hardness \
  > "$work/datagen.log" 2>&1 || { tail -40 "$work/datagen.log" >&2; exit 1; }
cd "$work/repo"
# Engines are built in this checkout's build/ (as ./run-tests and ./reproduce
# do), through Slurm when missing, and reused when there.
common=(scale=smoke build_dir="$repo/build")

say "baseline at smoke scale through the Slurm executor"
t0=$SECONDS
"$snakemake" --profile profiles/slurm --slurm-init-seconds-before-status-checks 5 \
  --latency-wait 10 --config "${common[@]}" results_dir="$work/results-slurm" -- baseline \
  > "$work/slurm-run.log" 2>&1 || { tail -60 "$work/slurm-run.log" >&2; exit 1; }
say "Slurm run: $((SECONDS - t0)) s"

say "the same target locally"
t0=$SECONDS
"$snakemake" --profile profiles/default --config "${common[@]}" results_dir="$work/results-local" -- baseline \
  > "$work/local-run.log" 2>&1 || { tail -60 "$work/local-run.log" >&2; exit 1; }
say "local run: $((SECONDS - t0)) s"

cd "$repo"
.venv/bin/python tests/slurm/check.py --slurm "$work/results-slurm" --local "$work/results-local" \
  --node "$node" --squeue <(squeue -h -t all -o '%i|%k|%h|%N|%T')

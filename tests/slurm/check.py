"""Checks of the Slurm integration test (tests/slurm/run.sh): the Slurm run
produced the same set of files as the local run, its numbers say they were
measured in Slurm jobs on the cluster's node, and benchmark jobs had the
node to themselves.

    python tests/slurm/check.py --slurm DIR --local DIR --node NAME --squeue FILE
"""
import argparse
import csv
import json
import sys
from pathlib import Path


def files(root):
    root = Path(root)
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


def check(a):
    errors = []
    slurm, local = files(a.slurm), files(a.local)
    if not local:
        errors.append(f"the local run wrote nothing under {a.local}")
    for name, only in (("Slurm", slurm - local), ("local", local - slurm)):
        if only:
            errors.append(f"only the {name} run wrote: " + ", ".join(sorted(only)[:20]))

    logs = sorted(p for raw in Path(a.slurm).glob("*/raw") for p in raw.rglob("*.jsonl"))
    if not logs:
        errors.append(f"no run log under {a.slurm}/*/raw")
    for log in logs:
        run = json.loads(log.read_text().splitlines()[0])  # the `run` record
        node = ((run.get("attached") or {}).get("fingerprint") or {}).get("node") or {}
        if node.get("scheduler") != "slurm" or node.get("slurm_node") != a.node \
                or not node.get("slurm_job_id"):
            errors.append(f"{log}: fingerprint node {node} is not Slurm node {a.node}")
    for tidy in Path(a.slurm).glob("*/tidy/*.csv"):
        with open(tidy, newline="") as f:
            nodes = {row["node"] for row in csv.DictReader(f)}
        if nodes != {a.node}:
            errors.append(f"{tidy}: node column {sorted(nodes)}, expected only {a.node}")

    # squeue -t all -o '%i|%k|%h|%N|%T': id, comment (rule_<name>...),
    # oversubscribe ("NO" when --exclusive), nodes, state
    jobs = [line.split("|") for line in Path(a.squeue).read_text().splitlines() if line]
    bench = [j for j in jobs if j[1].startswith(("rule_bench_load", "rule_bench_run", "rule_hardware_calibration"))]
    if not bench:
        errors.append("squeue shows no benchmark job: did the run go through Slurm?")
    for jid, comment, share, nodes, state in bench:
        if share.upper() != "NO" or nodes != a.node or state != "COMPLETED":
            errors.append(f"job {jid} ({comment}): oversubscribe={share} nodes={nodes} "
                          f"state={state}; expected NO, {a.node}, COMPLETED")
    print(f"slurm test: {len(slurm)} files in both runs, {len(logs)} run logs, "
          f"{len(jobs)} Slurm jobs ({len(bench)} exclusive benchmark jobs)", file=sys.stderr)
    return errors


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for opt in ("--slurm", "--local", "--node", "--squeue"):
        p.add_argument(opt, required=True)
    errors = check(p.parse_args())
    for e in errors:
        print(f"error: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

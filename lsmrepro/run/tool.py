"""One run of a microbenchmark (a figure's `tool`, lsmrepro/plan/tools.py):
the tool writes its CSV, and a record beside it says what ran, on what
machine load, and for which point: the run's manifest (study, experiment,
point, repetition, factors), the command, wall and CPU seconds, the load
average before and after, and the build id of the tool (a digest of the
binary, or of the built files it runs, --build-input: lsmbench_pairs's
engines). Both appear whole or not at all; a tool that fails or answers
wrong (lidx_bench's exit 1) fails the job with its stderr in the log.

    python -m lsmrepro.run.tool --csv R.csv --record R.tool.json --manifest JSON \\
        [--fingerprint hardware/fingerprint.json] [--meta scale=smoke] [--build-input FILE ...] \\
        -- BINARY ARGS...
"""
import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from base.atomic import atomic_path, write_text
from base.errors import InputError, cli

RECORD_SUFFIX = ".tool.json"


def digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def build_id(paths):
    """One file's digest, or a digest of several files' digests (in order)."""
    if len(paths) == 1:
        return digest(paths[0])
    return hashlib.sha256(" ".join(digest(p) for p in paths).encode()).hexdigest()[:16]


def run(binary, tool_args, csv, record, manifest, meta, fingerprint=None, build_inputs=None):
    before = os.getloadavg()
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    with atomic_path(csv) as tmp:
        command = [str(binary), *tool_args, "--csv", str(tmp)]
        proc = subprocess.run(command, stdout=subprocess.PIPE, text=True)
        sys.stderr.write(proc.stdout)
        if proc.returncode != 0:
            raise InputError(binary, "exit status", f"0 expected, got {proc.returncode} (its stderr above)")
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    write_text(record, json.dumps({
        "manifest": manifest, "meta": meta, "csv": Path(csv).name,
        "command": [str(binary), *tool_args], "build_id": build_id(build_inputs or [binary]),
        "build_inputs": [str(p) for p in build_inputs or [binary]],
        "wall_seconds": round(time.monotonic() - t0, 3),
        "cpu_seconds": round(cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime, 3),
        "loadavg_before": before, "loadavg_after": os.getloadavg(),
        "fingerprint": json.loads(Path(fingerprint).read_text()) if fingerprint else {}}, indent=1) + "\n")


@cli
def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--" not in argv:
        raise InputError("lsmrepro.run.tool", "arguments", "-- BINARY ARGS... expected after the options")
    split = argv.index("--")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--csv", required=True)
    ap.add_argument("--record", required=True)
    ap.add_argument("--manifest", required=True, help="the run's identity as JSON (studies.tool_runs)")
    ap.add_argument("--fingerprint", help="the machine's hardware/fingerprint.json, kept in the record")
    ap.add_argument("--meta", action="append", default=[], help="name=value, kept in the record")
    ap.add_argument("--build-input", action="append", default=[],
                    help="a built file the tool runs (default: BINARY), its digest the build id")
    args = ap.parse_args(argv[:split])
    binary, *tool_args = argv[split + 1:]
    meta = dict(m.split("=", 1) for m in args.meta)
    run(binary, tool_args, args.csv, args.record, json.loads(args.manifest), meta, args.fingerprint,
        args.build_input)


if __name__ == "__main__":
    main()

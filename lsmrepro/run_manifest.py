"""A run's manifest (run.json) from Snakemake's own logs of it, written
right after the run ends (its load average is the machine's then).

    python -m lsmrepro.run_manifest --log .snakemake/log/<time>.snakemake.log [--log ...] \\
        --out results/local/run.json

A run stopped and resumed has one log per part: give them all. Fields:
commit (`git rev-parse HEAD`; refused when the working tree differs from
it, since then no commit ran), started (the first log's `Date:`),
wall_seconds (the parts' `Elapsed time:` summed), jobs (steps done, summed
over the parts), load_average (/proc/loadavg's 1, 5 and 15 minutes now).
lsmrepro.readme_verdicts reads it from the reference folder.
"""
import argparse
import datetime
import json
import re
import subprocess
from pathlib import Path

from base.atomic import write_text
from base.errors import InputError, cli

DATE = re.compile(r"^\s*Date: (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)$", re.M)
ELAPSED = re.compile(r"^Elapsed time: (?:(\d+) days?, )?(\d+):(\d\d):(\d\d(?:\.\d+)?)$", re.M)
STEPS = re.compile(r"^(\d+) of (\d+) steps \([\d.]+%\) done$", re.M)


def part(path):
    """(started, wall seconds, jobs done) of one Snakemake log."""
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise InputError(path, None, f"a Snakemake log expected ({e})")
    date, elapsed, steps = DATE.search(text), ELAPSED.findall(text), STEPS.findall(text)
    for name, found in (("Date", date), ("Elapsed time", elapsed)):
        if not found:
            raise InputError(path, name, "a Snakemake log of a finished run (its header's Date: and its last"
                                         " Elapsed time: line)")
    days, h, m, s = elapsed[-1]
    wall = int(days or 0) * 86400 + int(h) * 3600 + int(m) * 60 + float(s)
    started = datetime.datetime.fromisoformat(date.group(1))
    return started, wall, int(steps[-1][0]) if steps else 0


def commit(repo):
    def git(*args):
        return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout.strip()
    if git("status", "--porcelain", "--untracked-files=no"):
        raise InputError(repo, "git status", "a working tree equal to its commit (the run's code must be one commit)")
    return git("rev-parse", "HEAD")


def manifest(logs, repo="."):
    parts = sorted(part(p) for p in logs)
    with open("/proc/loadavg") as f:
        load = [float(x) for x in f.read().split()[:3]]
    return {"commit": commit(repo), "started": parts[0][0].isoformat(sep=" ", timespec="minutes"),
            "wall_seconds": round(sum(p[1] for p in parts), 1), "jobs": sum(p[2] for p in parts),
            "load_average": load}


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log", nargs="+", required=True, help="the run's Snakemake log(s), .snakemake/log/*.log")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    write_text(a.out, json.dumps(manifest(a.log), indent=1) + "\n")


if __name__ == "__main__":
    main()

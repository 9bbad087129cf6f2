"""Loads whose times nothing reads defer their fsyncs (lsmrepro/run/bench.py
--defer-fsync, experiments.yaml `timed_loads`): the job runs under eatmydata,
says so in its meta, and its files are whole when it ends. The job here is
a small Python program standing for lsmbench (it takes lsmbench's flags)."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from lsmrepro.plan import studies

REPO = Path(__file__).resolve().parent.parent
# writes a table and what it saw: whether eatmydata's library was loaded, its --meta flags
PROBE = r"""
import json, os, sys
db = sys.argv[sys.argv.index("--db") + 1]
os.makedirs(db, exist_ok=True)
with open(os.path.join(db, "000005.ldb"), "wb") as f:
    f.write(b"x" * 4096)
    f.flush()
    os.fsync(f.fileno())
interposed = "libeatmydata" in open("/proc/self/maps").read()
meta = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--meta"]
json.dump({"fsync_interposed": interposed, "meta": meta}, open(os.path.join(db, "probe.json"), "w"))
"""


def _load(tmp_path, *flags):
    db, log, limits = tmp_path / "db", tmp_path / "l.jsonl", tmp_path / "l.limits.json"
    proc = subprocess.run([sys.executable, "-m", "lsmrepro.run.bench", "load", "--db", str(db), "--log", str(log),
                           "--limits", str(limits), "--memory", "none", *flags, "--", sys.executable, "-c", PROBE],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    return proc, db


@pytest.mark.skipif(not shutil.which("eatmydata"), reason="eatmydata not installed (scripts/setup.sh installs it)")
@pytest.mark.parametrize("defer", [True, False])
def test_a_deferring_load_runs_under_eatmydata_and_says_so(tmp_path, defer):
    proc, db = _load(tmp_path, *(["--defer-fsync"] if defer else []))
    assert proc.returncode == 0, proc.stderr
    probe = json.loads((db / "probe.json").read_text())
    assert probe["fsync_interposed"] is defer
    assert ("load_fsync=deferred" in probe["meta"]) is defer
    assert ("synced the load's files once" in proc.stderr) is defer
    loaded = json.loads((db / "LOADED.json").read_text())["files"]
    assert loaded["000005.ldb"] == 4096


def test_eatmydata_missing_is_one_clear_error(tmp_path):
    env = {**os.environ, "PATH": os.path.dirname(sys.executable)}  # python, and no eatmydata
    proc = subprocess.run([sys.executable, "-m", "lsmrepro.run.bench", "load", "--db", str(tmp_path / "db"),
                           "--log", str(tmp_path / "l.jsonl"), "--limits", str(tmp_path / "l.limits.json"),
                           "--memory", "none", "--defer-fsync", "--", sys.executable, "-c", PROBE],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "eatmydata" in proc.stderr and "apt-get install eatmydata" in proc.stderr
    assert not (tmp_path / "db" / "LOADED.json").exists()


def test_a_run_cannot_defer_its_fsyncs(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "lsmrepro.run.bench", "run", "--db", str(tmp_path / "c"),
                           "--from", str(tmp_path / "db"), "--load-log", "l.jsonl", "--manifest", "{}",
                           "--log", "r.jsonl", "--limits", "r.limits.json", "--memory", "none", "--defer-fsync",
                           "--", "lsmbench"], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--defer-fsync is for loads" in proc.stderr


def _measures(node):
    """Every {experiment, metric} a claim's measure reads."""
    if isinstance(node, dict):
        if "metric" in node and "experiment" in node:
            yield node["experiment"], node["metric"]
        for v in node.values():
            yield from _measures(v)
    elif isinstance(node, list):
        for v in node:
            yield from _measures(v)


def _load_time(metric):
    return str(metric).startswith("load_") and (str(metric).endswith("_seconds") or metric == "load_throughput")


def test_what_reads_load_times_has_timed_loads():
    """A claim or a figure that reads a load's times makes that figure's
    loads timed; else a deferred fsync would change what it measures."""
    missing = []
    for study in studies.studies_with_specs():
        figs = studies.figures(study)
        claims = yaml.safe_load((REPO / "paper" / study / "claims.yaml").read_text()) or {}
        for claim in claims.get("claims", []):
            for experiment, metric in _measures(claim.get("measure", {})):
                if _load_time(metric) and not figs[experiment].get("timed_loads"):
                    missing.append(f"{study} claim {claim['id']}: {experiment} {metric}")
        for fig_id, fig in figs.items():
            for code in studies.figure_code(study, fig_id):
                text = (REPO / code).read_text()
                names = {m for m in re.findall(r"load_[a-z_]+", text) if _load_time(m)}
                for uses in [fig_id, *fig.get("uses", [])]:
                    if names and "engines" in figs.get(uses, {}) and not figs[uses].get("timed_loads"):
                        missing.append(f"{code}: {uses} {sorted(names)}")
    assert not missing, missing
    # and the check sees something: the two figures that read load times
    assert studies.figures("doblix")["fig14"]["timed_loads"] and studies.figures("slr")["fig8"]["timed_loads"]

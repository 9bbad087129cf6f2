"""End to end: the real pipeline at the smoke scale — real engine builds,
real runs, real figures — into a fresh results folder, then what a user of
the workflow relies on: outputs exist, every tidy number traces back to a raw
log line, a second run has nothing to do, deleting one raw log re-runs just
that job and what depends on it, and bad input fails with one clear line."""
from pathlib import Path
import json
import os
import re
import struct
import subprocess
import sys

import pandas as pd
import pytest

REPO = Path(__file__).resolve().parent.parent  # the repository root

pytestmark = pytest.mark.e2e
SNAKEMAKE = [sys.executable, "-m", "snakemake", "--profile", "profiles/default"]


def snakemake(results, *args, config=(), check=True):
    cmd = SNAKEMAKE + [*args, "--config", f"results_dir={results}", *config]
    r = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed:\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}")
    return r


def job_counts(dry_run_output):
    """The 'Job stats' table of a dry run as {rule: count}."""
    counts = {}
    for line in dry_run_output.splitlines():
        m = re.match(r"^(\w+)\s+(\d+)$", line.strip())
        if m and m.group(1) != "total":
            counts[m.group(1)] = int(m.group(2))
    return counts


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("results")
    snakemake(out, "smoke")
    return out


def test_figure_table_claims_and_report_exist(results):
    smoke = results / "smoke"
    for rel in ("figures/baseline/point.pdf", "figures/baseline/point.png",
                "tables/baseline/point.csv", "tables/baseline/point.md",
                "claims/baseline.csv", "claims/baseline.md", "report/index.html"):
        assert (smoke / rel).stat().st_size > 0, rel
    verdicts = pd.read_csv(smoke / "claims" / "baseline.csv")
    assert set(verdicts["verdict"]) <= {"reproduced", "not reproduced", "inconclusive"}
    assert "driver-overhead-leveldb" in set(verdicts["claim"])
    table = pd.read_csv(smoke / "tables" / "baseline" / "point.csv")
    assert set(table["engine"]) == {"leveldb", "rocksdb"}
    page = (smoke / "report" / "index.html").read_text()
    assert "data:image/png;base64," in page and "http://" not in page and "https://" not in page


def test_every_tidy_number_traces_back_to_a_raw_log_line(results):
    tidy = pd.read_csv(results / "smoke" / "tidy" / "baseline.csv")
    assert len(tidy) > 0
    raw = results / "smoke" / "raw"
    files = {}
    for _, row in tidy.iterrows():
        source = row["source"]
        if "#" in source:  # the cgroup runner's report: file#field
            path, key = source.split("#")
            report = files.setdefault(path, json.loads(open(path).read()) if path.endswith(".json") else None)
            assert float(report[key]) == row["value"], row.to_dict()
        else:  # lsmbench's log: file:line
            path, line = source.rsplit(":", 1)
            lines = files.setdefault(path, open(path).read().splitlines())
            record = json.loads(lines[int(line) - 1])
            values = [v for v in record.values() if isinstance(v, (int, float)) and not isinstance(v, bool)]
            values += list(record.get("per_op", {}).values())
            assert any(abs(float(v) - row["value"]) <= 1e-9 * max(1, abs(v)) for v in values), row.to_dict()
        assert path.startswith(str(raw)), path
    on_disk = {str(p) for p in raw.rglob("*") if p.is_file()}
    assert set(files) == on_disk, "every raw file contributes to the tidy data"


def test_runs_ran_under_the_memory_limit(results):
    tidy = pd.read_csv(results / "smoke" / "tidy" / "baseline.csv")
    limits = tidy[tidy["metric"] == "memory_limit_bytes"]
    assert len(limits) == tidy["run"].nunique()
    peaks = tidy[tidy["metric"] == "memory_peak_bytes"].set_index("run")["value"]
    assert (peaks > 0).all()
    assert (peaks <= limits.set_index("run")["value"]).all()


def test_second_run_has_nothing_to_do(results):
    r = snakemake(results, "smoke", "--dry-run")
    assert "Nothing to be done" in r.stdout + r.stderr


def test_deleting_one_raw_log_reruns_only_it_and_its_dependents(results):
    victim = next((results / "smoke" / "raw" / "baseline" / "point").glob("rocksdb__*__r1.jsonl"))
    saved = victim.read_bytes()
    victim.unlink()
    try:
        r = snakemake(results, "smoke", "--dry-run")
        counts = job_counts(r.stdout + r.stderr)
        assert counts == {"baseline_point_run": 1, "baseline_tidy": 1, "baseline_point_figure": 1,
                          "baseline_claims": 1, "report": 1, "smoke": 1}, counts
    finally:
        victim.write_bytes(saved)
        os.utime(victim, (victim.stat().st_mtime - 3600,) * 2)


def test_bad_config_fails_with_one_line(results):
    r = snakemake(results, "smoke", "--dry-run", config=["scale=huge"], check=False)
    assert r.returncode != 0
    assert "scale: expected one of smoke, local, paper, got 'huge'" in r.stderr


def _lsmbench(*args):
    binary = REPO / "build" / "engines" / "leveldb" / "bin" / "lsmbench"
    return subprocess.run([str(binary), *map(str, args)], capture_output=True, text=True)


def test_unknown_engine_option_is_one_clear_error(results, tmp_path):
    keys = tmp_path / "k_uint64"
    keys.write_bytes(struct.pack("<4Q", 3, 1, 2, 3))
    r = _lsmbench("--db", tmp_path / "db", "--dataset", keys, "--log", tmp_path / "l.jsonl",
                  "-o", "blocksize=4096")
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0
    assert "engine option 'blocksize': unknown" in r.stderr and "block_size" in r.stderr
    assert not (tmp_path / "l.jsonl").exists()


@pytest.mark.parametrize("payload, expected", [
    (struct.pack("<Q", 5) + struct.pack("<3Q", 1, 2, 3), "header count 5 needs 48 bytes, file has 32"),
    (struct.pack("<Q", 3) + struct.pack("<2Q", 1, 2) + b"\x01\x02", "header count 3 needs 32 bytes, file has 26"),
    (b"\x01\x02\x03", "truncated"),
    (struct.pack("<4Q", 3, 5, 2, 9), "sorted keys expected"),
])
def test_bad_dataset_is_one_clear_error(results, tmp_path, payload, expected):
    keys = tmp_path / "bad_uint64"
    keys.write_bytes(payload)
    r = _lsmbench("--db", tmp_path / "db", "--dataset", keys, "--log", tmp_path / "l.jsonl")
    assert r.returncode == 2
    assert str(keys) in r.stderr and expected in r.stderr, r.stderr
    assert not (tmp_path / "l.jsonl").exists()


@pytest.mark.parametrize("engine", ["leveldb", "rocksdb"])
@pytest.mark.parametrize("workload", ["workloada", "workloadd", "workloade", "workloadf"])
def test_ycsb_workloads_verify_on_real_engines(results, tmp_path, engine, workload):
    """YCSB mixes (updates, latest-distribution inserts, scans, read-modify-
    writes) over a smoke dataset: every answer of the real engine checks."""
    binary = REPO / "build" / "engines" / engine / "bin" / "lsmbench"
    dataset = results / "smoke" / "datasets" / "logn_uint64"
    log = tmp_path / "ycsb.jsonl"
    r = subprocess.run([str(binary), "--db", str(tmp_path / "db"), "--dataset", str(dataset),
                        "--workload", "ycsb", "--spec", f"workloads/ycsb/{workload}",
                        "-p", "fieldlength=10", "--ops", "20000", "--key-encoding", "be64_pad16",
                        "--log", str(log)], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in log.read_text().splitlines()]
    check = next(x for x in records if x["type"] == "check")
    assert check["wrong"] == 0 and check["verified"] > 0
    ops = {x["op"] for x in records if x["type"] == "latency"}
    expected = {"workloada": {"get", "update"}, "workloadd": {"get", "insert"},
                "workloade": {"scan", "insert"}, "workloadf": {"get", "rmw"}}[workload]
    assert expected <= ops, ops

"""leveldb-learned on real builds: LevelDB's own tests and ours with a
learned index as every table's format (bounded sample: one index, two
programs), an index that cannot be built failing the run by name, and the
run log's learned fields, index memory over every live table (the differential sample is engines/difftest.yaml's
`learned-sample`, run by test_difftest.py)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from lsmrepro.tidy import runlog
from tests import checkout_snakemake

REPO = Path(__file__).resolve().parent.parent  # the repository root

pytestmark = pytest.mark.e2e

TARBALL = "build/sources/leveldb-1.23.tar.gz"
BINARY = REPO / "build/engines/leveldb-learned/bin/lsmbench"


def snakemake(*targets, _done=set()):
    """Makes the targets, once per session: each Snakemake start reads every study (~10 s)."""
    todo = [t for t in targets if t not in _done]
    if not todo:
        return
    r = checkout_snakemake.build(*todo)
    assert r.returncode == 0, r.stderr[-3000:]
    _done.update(todo)


def keys_file(path, keys):
    keys = sorted(keys)
    path.write_bytes(len(keys).to_bytes(8, "little") + b"".join(k.to_bytes(8, "little") for k in keys))
    return str(path)


def test_upstream_and_layer_tests_with_a_learned_default(tmp_path):
    snakemake(TARBALL)
    r = subprocess.run([sys.executable, "engines/leveldb-hooks/upstream_tests.py", "leveldb-learned",
                        "--tarball", TARBALL, "--work", str(tmp_path / "up"),
                        "--format", "index=rmi,position_boundary=16",
                        "--tests", "learned_table_test,table_test"],
                       cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
    assert "learned_table_test: " in r.stdout and "0 regressions" in r.stdout


def test_index_that_cannot_be_built_fails_the_run(tmp_path):
    snakemake(str(BINARY.relative_to(REPO)))
    data = keys_file(tmp_path / "k_uint64", range(0, 3_000_000, 3))
    log = tmp_path / "run.jsonl"
    r = subprocess.run([str(BINARY), "--db", str(tmp_path / "db"), "--dataset", data, "--log", str(log),
                        "--ops", "1000", "--progress", "never", "-o", "index=lipp",
                        "-o", "index_knobs=max_memory_mb:1", "-o", "write_buffer_size=33554432"],
                       capture_output=True, text=True)
    assert r.returncode != 0
    assert "index 'lipp' cannot be built on table" in r.stderr and "max_memory_mb" in r.stderr
    assert not log.exists()


def test_run_log_carries_the_learned_fields(tmp_path):
    snakemake(str(BINARY.relative_to(REPO)))
    data = keys_file(tmp_path / "k_uint64", range(1, 200_000, 7))
    log = tmp_path / "run.jsonl"
    subprocess.run([str(BINARY), "--db", str(tmp_path / "db"), "--dataset", data, "--log", str(log),
                    "--ops", "5000", "--progress", "never", "-o", "index=pgm", "-o", "timers=alternate",
                    "-o", "read_mode=pread", "-o", "read_advice=random",
                    "-o", "write_buffer_size=262144"], check=True, capture_output=True)
    runlog.read(str(log))  # every record valid against log_schema.yaml
    records = [json.loads(x) for x in log.read_text().splitlines()]
    engine = next(r for r in records if r["type"] == "engine")
    lookup = next(r for r in records if r["type"] == "breakdown" and r["scope"] == "lookup")
    assert engine["learned"]["tables_built"] > 0 and engine["index_bytes"] > 0
    assert sum(engine["learned"]["index_bytes_per_table"].values()) == engine["index_bytes"]
    assert engine["read_io"]["mode"] == "pread" and engine["read_io"]["rchar_per_lookup"] > 0
    assert engine["hooks"]["compaction_totals"]["training_seconds"] > 0
    assert lookup["counters"]["comparisons"] > 0 and lookup["per_op"]["index_search"] > 0
    assert lookup["timer_overhead"]["gets_timed_on"] == lookup["timer_overhead"]["gets_timed_off"]


def test_index_memory_covers_every_live_table(tmp_path):
    # More tables (1 MiB each, LevelDB's smallest) than the table cache holds
    # (max_open_files 74 leaves it 64): the evicted ones are measured too.
    snakemake(str(BINARY.relative_to(REPO)))
    data = keys_file(tmp_path / "k_uint64", range(5, 10**12, 10**12 // 80_000))
    log = tmp_path / "run.jsonl"
    subprocess.run([str(BINARY), "--db", str(tmp_path / "db"), "--dataset", data, "--log", str(log),
                    "--ops", "10", "--progress", "never", "--value-bytes", "1200",
                    "--load-order", "sorted", "-o", "index=pgm", "-o", "max_open_files=74",
                    "-o", "max_file_size=1048576", "-o", "write_buffer_size=1048576"],
                   check=True, capture_output=True)
    runlog.read(str(log))
    engine = next(r for r in map(json.loads, log.read_text().splitlines()) if r["type"] == "engine")
    learned = engine["learned"]
    per_table = learned["index_bytes_per_table"]
    assert engine["tables"] == sum(engine["files_per_level"]) > 64
    assert engine["table_bytes"] > 80_000 * 1200
    assert len(per_table) == engine["tables"] and min(per_table.values()) > 0
    assert learned["tables_open"] + learned["tables_measured_closed"] == engine["tables"]
    assert learned["tables_measured_closed"] > 0
    assert sum(per_table.values()) == engine["index_bytes"]


def test_retrain_on_open_trains_the_run_index_and_checks_the_layout(tmp_path):
    """One load (pgm), opened by a run with another index: every live table
    is trained before the lookups (none on first open), answers verified by
    lsmbench's oracle; a run whose layout options differ from the load's
    fails naming the option."""
    snakemake(str(BINARY.relative_to(REPO)))
    data = keys_file(tmp_path / "k_uint64", range(1, 200_000, 7))
    db = tmp_path / "db"
    common = ["--db", str(db), "--dataset", data, "--progress", "never", "-o", "write_buffer_size=262144"]
    subprocess.run([str(BINARY), *common, "--phase", "load", "--log", str(tmp_path / "load.jsonl"),
                    "-o", "index=pgm"], check=True, capture_output=True)
    log = tmp_path / "run.jsonl"
    subprocess.run([str(BINARY), *common, "--phase", "run", "--keep-db", "--ops", "5000", "--log", str(log),
                    "-o", "index=rmi", "-o", "position_boundary=8", "-o", "retrain=true"],
                   check=True, capture_output=True)
    runlog.read(str(log))
    records = [json.loads(x) for x in log.read_text().splitlines()]
    engine = next(r for r in records if r["type"] == "engine")
    retrain = engine["learned"]["retrain"]
    loaded = next(json.loads(x) for x in (tmp_path / "load.jsonl").read_text().splitlines()
                  if json.loads(x)["type"] == "engine")
    assert retrain["tables"] == loaded["learned"]["tables_open"] > 0
    assert retrain["on_first_open"] == 0 and retrain["keys"] == 200_000 // 7 + 1
    assert retrain["training_seconds"] > 0 and retrain["model_bytes"] > 0
    r = subprocess.run([str(BINARY), *common, "--phase", "run", "--ops", "100", "--log", str(tmp_path / "bad.jsonl"),
                        "-o", "index=rmi", "-o", "keep_keys=true", "-o", "retrain=true"],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "loaded with keep_keys=false" in r.stderr and "asks keep_keys=true" in r.stderr


def test_level_models_are_trained_on_open(tmp_path):
    """granularity=level over a loaded database: the level models are
    trained when the run opens it, so the run's lookups use them and the log
    shows their memory (not 0 because training was still under way)."""
    snakemake(str(BINARY.relative_to(REPO)))
    data = keys_file(tmp_path / "k_uint64", range(1, 400_000, 3))
    db = tmp_path / "db"
    common = ["--db", str(db), "--dataset", data, "--progress", "never", "-o", "write_buffer_size=262144",
              "-o", "max_file_size=262144"]
    subprocess.run([str(BINARY), *common, "--phase", "load", "--log", str(tmp_path / "load.jsonl")],
                   check=True, capture_output=True)
    log = tmp_path / "run.jsonl"
    subprocess.run([str(BINARY), *common, "--phase", "run", "--ops", "2000", "--log", str(log),
                    "-o", "granularity=level", "-o", "retrain=true", "-o", "index=rs"],
                   check=True, capture_output=True)
    engine = next(json.loads(x) for x in log.read_text().splitlines() if json.loads(x)["type"] == "engine")
    levels = engine["learned"]["level_models"]
    assert levels["models_built"] >= 1 and engine["index_bytes_level_models"] > 0
    assert levels["lookups_by_model"] > 0 and levels["last_error"] == ""

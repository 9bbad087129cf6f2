"""The DobLIX table plugin on the real RocksDB build: its string index's
unit test, round trips, filters and corruption through RocksDB's API, and a
short bounded db_stress run per
table configuration (the long one: engines/rocksdb-doblix/stress.sh)."""
import json
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent  # the repository root


pytestmark = pytest.mark.e2e

DOBLIX = REPO / "engines" / "rocksdb-doblix"


def test_table_round_trip_and_corruption(built):
    built("rocksdb", "rocksdb-doblix")
    r = subprocess.run([str(DOBLIX / "run_tests.sh"), "11"], cwd=REPO, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
    assert "doblix_block_test: all passed" in r.stdout
    assert "doblix_string_index_test: 100 configurations passed" in r.stdout
    assert "doblix_table_test: all passed" in r.stdout
    assert r.stdout.count("sweep id=DoblixTable") == 4 and "doblix_sweep_test: all passed" in r.stdout


def test_db_stress_bounded(built):
    built("rocksdb")
    r = subprocess.run([str(DOBLIX / "stress.sh"), "--ops", "3000"],
                       cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
    assert r.stdout.count("ok: db_stress") == 7


def test_lsmbench_selects_the_table_by_option(built, tmp_path):
    """rocksdb-doblix opens DobLIX tables by default, rocksdb the block-based
    ones; -o table= switches either."""
    built("rocksdb", "rocksdb-doblix")
    for engine, default in (("rocksdb", "block"), ("rocksdb-doblix", "doblix")):
        out = subprocess.run([str(REPO / "build/engines" / engine / "bin/lsmbench"),
                              "--list-options"], capture_output=True, text=True, check=True)
        line = next(x for x in (out.stdout + out.stderr).splitlines() if x.startswith("table "))
        assert line.split()[2] == default, line


def _keys_file(tmp_path, n=20000):
    """A SOSD key file of n spread-out keys."""
    keys = tmp_path / "keys_uint64"
    with open(keys, "wb") as f:
        f.write(n.to_bytes(8, "little"))
        for k in range(n):
            f.write((k * 7919 + 3).to_bytes(8, "little"))
    return keys


@pytest.mark.parametrize("table", ["bourbon-style", "doblix"])
def test_plugin_readers_time_their_search_steps(built, tmp_path, table):
    """Fig. 11 draws S-block and S-KV for every plugin table from the
    reader's own laps (issue 31: Bourbon-style's were 0): point lookups on
    flushed tables must report both steps, over as many model lookups as
    tables probed."""
    built("rocksdb-doblix")
    keys = _keys_file(tmp_path)
    log = tmp_path / "run.jsonl"
    subprocess.run([str(REPO / "build/engines/rocksdb-doblix/bin/lsmbench"), "--db", str(tmp_path / "db"),
                    "--dataset", str(keys), "--log", str(log), "--ops", "2000", "--progress", "never",
                    "-o", f"table={table}", "-o", "perf_steps=true", "-o", "write_buffer_size=65536",
                    "-o", "target_file_size_base=65536", "-o", "doblix.error=8"],
                   cwd=REPO, check=True, capture_output=True, text=True)
    eng = next(r for r in map(json.loads, log.read_text().splitlines()) if r["type"] == "engine")
    steps = eng["steps"]
    assert eng["table_factory"] == "DoblixTable"
    assert steps["model_lookups"] >= 2000, steps
    assert steps["s_block_ns"] > 0 and steps["s_kv_ns"] > 0, steps
    # DobLIX loads one block a lookup; Bourbon-style every block its ±8
    # window spans (Fig. 2a), two for a good share of lookups here.
    per_lookup = steps["blocks_loaded"] / steps["model_lookups"]
    assert (per_lookup > 1.1) if table == "bourbon-style" else (per_lookup == 1), steps


def test_interleaved_runs_count_their_own_steps(built, tmp_path):
    """lsmbench --interleave on a DobLIX and a block-based database: each
    member's counts (PerfContext's block reads, DobLIX's model lookups and
    misses) are those of the same run alone, not the two's sums, so the
    adapter's Pause and Resume keep the thread's counters apart."""
    built("rocksdb-doblix")
    lsmbench = str(REPO / "build/engines/rocksdb-doblix/bin/lsmbench")
    keys = _keys_file(tmp_path)
    common = ["--dataset", str(keys), "--progress", "never", "--seed", "5", "-o", "perf_steps=true",
              "-o", "block_cache_bytes=0", "-o", "write_buffer_size=65536", "-o", "target_file_size_base=65536"]
    tables = ["doblix", "block"]

    def own(table):  # a DobLIX knob goes with a DobLIX table only
        return [f"table={table}"] + (["doblix.error=8"] if table != "block" else [])

    for table in tables:
        subprocess.run([lsmbench, "--phase", "load", "--db", str(tmp_path / f"load-{table}"),
                        *[x for o in own(table) for x in ("-o", o)], "--log", str(tmp_path / f"load-{table}.jsonl"), *common], check=True, capture_output=True,
                       text=True)
    run = [*common, "--phase", "run", "--ops", "3000"]

    def copy(table, name):
        subprocess.run(["cp", "-a", str(tmp_path / f"load-{table}"), str(tmp_path / name)], check=True)
        return str(tmp_path / name)

    def steps(log):
        eng = next(r for r in map(json.loads, Path(log).read_text().splitlines()) if r["type"] == "engine")
        s = eng["steps"]
        return {k: s.get(k) for k in ("block_read_count", "block_read_bytes", "index_block_read_count",
                                      "model_lookups", "blocks_loaded")} | {"model_misses": (eng["doblix"] or {}).get("model_misses")}

    alone = {}
    for table in tables:
        log = tmp_path / f"alone-{table}.jsonl"
        subprocess.run([lsmbench, "--db", copy(table, f"alone-{table}"), "--log", str(log),
                        *[x for o in own(table) for x in ("-o", o)], *run], check=True, capture_output=True, text=True)
        alone[table] = steps(log)
    spec = {"members": [{"db": copy(t, f"turns-{t}"), "log": str(tmp_path / f"turns-{t}.jsonl"),
                         "options": own(t)} for t in tables]}
    (tmp_path / "members.json").write_text(json.dumps(spec))
    subprocess.run([lsmbench, "--interleave", str(tmp_path / "members.json"), "--interleave-batch", "10", *run],
                   check=True, capture_output=True, text=True)
    assert alone["doblix"]["model_lookups"] >= 3000 and alone["block"]["block_read_count"] > 0, alone
    for t in tables:
        assert steps(tmp_path / f"turns-{t}.jsonl") == alone[t], t
    # Updates that outgrow the 64 KiB memtable flush: taking turns, the run fails.
    for t in tables:
        spec["members"][tables.index(t)]["db"] = copy(t, f"writes-{t}")
    (tmp_path / "members.json").write_text(json.dumps(spec))
    r = subprocess.run([lsmbench, "--interleave", str(tmp_path / "members.json"), *run, "--workload", "ycsb",
                        "--spec", str(REPO / "workloads/ycsb/workloada")], capture_output=True, text=True)
    assert r.returncode != 0 and "flushes or compactions began during an interleaved run" in r.stderr, r.stderr

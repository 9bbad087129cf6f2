"""The DobLIX table plugin on the real RocksDB build: its string index's
unit test, round trips, filters and corruption through RocksDB's API, and a
short bounded db_stress run per
table configuration (the long one: engines/rocksdb-doblix/stress.sh)."""
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

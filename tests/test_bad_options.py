"""Options that mean nothing are refused before anything is written (issue
54, item 4): one line naming the option and what it allows, exit 2, no
log and no database; and a key set whose only absent keys lie below it
still gets its negative lookups."""
import json
import subprocess

import numpy as np
import pytest

from engines import registry

REPO = registry.REPO

pytestmark = pytest.mark.e2e


def _keys(path, keys):
    keys = np.asarray(keys, dtype=np.uint64)
    path.write_bytes(np.uint64(len(keys)).tobytes() + keys.tobytes())
    return path


def _lsmbench(engine, tmp_path, *args, keys=(1, 5, 9)):
    data = _keys(tmp_path / "keys_uint64", keys)
    cmd = [REPO / f"build/engines/{engine}/bin/lsmbench", "--db", tmp_path / "db",
           "--log", tmp_path / "run.jsonl", "--dataset", data, "--ops", "100", "--progress", "never",
           *args]
    return subprocess.run(list(map(str, cmd)), capture_output=True, text=True)


def _refused(r, tmp_path, *words):
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    for w in words:
        assert w in lines[0], lines[0]
    assert not (tmp_path / "run.jsonl").exists() and not (tmp_path / "db").exists()


@pytest.mark.parametrize("engine, options, words", [
    ("rocksdb", ["table=doblix", "doblix.agent_period=0"], ["'doblix.agent_period'", "in [1, ", "got '0'"]),
    ("rocksdb-doblix", ["doblix.error=0"], ["'doblix.error'", "in [1, ", "got '0'"]),
    ("rocksdb-doblix", ["table=block", "doblix.model=pra"], ["'doblix.model'", "table=doblix", "table is block"]),
    ("rocksdb-doblix", ["table=bourbon-style", "doblix.model=pra"], ["'doblix.model'", "table=doblix"]),
    ("rocksdb-doblix", ["doblix.agent_period=5"], ["'doblix.agent_period'", "doblix.model=agent"]),
    ("rocksdb-doblix", ["doblix.nu=2", "doblix.model=agent"], ["'doblix.nu'", "in [0, 1]"]),
])
def test_doblix_knob_that_means_nothing(built, tmp_path, engine, options, words):
    built(engine)
    r = _lsmbench(engine, tmp_path, *[x for o in options for x in ("-o", o)])
    _refused(r, tmp_path, *words)


def test_doblix_knobs_that_mean_something_still_run(built, tmp_path):
    built("rocksdb-doblix")
    r = _lsmbench("rocksdb-doblix", tmp_path, "-o", "doblix.model=agent", "-o", "doblix.agent_period=1",
                  "-o", "doblix.error=8")
    assert r.returncode == 0, r.stderr


def test_negative_share_out_of_range(built, tmp_path):
    built("leveldb")
    r = _lsmbench("leveldb", tmp_path, "--negative-share", "2")
    _refused(r, tmp_path, "--negative-share", "not in range 0")


def test_only_key_at_the_top_gets_negatives_below_it(built, tmp_path):
    built("leveldb")
    r = _lsmbench("leveldb", tmp_path, "--negative-share", "0.5", keys=[2**64 - 1])
    assert r.returncode == 0, r.stderr
    counts = {(x["subset"]): x["count"] for x in map(json.loads, (tmp_path / "run.jsonl").open())
              if x["type"] == "latency"}
    assert counts == {"all": 100, "found": 50, "absent": 50}


def test_mistyped_figure(tmp_path):
    r = subprocess.run([REPO / "reproduce", "lsm-eval/fig99"], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert lines == [lines[0]] and "lsm-eval has no fig99" in lines[0] and "fig7" in lines[0], r.stderr
    assert "--list" in lines[0]

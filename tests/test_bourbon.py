"""bourbon answers exactly like pristine leveldb in every learning mode and
granularity (the `bourbon-dups` differential group: long duplicate runs,
overwrites, deletes, absent keys, scans), and its model paths really served
lookups in those runs. The full matrix is documented in engines/bourbon/README.md."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engines import difftest

REPO = Path(__file__).resolve().parent.parent  # the repository root

pytestmark = pytest.mark.e2e


def engine_record(log):
    return next(json.loads(x) for x in log.read_text().splitlines() if '"type": "engine"' in x
                or '"type":"engine"' in x)


def test_bourbon_group_agrees_and_uses_its_models(built, tmp_path):
    built("leveldb", "bourbon")
    r = subprocess.run([sys.executable, "-m", "engines.difftest", "--suite", str(difftest.SUITE),
                        "--group", "bourbon-dups", "--work", str(tmp_path)],
                       cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "identical answers" in r.stdout
    logs = sorted(tmp_path.rglob("run*.jsonl"))
    shares = {}
    for log in logs:
        rec = engine_record(log)
        if "bourbon" not in rec:
            continue
        run = json.loads(log.read_text().splitlines()[0])
        label = f"{run['options']['learning']}/{run['options']['granularity']}"
        by_path = rec["bourbon"]["internal_lookups_by_path"]
        shares[label] = (by_path["file_model"] + by_path["level_model"]) / max(1, sum(by_path.values()))
        assert rec["bourbon"]["files_unlearnable"] == 0
    assert set(shares) == {"offline/file", "always/file", "cba/file", "always/level"}
    assert all(s > 0.1 for s in shares.values()), shares


@pytest.mark.parametrize("granularity,path", [("file", "file_model"), ("level", "level_model")])
def test_offline_learns_when_a_run_opens_a_loaded_database(built, tmp_path, granularity, path):
    """The pipeline loads once (--phase load) and runs on a copy (--phase
    run), which never settles: learning=offline must still learn the tables
    the copy holds before the run, or every lookup takes WiscKey's path."""
    built("bourbon")
    keys = tmp_path / "keys_uint64"
    n = 50_000
    keys.write_bytes(n.to_bytes(8, "little") + b"".join((7 * i + 3).to_bytes(8, "little") for i in range(n)))
    binary = REPO / "build" / "engines" / "bourbon" / "bin" / "lsmbench"
    common = ["--dataset", str(keys), "--db", str(tmp_path / "db"), "--load-order", "shuffled",
              "--key-encoding", "be64_pad16", "--value-bytes", "64", "--workload", "point", "--ops", "20000",
              "--seed", "1", "--progress", "never", "-o", "bloom_bits=10", "-o", "write_buffer_size=262144",
              "-o", "max_file_size=131072"]
    for phase, extra in (("load", []), ("run", ["-o", "learning=offline", "-o", f"granularity={granularity}"])):
        r = subprocess.run([str(binary), *common, "--phase", phase, *extra, "--log", str(tmp_path / f"{phase}.jsonl")],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    rec = engine_record(tmp_path / "run.jsonl")["bourbon"]
    by_path = rec["internal_lookups_by_path"]
    # level models serve L1 and below only (L0's tables overlap)
    assert by_path[path] > 0.1 * sum(by_path.values()), by_path

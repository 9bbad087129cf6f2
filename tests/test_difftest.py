"""The differential harness on real engines: the sample groups of
engines/difftest.yaml must agree, and a disagreement must fail."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engines import difftest
from base.errors import InputError

REPO = Path(__file__).resolve().parent.parent  # the repository root

pytestmark = pytest.mark.e2e




def sample_engines():
    suite = difftest.load_suite(difftest.SUITE)
    return sorted({run.split(":")[0] for g in suite.values() if g.get("sample") for run in g["runs"]})


def test_sample_groups_agree(built, tmp_path):
    built(*sample_engines())
    r = subprocess.run([sys.executable, "-m", "engines.difftest", "--suite", str(difftest.SUITE),
                        "--sample", "--work", str(tmp_path)], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "identical answers" in r.stdout


def test_different_streams_are_told_apart(built, tmp_path, monkeypatch):
    """Two runs whose answers differ (different seeds, so different streams)
    must fail the comparison: the digest is not blind."""
    built("leveldb")
    dataset = difftest.write_synthetic("dups", 3000, 1, tmp_path / "k_uint64")
    monkeypatch.chdir(REPO)
    args = type("A", (), dict(dataset=dataset, key_encoding="be64", value_bytes=16,
                              load_order="sorted", ops=3000, seed=1, common=[],
                              build_dir="build"))()
    assert difftest.compare([("leveldb", []), ("leveldb", ["block_size=1024"])], args, tmp_path / "a")
    logs = sorted((tmp_path / "a").glob("run*.jsonl"))
    checks = [next(json.loads(x) for x in p.read_text().splitlines() if '"check"' in x) for p in logs]
    assert checks[0]["answers_digest"] == checks[1]["answers_digest"]
    assert checks[0]["wrong"] == 0 and checks[0]["answers_digested"] > 1000
    args.seed = 2
    other = difftest.run_one(REPO / "build/engines/leveldb/bin/lsmbench", [], args,
                             tmp_path / "b.jsonl", tmp_path / "bdb")[0]
    assert other["answers_digest"] != checks[0]["answers_digest"]

    # One run answering differently fails the comparison.
    real = difftest.run_one
    calls = []

    def second_differs(binary, options, a, log, db):
        check, err = real(binary, options, a, log, db)
        calls.append(1)
        if len(calls) == 2:
            check["answers_digest"] = other["answers_digest"]
        return check, err

    monkeypatch.setattr(difftest, "run_one", second_differs)
    args.seed = 1
    assert not difftest.compare([("leveldb", []), ("leveldb", [])], args, tmp_path / "c")


def test_bad_suite_is_one_clear_error(tmp_path):
    bad = tmp_path / "suite.yaml"
    bad.write_text("g:\n  synthetic: dups\n  runs: [leveldb]\n")
    with pytest.raises(InputError, match=r"g\.runs: a list of at least two runs expected"):
        difftest.load_suite(bad)
    bad.write_text("g:\n  synthetic: nope\n  runs: [leveldb, rocksdb]\n")
    with pytest.raises(InputError, match="one of dups, dense, edges, one"):
        difftest.write_synthetic("nope", 10, 1, tmp_path / "x")


def test_each_table_index_expands_the_registry_but_its_exceptions():
    from indexes import registry as index_registry
    ids = index_registry.table_ids()
    runs = difftest.expand_runs([{"each_table_index": "e:index={index}", "except": ["fp"]}], "s.yaml", "g")
    assert runs == [f"e:index={i}" for i in ids if i != "fp"] and len(runs) == len(ids) - 1
    with pytest.raises(InputError) as e:
        difftest.expand_runs([{"each_table_index": "e:index={index}", "except": ["nope"]}], "s.yaml", "g")
    assert "g.runs[0]" in str(e.value) and "except" in str(e.value)

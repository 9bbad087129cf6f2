"""Fixtures of the Python tests (pytest finds them here; never imported by
name): the repository root, sample run logs shaped like lsmbench's, the
scratch folders (tests/scratch.py) and the order the slow modules start in."""
import json
import shutil
import sys
from pathlib import Path

import pytest

from tests import checkout_snakemake, scratch

REPO = Path(__file__).resolve().parent.parent


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """Every tmp_path in RAM unless --basetemp is given (an xdist worker is
    given its controller's); removed at the end of a session that passed."""
    if config.option.basetemp or hasattr(config, "workerinput"):
        return
    folder, why = scratch.ram_folder()
    config._scratch_why = why
    if folder is not None:
        config.option.basetemp = str(scratch.new_folder(folder, "lsmrepro-tests-"))
        config._scratch_made = Path(config.option.basetemp)


def pytest_report_header(config):
    where = getattr(config, "_scratch_made", None)
    if hasattr(config, "_scratch_why"):
        return f"scratch: {where or 'the disk (default basetemp)'} ({config._scratch_why})"


def pytest_sessionfinish(session, exitstatus):
    made = getattr(session.config, "_scratch_made", None)
    if made is None:
        return
    if exitstatus == 0:
        shutil.rmtree(made, ignore_errors=True)
    else:
        print(f"\nscratch kept for a look (RAM; remove it after): {made}", file=sys.stderr)


@pytest.fixture
def disk_tmp_path():
    with scratch.on_disk() as folder:
        yield folder


# The slow modules first, in this order, so that under pytest-xdist
# (scripts/test.sh) they start at once on the two workers and the short ones
# fill in after: xdist hands each worker its first two files in collection
# order (smoke and difftest to one, resume and the Slurm test to the other).
SLOW_FIRST = ("tests/test_pipeline_smoke.py", "tests/test_resume.py", "tests/test_difftest.py",
              "tests/test_slurm.py", "tests/test_bourbon.py")


def _slow_rank(item):
    path = item.nodeid.split("::")[0]
    return SLOW_FIRST.index(path) if path in SLOW_FIRST else len(SLOW_FIRST)


# Longer checks (marker `long`) run with `./run-tests --long` or `pytest
# --long` (README, "Longer checks"); ./run-tests reports them skipped with
# that command.
def pytest_addoption(parser):
    parser.addoption("--long", action="store_true", help="also run the longer checks (marker long)")


def pytest_collection_modifyitems(config, items):
    items.sort(key=_slow_rank)  # stable: the rest keep their order
    if config.getoption("--long"):
        return
    skip = pytest.mark.skip(reason="a longer check: ./run-tests --long, or .venv/bin/python -m pytest --long -m long (README)")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)


def _records(engine="leveldb", rep=0, harness=10.0, engine_ns=1000.0, wrong=0, build_engine=None,
             factors=None, experiment="point"):
    """`factors`: the run's grid point as the manifest gives it (its id is made from them)."""
    meta = {"study": "baseline", "experiment": experiment, "scale": "smoke", "dataset": "uniform",
            "repetition": str(rep)}
    factors = factors or {}
    if factors:
        meta["point"] = "+".join(f"{k}={v}" for k, v in factors.items())
    manifest = {"study": "baseline", "experiment": experiment, "point": meta.get("point", ""), "repetition": rep,
                "engine": engine, "dataset": "uniform", "factors": factors, "options": {}}
    return [
        {"type": "run", "schema_version": 1, "engine": engine,
         "build_id": {"id": "b1", "engine": build_engine or engine},
         "options": {}, "dataset": {"path": "d_uint64", "count": 10, "duplicates": 0, "distinct": 10,
                                    "manifest": None},
         "workload": {"kind": "point"}, "seed": 7, "meta": meta,
         "attached": {"fingerprint": {"id": "fp1"}, "manifest": manifest}},
        {"type": "phase", "phase": "load", "ops": 10, "seconds": 0.5, "ops_per_sec": 20.0},
        {"type": "phase", "phase": "settle", "ops": 0, "seconds": 0.1, "ops_per_sec": 0.0},
        {"type": "phase", "phase": "run", "ops": 100, "seconds": 0.01, "ops_per_sec": 10000.0},
        {"type": "latency", "op": "get", "subset": "all", "unit": "ns", "count": 100, "mean": 1234.5,
         "min": 900, "p50": 1200, "p90": 1500, "p99": 2000, "p999": 2500, "max": 3000,
         "buckets": [[896, 927, 1], [1184, 1215, 99]]},
        {"type": "breakdown", "scope": "driver", "ops": 100, "unit": "ns",
         "steps": {"engine_call": engine_ns * 100, "harness": harness * 100},
         "per_op": {"engine_call": engine_ns, "harness": harness}},
        {"type": "engine", "index_bytes": 4096, "files_per_level": [0, 1], "compaction_seconds": 0.0,
         "blocks_read": None},
        {"type": "check", "verified": 100, "wrong": wrong, "examples": []},
        {"type": "end", "status": "ok"},
    ]


def _write(path, records, newline_at_end=True):
    text = "\n".join(json.dumps(r) for r in records) + ("\n" if newline_at_end else "")
    Path(path).write_text(text)
    return path


@pytest.fixture
def repo():
    return REPO


@pytest.fixture
def sample_records():
    """records(**kw): a valid lsmbench log's records."""
    return _records


@pytest.fixture
def write_log():
    """write(path, records, newline_at_end=True): a JSON-lines log file."""
    return _write


@pytest.fixture
def make_log(tmp_path):
    def make(name="leveldb__uniform__r0.jsonl", **kw):
        return str(_write(tmp_path / name, _records(**kw)))
    return make


def _build(*engines, _done=set()):
    """Builds the engines through the workflow, once per test session: each
    Snakemake start reads every study (~10 s), and a dozen tests ask for the
    same engines."""
    targets = [f"build/engines/{e}/bin/lsmbench" for e in engines if e not in _done]
    if not targets:
        return
    r = checkout_snakemake.build(*targets)
    assert r.returncode == 0, r.stderr[-3000:]
    _done.update(engines)


@pytest.fixture
def built():
    """built(*engines): the engines' lsmbench binaries, built if needed."""
    return _build

"""engines/leveldb-hooks on a real build (leveldb-learned, its smallest
user): settle=wait leaves nothing for LevelDB to do, a read-only run
compacts only because of LevelDB's seek trigger and not at all with
-o seek_compaction=false, and every compaction says what started it."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from lsmrepro.tidy import runlog
from tests import checkout_snakemake

REPO = Path(__file__).resolve().parent.parent  # the repository root
BINARY = REPO / "build/engines/leveldb-learned/bin/lsmbench"

pytestmark = pytest.mark.e2e


def engine_record(log):
    runlog.read(str(log))  # every record valid against log_schema.yaml
    return next(r for r in map(json.loads, log.read_text().splitlines()) if r["type"] == "engine")


@pytest.fixture(scope="module")
def settled_load(tmp_path_factory):
    """30,000 keys with 1,000-byte values in 1 MiB tables (LevelDB's
    smallest), so level 1 is full and most keys are in level 2: a get for
    them probes a level-1 table first and charges its allowed_seeks (100)."""
    r = checkout_snakemake.build(BINARY.relative_to(REPO))
    assert r.returncode == 0, r.stderr[-3000:]
    d = tmp_path_factory.mktemp("seek")
    keys = list(range(1, 90_000, 3))
    data = d / "k_uint64"
    data.write_bytes(len(keys).to_bytes(8, "little") + b"".join(k.to_bytes(8, "little") for k in keys))
    common = ["--dataset", str(data), "--progress", "never", "--value-bytes", "1000", "--seed", "3",
              "-o", "write_buffer_size=1048576", "-o", "max_file_size=1048576", "-o", "index=fp"]
    subprocess.run([str(BINARY), *common, "--db", str(d / "db"), "--phase", "load", "--settle", "wait",
                    "--log", str(d / "load.jsonl")], check=True, capture_output=True)
    return d, common


def test_settle_wait_leaves_no_compaction_pending(settled_load):
    d, _ = settled_load
    engine = engine_record(d / "load.jsonl")
    assert engine["compaction_pending"] == "none"
    assert engine["files_per_level"][0] < 4  # LevelDB's level-0 trigger
    totals = engine["hooks"]["compaction_totals"]
    assert totals["flush_count"] > 0 and totals["size_count"] > 0 and totals["seek_count"] == 0
    assert totals["count"] == sum(totals[f"{t}_count"] for t in ("flush", "size", "seek", "manual"))


@pytest.mark.parametrize("seek", ["true", "false"])
def test_read_only_run_compacts_only_by_seeks(settled_load, tmp_path, seek):
    d, common = settled_load
    shutil.copytree(d / "db", tmp_path / "db")
    log = tmp_path / "run.jsonl"
    subprocess.run([str(BINARY), *common, "--db", str(tmp_path / "db"), "--phase", "run",
                    "--workload", "point", "--negative-share", "0", "--ops", "20000", "--log", str(log),
                    "-o", f"seek_compaction={seek}"], check=True, capture_output=True)
    engine = engine_record(log)
    compactions = engine["hooks"]["compactions"]
    pending = engine["compaction_pending"]
    if seek == "false":
        assert compactions == [] and pending == "none"
    else:
        # The gets start a seek compaction: finished by the time the record
        # is written, or still running (the property names it). Seek
        # compactions may push a level over its size budget, so size
        # compactions may follow; never a flush (no writes).
        assert engine["hooks"]["compaction_totals"]["seek_count"] >= 1 or \
            pending.startswith("seek compaction"), pending
        assert {c["trigger"] for c in compactions} <= {"seek", "size"}
        if compactions:
            assert compactions[0]["trigger"] == "seek"
            starts = [c["start_seconds"] for c in compactions]
            assert starts == sorted(starts) and starts[0] > 0

"""The interleaved job's wrapper (lsmrepro/run/bench_group.py): its members'
list is checked, a run's log is copied from the job's folder, and members
whose loads failed are marked without starting lsmbench. The interleaved
runs themselves run in the smoke pipeline (slr, lsm-eval fig8), their
answers verified, and in engines/driver/tests/runner_test.cc."""
import json
import os
import sys
from pathlib import Path

import pytest

from base.errors import InputError
from lsmrepro.run import bench
from lsmrepro.run import bench_group


def _member(tmp_path, point, load_failed=None):
    src = tmp_path / "loads" / point
    src.mkdir(parents=True)
    if load_failed:
        (src / bench.FAILED_MARK).write_text(json.dumps({"reason": load_failed, "exit_status": 9}))
    return {"point": point, "from": str(src), "load_log": f"{src}.jsonl",
            "manifest": {"point": point, "factors": {"index": point}}, "options": [f"index={point}"],
            "meta": [f"point={point}"]}


@pytest.mark.parametrize("text, field, expected", [
    ("not json", "--members", "a JSON list of runs expected"),
    ('[{"point": "a"}]', "--members", "two or more runs"),
    ('[{"point": "a"}, {"point": "b"}]', "[0]", "an object with exactly point, from, load_log"),
])
def test_a_bad_members_list_is_one_error_naming_the_field(text, field, expected):
    with pytest.raises(InputError) as e:
        bench_group.read_members(text)
    assert field in str(e.value) and expected in str(e.value)


def test_a_run_copies_its_log_from_the_job_folder_and_names_a_missing_one(tmp_path):
    job = tmp_path / "job"
    job.mkdir()
    (job / "p1.jsonl").write_text('{"type": "run"}\n')
    (job / "p1.limits.json").write_text("{}\n")
    args = type("A", (), {"source": str(job), "point": "p1", "log": str(tmp_path / "raw" / "r0.jsonl"),
                          "limits": str(tmp_path / "raw" / "r0.limits.json")})
    assert bench_group.member(args) == 0
    assert (tmp_path / "raw" / "r0.jsonl").read_text() == '{"type": "run"}\n'
    args.point = "p2"
    with pytest.raises(InputError) as e:
        bench_group.member(args)
    assert "p2.jsonl" in str(e.value) and "incomplete" in str(e.value)


def test_members_whose_loads_failed_are_marked_and_nothing_runs(tmp_path):
    members = [_member(tmp_path, "a", "killed by the memory limit"), _member(tmp_path, "b", "engine error")]
    out = tmp_path / "out"
    # it lists its options and runs nothing: a started run would leave no failed records
    fake = tmp_path / "lsmbench"
    fake.write_text("#!/bin/sh\n[ \"$1\" = --list-options ] && echo 'index default pgm learned index'\n")
    fake.chmod(0o755)
    with pytest.raises(SystemExit) as e:
        bench_group.main(["run", "--out", str(out), "--members", json.dumps(members), "--db", str(tmp_path / "work"),
                          "--memory", "none", "--", str(fake), "--meta", "scale=smoke"])
    assert e.value.code == 0
    for m, reason in zip(members, ["killed by the memory limit", "engine error"]):
        record = bench.read_failure(out / f"{m['point']}.jsonl")
        assert record["reason"] == f"its load failed: {reason}" and record["manifest"] == m["manifest"]
        assert json.loads((out / f"{m['point']}.limits.json").read_text())["enforced"] is False


def _table_inodes_seen_by_lsmbench(tmp_path, members, pages=()):
    """Runs the job with a stand-in lsmbench that records, per member
    database it is given, the inode of its table; returns them in order."""
    seen = tmp_path / "seen.json"
    fake = tmp_path / "lsmbench"
    fake.write_text(f"""#!{sys.executable}
import json, os, sys
if sys.argv[1:2] == ["--list-options"]:
    print("index default pgm learned index"); sys.exit(0)
spec = json.load(open(sys.argv[sys.argv.index("--interleave") + 1]))
json.dump([os.stat(os.path.join(m["db"], "000005.ldb")).st_ino for m in spec["members"]], open({str(seen)!r}, "w"))
""")
    fake.chmod(0o755)
    for m in members:
        table = Path(m["from"], "000005.ldb")
        if not table.exists():
            table.write_text("table")
            Path(m["from"], "CURRENT").write_text("MANIFEST-000002\n")
            Path(m["from"], bench.LOADED_MARK).write_text(json.dumps({"files": bench.db_files(m["from"])}))
    with pytest.raises(SystemExit) as e:
        bench_group.main(["run", "--out", str(tmp_path / "out"), "--members", json.dumps(members),
                          "--db", str(tmp_path / "work"), "--memory", "none", "--allow-unenforced", *pages, "--",
                          str(fake), "--meta", "scale=smoke"])
    assert e.value.code == 0
    return json.loads(seen.read_text())


def test_members_of_one_load_share_its_pages_and_of_two_loads_have_their_own(tmp_path):
    pgm = _member(tmp_path, "pgm")
    rmi = {**_member(tmp_path, "rmi"), "from": pgm["from"]}
    fp = _member(tmp_path, "fp")
    inodes = _table_inodes_seen_by_lsmbench(tmp_path, [pgm, rmi])
    load_inode = os.stat(Path(pgm["from"], "000005.ldb")).st_ino
    assert inodes == [load_inode, load_inode]  # linked: one load, one set of pages
    inodes = _table_inodes_seen_by_lsmbench(tmp_path, [pgm, rmi, fp])
    # FP's own load beside it: the shared load's second member reads a copy, the others their links
    fp_inode = os.stat(Path(fp["from"], "000005.ldb")).st_ino
    assert inodes[0] == load_inode and inodes[1] not in (load_inode, fp_inode) and inodes[2] == fp_inode
    inodes = _table_inodes_seen_by_lsmbench(tmp_path, [pgm, rmi, fp], pages=("--pages", "shared"))
    assert inodes[:2] == [load_inode, load_inode]  # forced, to measure what sharing costs

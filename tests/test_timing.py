"""lsmrepro.publish.timing: a job's wall split into what ran outside the cgroup
runner, the runner's start, lsmbench's open, its measured phases and the
rest, from the run's own files."""
import json

import pytest

from lsmrepro.publish import timing


def _job(base, rel, job_s, runner_s, driver):
    (base / "benchmarks" / f"{rel}.tsv").parent.mkdir(parents=True, exist_ok=True)
    (base / "benchmarks" / f"{rel}.tsv").write_text(f"s\th:m:s\n{job_s}\t0:00:01\n")
    raw = base / "raw" / rel
    raw.parent.mkdir(parents=True, exist_ok=True)
    raw.with_suffix(".limits.json").write_text(json.dumps({"wall_seconds": runner_s}))
    raw.with_suffix(".jsonl").write_text(json.dumps({"type": "run"}) + "\n"
                                         + json.dumps({"type": "end", "driver_seconds": driver}) + "\n")


def test_a_job_splits_into_its_parts_and_the_sums_add_up(tmp_path):
    base = tmp_path / "local"
    _job(base, "baseline/point/engine=leveldb+dataset=uniform+workload=lookups/r0", 10.0, 8.0,
         {"open": 1.0, "phases": 5.0, "total": 7.5})
    _job(base, "loads/engine=leveldb+dataset=unif+seed=1000", 30.0, 29.0, {"phases": 28.0, "total": 28.5})
    # a job stopped before its runner reported: no row
    (base / "benchmarks" / "baseline" / "point" / "x").mkdir(parents=True)
    (base / "benchmarks" / "baseline" / "point" / "x" / "r0.tsv").write_text("s\n3\n")
    table = timing.jobs(base).set_index("kind")
    run = table.loc["run"]
    assert run["study"] == "baseline" and run["figure"] == "point"
    assert (run["outside_runner_s"], run["runner_start_s"], run["open_s"], run["phases_s"], run["other_lsmbench_s"]) \
        == pytest.approx((2.0, 0.5, 1.0, 5.0, 1.5))
    assert table.loc["load", "study"] == "shared" and table.loc["load", "phases_s"] == 28.0
    s = timing.summary(timing.jobs(base)).set_index("study").loc["all"]
    assert s["jobs"] == 2 and s["job_s"] == 40.0
    assert sum(s[timing._share(p)] for p in timing.PARTS) == pytest.approx(1.0)


def test_the_cli_prints_the_shares_and_writes_the_rows(tmp_path, capsys):
    base = tmp_path / "local"
    _job(base, "baseline/point/p/r0", 4.0, 3.0, {"open": 0.5, "phases": 2.0, "total": 2.5})
    timing.main([str(base), "--csv", str(tmp_path / "t.csv")])
    out = capsys.readouterr().out
    assert "phases_share" in out and "baseline" in out
    assert (tmp_path / "t.csv").read_text().count("\n") == 2
    with pytest.raises(SystemExit):
        timing.main([str(tmp_path / "nothing")])


def test_an_interleaved_job_is_one_row_and_its_runs_none(tmp_path):
    """rule bench_group: one job, its members' logs and limits reports in
    its folder; each run's own job only copied them (no row of its own)."""
    base = tmp_path / "local"
    group = base / "raw" / "slr" / "fig8" / "interleaved" / "engine=leveldb-learned+dataset=OSM" / "r0"
    group.mkdir(parents=True)
    tsv = base / "benchmarks" / "slr" / "fig8" / "interleaved" / "engine=leveldb-learned+dataset=OSM" / "r0.tsv"
    tsv.parent.mkdir(parents=True)
    tsv.write_text("s\th:m:s\n12.0\t0:00:12\n")
    member = json.dumps({"type": "run", "workload": {"interleave": {"members": 2, "position": 0, "batch_ops": 10}}})
    end = json.dumps({"type": "end", "driver_seconds": {"open": 2.0, "phases": 6.0, "total": 9.0}})
    for point in ("engine=leveldb-learned+slr=eq+dataset=OSM", "engine=leveldb-learned+slr=ea+dataset=OSM"):
        (group / f"{point}.jsonl").write_text(member + "\n" + end + "\n")
        (group / f"{point}.limits.json").write_text(json.dumps({"wall_seconds": 10.0}))
        _job(base, f"slr/fig8/{point}/r0", 0.5, 10.0, {})  # the copy job, its files the job's copies
        (base / "raw" / "slr" / "fig8" / point / "r0.jsonl").write_text(member + "\n" + end + "\n")
    table = timing.jobs(base)
    assert len(table) == 1 and table.iloc[0]["job_s"] == 12.0 and table.iloc[0]["phases_s"] == 6.0
    assert table.iloc[0]["outside_runner_s"] == pytest.approx(2.0) and table.iloc[0]["figure"] == "fig8"

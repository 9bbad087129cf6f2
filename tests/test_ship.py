"""lsmrepro.publish.ship: what a reference run carries, and the runs it refuses."""
import gzip
import json

import pandas as pd
import pytest

from base.errors import InputError
from lsmrepro.publish import ship
from lsmrepro.plan import studies

FINISHED_LOG = """Assuming unrestricted shared filesystem usage.

SNAKEMAKE
=========
  Date: 2026-11-27 05:00:00
  Command: .venv/bin/snakemake --profile profiles/default
1 of 3 steps (33%) done
3 of 3 steps (100%) done
Elapsed time: 1 day, 1:02:03.500000
"""
KILLED_LOG = """SNAKEMAKE
  Date: 2026-11-27 04:00:00
  Command: .venv/bin/snakemake --profile profiles/default
2 of 5 steps (40%) done
"""


def make_run(root, build="b1"):
    """A results/<scale> folder with every file a shipped run needs."""
    src = root / "results" / "local"
    for study in studies.studies_with_specs():
        (src / "claims").mkdir(parents=True, exist_ok=True)
        pd.DataFrame({"study": [study], "claim": [f"{study}-c"], "verdict": ["reproduced"]}).to_csv(
            src / "claims" / f"{study}.csv", index=False)
        (src / "claims" / f"{study}.md").write_text("# verdicts\n")
        (src / "tidy").mkdir(exist_ok=True)
        pd.DataFrame({"engine": ["leveldb", "leveldb"], "metric": ["get_mean_ns", "host_loadavg_start"],
                      "value": [100.0, 1.5], "build_id": [build, build]}).to_csv(
            src / "tidy" / f"{study}.csv", index=False)
        (src / "tables" / study).mkdir(parents=True, exist_ok=True)
        (src / "tables" / study / "regime.csv").write_text("figure,reached\nfig1,yes\n")
        (src / "benchmarks" / study).mkdir(parents=True, exist_ok=True)
        (src / "benchmarks" / study / "run.tsv").write_text("s\n1.0\n")
        (src / "raw" / study).mkdir(parents=True, exist_ok=True)
        (src / "raw" / study / "run.limits.json").write_text(json.dumps({"wall_seconds": 0.8}))
    (src / "hardware").mkdir()
    for name in ship.HARDWARE_FILES:
        (src / "hardware" / name).write_text("{}\n")
    (root / "build" / "leveldb").mkdir(parents=True)
    (root / "build" / "leveldb" / "build_id.json").write_text(json.dumps({"id": "b1"}))
    logs = [root / "a.snakemake.log", root / "b.snakemake.log"]
    logs[0].write_text(KILLED_LOG)
    logs[1].write_text(FINISHED_LOG)
    return logs


def test_ships_claims_with_commit_tidy_gzipped_and_the_invocations(tmp_path):
    logs = make_run(tmp_path)
    to = tmp_path / "ref"
    run, size = ship.ship("local", tmp_path / "results", to, logs, tmp_path / "build", allow_dirty=True)
    claims = pd.read_csv(to / "claims" / "slr.csv")
    assert list(claims["commit"]) == [run["commit"]] and len(run["commit"]) == 40
    with gzip.open(to / "tidy" / "slr.csv.gz", "rt") as f:
        assert "host_loadavg_start" in f.read()
    assert (to / "tables" / "slr" / "regime.csv").exists() and (to / "hardware" / "fingerprint.json").exists()
    killed, finished = run["invocations"]
    assert not killed["finished"] and killed["jobs_done"] == 2
    assert finished["finished"] and finished["wall_seconds"] == 86400 + 3723.5
    assert run["build_ids"] == {"leveldb": ["b1"]}
    assert run["host_load"]["host_loadavg_start"]["median"] == 1.5
    # where the jobs' time went: 0.2 s of each 1 s job outside the runner (no lsmbench log here)
    assert run["time_split"]["job_seconds"] == len(studies.studies_with_specs())
    assert run["time_split"]["outside_runner_s"] == pytest.approx(0.2 * len(studies.studies_with_specs()))
    assert len(pd.read_csv(to / "timing.csv")) == len(studies.studies_with_specs())
    assert json.loads((to / "run.json").read_text())["jobs"] == 5 and run["started"] == "2026-11-27T04:00:00"
    # shipping twice gives the same bytes (gzip without a timestamp), and
    # nothing of the earlier ship that this run did not measure
    before = (to / "tidy" / "slr.csv.gz").read_bytes()
    (to / "benchmarks" / "slr" / "renamed-point.tsv").write_text("s\n9.0\n")
    ship.ship("local", tmp_path / "results", to, logs, tmp_path / "build", allow_dirty=True)
    assert (to / "tidy" / "slr.csv.gz").read_bytes() == before
    assert not (to / "benchmarks" / "slr" / "renamed-point.tsv").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_refuses_rows_of_another_build(tmp_path):
    logs = make_run(tmp_path, build="old")
    with pytest.raises(InputError, match="build_id of leveldb.*builds old"):
        ship.ship("local", tmp_path / "results", tmp_path / "ref", logs, tmp_path / "build", allow_dirty=True)


def test_refuses_a_study_without_verdicts(tmp_path):
    logs = make_run(tmp_path)
    (tmp_path / "results" / "local" / "claims" / "bourbon.csv").unlink()
    with pytest.raises(InputError, match="bourbon.csv.*not complete"):
        ship.ship("local", tmp_path / "results", tmp_path / "ref", logs, tmp_path / "build", allow_dirty=True)
    assert not (tmp_path / ".ref.shipping").exists() and not (tmp_path / "ref").exists()


def test_names_no_directory_of_the_machine(tmp_path):
    logs = make_run(tmp_path)
    root = str(studies.REPO.resolve())
    hardware = tmp_path / "results" / "local" / "hardware"
    (hardware / "fingerprint.json").write_text(json.dumps({"directory": f"{root}/results/local/db"}))
    logs[1].write_text(FINISHED_LOG.replace("Command: .venv", f"Command: {root}/.venv"))
    to = tmp_path / "ref"
    run, _ = ship.ship("local", tmp_path / "results", to, logs, tmp_path / "build", allow_dirty=True)
    assert json.loads((to / "hardware" / "fingerprint.json").read_text())["directory"] == "results/local/db"
    assert run["invocations"][1]["command"] == ".venv/bin/snakemake --profile profiles/default"
    assert not [p for p in to.rglob("*") if p.is_file() and p.suffix != ".gz" and root in p.read_text()]


def test_a_log_without_a_header_is_named(tmp_path):
    bad = tmp_path / "x.snakemake.log"
    bad.write_text("nothing here\n")
    with pytest.raises(InputError, match="x.snakemake.log: Date"):
        ship.invocation(bad)


def test_a_part_ships_beside_the_parts_of_the_same_code_and_replaces_its_own(tmp_path):
    """A run of three studies shipped as a part, then the other two from
    another machine: the reference holds all five, run.json's parts both
    (each its studies, machine and wall) and their sums; shipping the first
    part again replaces it and keeps the second; a part shipped beside one
    of other code is refused."""
    import subprocess
    logs = make_run(tmp_path)
    to, src = tmp_path / "ref", tmp_path / "results"
    names = studies.studies_with_specs()
    first = [s for s in names if s in ("lsm-eval", "slr", "baseline")]
    second = [s for s in names if s not in first]
    run, _ = ship.ship("local", src, to, logs, tmp_path / "build", allow_dirty=True, only=first)
    assert [p["studies"] for p in run["parts"]] == [first]
    assert sorted(p.name for p in (to / "claims").glob("*.csv")) == sorted(f"{s}.csv" for s in first)
    assert not (to / "benchmarks" / second[0]).exists() and (to / "benchmarks" / first[0]).exists()

    (src / "local" / "hardware" / "fingerprint.json").write_text(json.dumps({"id": "machine-b"}))
    run, _ = ship.ship("local", src, to, logs, tmp_path / "build", allow_dirty=True, only=second)
    assert sorted(p.name for p in (to / "claims").glob("*.csv")) == sorted(f"{s}.csv" for s in names)
    assert [p["studies"] for p in run["parts"]] == [first, second] or \
        [p["studies"] for p in run["parts"]] == [second, first]
    by = {tuple(p["studies"]): p for p in run["parts"]}
    assert by[tuple(second)]["machine"] == "machine-b" and by[tuple(first)]["hardware"] == "hardware"
    assert json.loads((to / by[tuple(second)]["hardware"] / "fingerprint.json").read_text())["id"] == "machine-b"
    assert (to / "hardware" / "fingerprint.json").read_text() == "{}\n"
    assert run["wall_seconds"] == pytest.approx(2 * by[tuple(first)]["wall_seconds"])
    assert run["jobs"] == 10 and len(pd.read_csv(to / "timing.csv")) == len(names)

    run, _ = ship.ship("local", src, to, logs, tmp_path / "build", allow_dirty=True, only=first)
    assert sorted(tuple(p["studies"]) for p in run["parts"]) == sorted([tuple(first), tuple(second)])
    assert len(list((to / "claims").glob("*.csv"))) == len(names)

    root = subprocess.run(["git", "rev-list", "--max-parents=0", "HEAD"], cwd=ship.REPO, capture_output=True,
                          text=True, check=True).stdout.split()[0]
    shipped = json.loads((to / "run.json").read_text())
    for p in shipped["parts"]:
        if p["studies"] == second:
            p["commit"] = root
    (to / "run.json").write_text(json.dumps(shipped))
    with pytest.raises(InputError, match="the code of this commit .changed since"):
        ship.ship("local", src, to, logs, tmp_path / "build", allow_dirty=True, only=first)
    with pytest.raises(InputError, match="--studies.*got nope"):
        ship.ship("local", src, to, logs, tmp_path / "build", allow_dirty=True, only=["nope"])


def make_figure_run(root, build="b1"):
    """A results/<scale> folder of two figure targets (./reproduce slr/fig11
    bourbon/fig9): their verdicts, their experiments' tidy tables, their
    figure tables, and one stale file of another slr figure."""
    logs = make_run(root, build)
    src = root / "results" / "local"
    for study, figure in (("slr", "fig11"), ("bourbon", "fig9")):
        (src / "claims" / study).mkdir()
        pd.DataFrame({"study": [study], "claim": [f"{study}-{figure}-c"], "verdict": ["reproduced"],
                      "runs": [f"{figure}/p1/r0;{figure}/p1/r1"]}).to_csv(src / "claims" / study / f"{figure}.csv",
                                                                           index=False)
        (src / "tidy" / study).mkdir()
        pd.read_csv(src / "tidy" / f"{study}.csv").to_csv(src / "tidy" / study / f"{figure}.csv", index=False)
        (src / "tables" / study / f"{figure}.csv").write_text("x\n1\n")
    (src / "claims" / "slr" / "fig8.csv").write_text("study,claim\nslr,stale\n")
    return logs


def test_a_run_of_figure_targets_ships_their_verdicts_and_tidy_tables_on_their_own(tmp_path):
    logs = make_figure_run(tmp_path)
    to = tmp_path / "aa-a"
    run, _ = ship.ship("local", tmp_path / "results", to, logs, tmp_path / "build", allow_dirty=True,
                       figures=["slr/fig11", "bourbon/fig9"])
    shipped = sorted(str(p.relative_to(to / "claims")) for p in (to / "claims").rglob("*") if p.is_file())
    assert shipped == ["bourbon/fig9.csv", "slr/fig11.csv"]  # not the studies' whole verdicts, nor slr/fig8
    assert pd.read_csv(to / "claims" / "slr" / "fig11.csv")["commit"].tolist() == [run["commit"]]
    assert (to / "tidy" / "slr" / "fig11.csv.gz").exists() and not (to / "tidy" / "slr.csv.gz").exists()
    assert (to / "tables" / "bourbon" / "fig9.csv").exists() and (to / "tables" / "bourbon" / "regime.csv").exists()
    assert run["parts"][0]["figures"] == ["slr/fig11", "bourbon/fig9"] and run["parts"][0]["studies"] == ["slr", "bourbon"]
    assert run["build_ids"] == {"leveldb": ["b1"]}


def test_a_figure_target_without_its_verdicts_or_of_no_study_is_refused(tmp_path):
    logs = make_figure_run(tmp_path)
    with pytest.raises(InputError, match=r"--figures: slr/nosuch: <study>/<figure> of a study with a spec"):
        ship.ship("local", tmp_path / "results", tmp_path / "ref", logs, tmp_path / "build", allow_dirty=True,
                  figures=["slr/nosuch"])
    (tmp_path / "results" / "local" / "claims" / "slr" / "fig11.csv").unlink()
    with pytest.raises(InputError, match=r"fig11.csv: missing: the figure's verdicts \(./reproduce slr/fig11\)"):
        ship.ship("local", tmp_path / "results", tmp_path / "ref", logs, tmp_path / "build", allow_dirty=True,
                  figures=["slr/fig11"])
    assert not (tmp_path / "ref").exists()

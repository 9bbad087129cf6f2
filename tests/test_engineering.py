"""Study engineering: a microbenchmark's runs (a figure's `tool`) planned
from its spec and scale, run by lsmrepro.run.tool (the real lidx_bench),
made tidy with every number traced to its CSV line, and judged by the
claims' bound rule."""
import copy
import json
import subprocess

import pytest
import yaml

from base.errors import InputError
from lsmrepro.plan import studies, tools
from lsmrepro.run import tool as tool_run
from lsmrepro.tidy import aggregate

REPO = studies.REPO


def _pgm(frame):
    return frame[frame["figure"] == "pgm-speedup"]


def test_smoke_and_local_run_the_targets_size():
    smoke = _pgm(studies.tool_runs(studies.load_scale("smoke"), "engineering"))
    local = _pgm(studies.tool_runs(studies.load_scale("local"), "engineering"))
    assert set(smoke["point"]) == {"dataset=uniform+keys=10000000"} and len(smoke) == 2
    assert set(local["keys"]) == {"10000000"} and set(local["dataset"]) == {"uniform", "lognormal"}
    args = smoke.iloc[1]["args"]
    assert args[args.index("--n") + 1] == "10000000" and args[args.index("--lookups") + 1] == "50000"
    assert args[args.index("--seed") + 1] == "1001"  # repetition 1: seed + 1
    # the engine runs know nothing of them
    assert "engineering" not in set(studies.runs(studies.load_scale("smoke"))["study"])
    # --config select narrows them by their own columns only
    assert len(_pgm(studies.tool_runs(studies.load_scale("local"), select="dataset=uniform engine=leveldb"))) == 3


def _spec_with(tmp_path, monkeypatch, mutate):
    spec = copy.deepcopy(yaml.safe_load((REPO / "paper/engineering/experiments.yaml").read_text()))
    mutate(spec["figures"]["pgm-speedup"])
    (tmp_path / "engineering").mkdir()
    (tmp_path / "engineering" / "experiments.yaml").write_text(yaml.safe_dump(spec))
    monkeypatch.setattr(studies, "PAPER", tmp_path)
    studies.load_spec.cache_clear()


@pytest.mark.parametrize("mutate, field, expected", [
    (lambda f: f["tool_grid"].pop("keys"), "figures.pgm-speedup.tool_grid", "dimensions of lidx_bench expected"),
    (lambda f: f["tool_options"].__setitem__("rounds", "five"), "figures.pgm-speedup.tool_options.rounds",
     "rounds: int"),
    (lambda f: f.__setitem__("tool", "perf"), "figures.pgm-speedup.tool", "lidx_bench"),
    (lambda f: f.pop("tool_grid"), "figures.pgm-speedup", "tool_grid"),
])
def test_a_bad_tool_figure_is_one_error_naming_the_field(tmp_path, monkeypatch, mutate, field, expected):
    _spec_with(tmp_path, monkeypatch, mutate)
    try:
        with pytest.raises(InputError) as e:
            studies.load_spec("engineering")
    finally:
        studies.load_spec.cache_clear()
    assert "engineering/experiments.yaml" in str(e.value) and field in str(e.value) and expected in str(e.value)


@pytest.fixture(scope="module")
def lidx_bench(tmp_path_factory):
    out = tmp_path_factory.mktemp("lidx") / "lidx_bench"
    subprocess.run(["g++", "-std=gnu++17", "-O2", "-I", str(REPO / "indexes/include"),
                    str(REPO / "indexes/bench/lidx_bench.cc"), "-o", str(out)], check=True, capture_output=True)
    return out


@pytest.mark.e2e  # compiles lidx_bench (~30 s)
def test_a_tool_run_is_tidy_rows_traced_to_its_csv(lidx_bench, tmp_path):
    row = _pgm(studies.tool_runs(studies.load_scale("smoke"), "engineering")).iloc[0]
    args = [a if a != "10000000" else "20000" for a in row["args"]]  # a small array: what is tested is the path
    stem = tmp_path / "raw" / "engineering" / "pgm-speedup" / row["point"] / "r0"
    stem.parent.mkdir(parents=True)
    record = f"{stem}{tool_run.RECORD_SUFFIX}"
    tool_run.run(lidx_bench, args, f"{stem}.csv", record, json.loads(tools.manifest(row)), {"scale": "smoke"})
    rows = aggregate.aggregate([f"{stem}.csv", record], tmp_path / "tidy.csv")
    speedup = [r for r in rows if r["metric"] == "speedup_vs_lower_bound_cpu"]
    assert {(r["index"], r["knobs"]) for r in speedup} == {
        ("lower_bound", "defaults"), ("pgm", "defaults"), ("pgm", "epsilon=8"), ("rs", "defaults"), ("rmi", "defaults")}
    pgm = next(r for r in speedup if (r["index"], r["knobs"]) == ("pgm", "defaults"))
    assert pgm["study"] == "engineering" and pgm["experiment"] == "pgm-speedup" and pgm["keys"] == "20000"
    assert pgm["dataset"] == "uniform" and pgm["repetition"] == 0 and float(pgm["value"]) > 0
    path, line = pgm["source"].rsplit(":", 1)
    assert open(path).read().splitlines()[int(line) - 1].startswith("uniform,pgm,")
    assert [r["value"] for r in rows if r["metric"] == "wrong_answers"] == ["0"] * 5
    assert json.loads(open(record).read())["build_id"] == tool_run.digest(lidx_bench)


@pytest.mark.e2e
def test_a_failing_tool_leaves_no_run(lidx_bench, tmp_path):
    with pytest.raises(InputError) as e:
        tool_run.run(lidx_bench, ["--n", "1000", "--indexes", "nosuch"], tmp_path / "r0.csv",
                     tmp_path / "r0.tool.json", {}, {})
    assert "exit status" in str(e.value)
    assert not list(tmp_path.iterdir())

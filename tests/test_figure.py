"""A figure is a pure function of tidy data; a broken one does not stop the
others, and failed runs are marked, not dropped silently."""
import pandas as pd
import pytest

from lsmrepro.tidy import aggregate
from lsmrepro.run import bench
from lsmrepro.plan import studies
from paper import figure


def _tidy(tmp_path, make_log, failed=False):
    logs = [make_log(f"{e}_{r}.jsonl", engine=e, rep=r, factors={"engine": e, "dataset": "uniform", "workload": "lookups"})
            for e in ("leveldb", "rocksdb") for r in (0, 1)]
    if failed:
        f = tmp_path / "failed.jsonl"
        bench.failed_record(f, "run", "out of memory (limit 64MiB)", 137,
                            {"study": "baseline", "experiment": "point", "scale": "smoke", "dataset": "lognormal",
                             "repetition": "0", "point": "engine=rocksdb+dataset=lognormal+workload=lookups"},
                            {"engine": "rocksdb", "factors": {"engine": "rocksdb", "dataset": "lognormal",
                                                              "workload": "lookups"}})
        logs.append(str(f))
    aggregate.aggregate(logs, tmp_path / "t.csv")
    from lsmrepro.tidy.table import read_tidy
    return read_tidy(tmp_path / "t.csv")


def test_baseline_point_is_a_pure_function_of_its_rows(tmp_path, make_log):
    tidy = _tidy(tmp_path, make_log)
    fig, table, error = figure.make("baseline", "point", tidy)
    assert error is None and fig is not None
    again = figure.make("baseline", "point", tidy)[1]
    pd.testing.assert_frame_equal(table, again)
    assert set(table["engine"]) == {"leveldb", "rocksdb"} and (table["mean latency ns n"] == 2).all()


def test_failed_run_is_marked_with_its_reason_and_the_rest_renders(tmp_path, make_log):
    tidy = _tidy(tmp_path, make_log, failed=True)
    fig, table, error = figure.make("baseline", "point", tidy)
    assert error is None
    texts = [t.get_text() for t in fig.texts]
    assert any("rocksdb / lognormal: FAILED (out of memory (limit 64MiB))" in t for t in texts), texts
    assert set(zip(table["engine"], table["dataset"])) == {("leveldb", "uniform"), ("rocksdb", "uniform")}


def test_a_figure_that_raises_leaves_an_error_naming_it(tmp_path, make_log, monkeypatch, capsys):
    tidy = _tidy(tmp_path, make_log)
    paper = tmp_path / "paper"
    (paper / "baseline").mkdir(parents=True)
    (paper / "baseline" / "experiments.yaml").write_text((studies.PAPER / "baseline" / "experiments.yaml").read_text())
    (paper / "baseline" / "point.py").write_text("def figure(rows, spec):\n    raise KeyError('latency_p42')\n")
    monkeypatch.setattr(studies, "PAPER", paper)
    studies.load_spec.cache_clear()
    try:
        tidy.to_csv(tmp_path / "tidy.csv", index=False)
        out = {k: tmp_path / f"out.{k}" for k in ("pdf", "png", "csv", "md")}
        figure.main(["--study", "baseline", "--figure", "point", "--tidy", str(tmp_path / "tidy.csv"),
                     *[a for k, p in out.items() for a in (f"--out-{k}", str(p))]])
    finally:
        studies.load_spec.cache_clear()
    assert "error: figure baseline/point: KeyError: 'latency_p42'" in capsys.readouterr().err
    assert all(p.stat().st_size > 0 for p in out.values())
    assert "FIGURE FAILED" in out["md"].read_text()
    assert list(pd.read_csv(out["csv"]).columns) == figure.ERROR_COLUMNS


@pytest.mark.parametrize("table", [None, "not a frame"])
def test_figure_must_return_a_table(tmp_path, make_log, monkeypatch, table):
    monkeypatch.setattr(figure, "load_function", lambda s, f: (lambda rows, spec: (None, table)))
    error = figure.make("baseline", "point", _tidy(tmp_path, make_log))[2]
    assert "a DataFrame expected" in error


def test_runs_of_two_machines_are_never_averaged(tmp_path, make_log):
    tidy = _tidy(tmp_path, make_log)
    tidy.loc[tidy["engine"] == "rocksdb", "fingerprint"] = "fp2"
    error = figure.make("baseline", "point", tidy)[2]
    assert "2 machine fingerprints (fp1, fp2)" in error

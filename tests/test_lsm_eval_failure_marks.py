"""lsm-eval Figure 8 marks an index as failed only when a run of it failed
(a measured `failed` row of 1 with its reason), and the claims that LIPP and
DILI fail on OSM are reproduced only by such a failure and not reproduced
by a run that completed (`failed` 0): never assumed, and one index's failure
never stands for the other's."""
import importlib.util

import pandas as pd

from lsmrepro.claims import evaluate as claims
from lsmrepro.plan import studies

FIG8 = studies.REPO / "paper" / "lsm-eval" / "fig8.py"
CLAIMS = {"lipp": "lsm-eval-fig8-lipp-fails-osm", "dili": "lsm-eval-fig8-dili-fails-osm"}


def fig8():
    spec = importlib.util.spec_from_file_location("lsm_eval_fig8", FIG8)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rows(failed):
    """Two repetitions of each (dataset, index): a 0/1 outcome of one run
    has no spread to judge it by (df 0)."""
    out = []
    cells = [(d, x, rep) for d in ("fb", "osm") for x in ("fp", "lipp", "dili") for rep in (0, 1)]
    for i, (dataset, index, rep) in enumerate(cells):
        run = f"r{i}"
        base = {"study": "lsm-eval", "experiment": "fig8", "run": run, "dataset": dataset, "index": index,
                "position_boundary": 16, "repetition": rep, "workload": "lookups", "note": "",
                "source": f"{run}.jsonl:1", "engine": "leveldb-learned"}
        if (dataset, index) in failed:
            out.append({**base, "metric": "failed", "op": "", "subset": "", "value": 1,
                        "note": f"index '{index}' cannot be built on table 000005.ldb (100 entries): memory"})
            continue
        out.append({**base, "metric": "failed", "op": "", "subset": "", "value": 0})  # as lsmrepro.tidy.aggregate writes
        out.append({**base, "metric": "latency_mean", "op": "get", "subset": "all", "value": 2000.0 + i})
        out.append({**base, "metric": "index_bytes", "op": "", "subset": "", "value": 4096.0 * (i + 1)})
    return pd.DataFrame(out)


def verdicts(tidy):
    """index -> its claim's verdict row."""
    mine = [c for c in claims.load_claims(studies.REPO / "paper" / "lsm-eval" / "claims.yaml")
            if c["id"] in CLAIMS.values()]
    by_claim = claims.check("lsm-eval", tidy, mine).set_index("claim")
    return {index: by_claim.loc[claim] for index, claim in CLAIMS.items()}


def test_no_measured_failure_no_mark_and_not_reproduced():
    tidy = rows(failed=set())
    fig, table = fig8().figure(tidy, {"datasets": {"fb": "fb", "osm": "osm"}})
    assert "failed" not in table.columns
    assert not any("FAILED" in t.get_text() or "✗" in t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text")))
    assert all(v["verdict"] == "not reproduced" for v in verdicts(tidy).values())
    no_runs = tidy[tidy["dataset"] != "osm"]
    assert all(v["verdict"] == "no data" for v in verdicts(no_runs).values())


def test_measured_failures_are_marked_with_their_reason_and_counted():
    tidy = rows(failed={("osm", "lipp"), ("osm", "dili")})
    fig, table = fig8().figure(tidy, {"datasets": {"fb": "fb", "osm": "osm"}})
    marked = table.dropna(subset=["failed"])
    assert set(zip(marked["dataset"], marked["index"])) == {("osm", "lipp"), ("osm", "dili")}
    assert marked["failed"].str.contains("cannot be built").all()
    assert all(v["n"] == 2 and v["verdict"] == "reproduced" for v in verdicts(tidy).values())


def test_one_index_failure_is_not_the_others():
    v = verdicts(rows(failed={("osm", "lipp")}))
    assert v["lipp"]["n"] == 2 and v["lipp"]["verdict"] == "reproduced"
    assert v["dili"]["verdict"] == "not reproduced"

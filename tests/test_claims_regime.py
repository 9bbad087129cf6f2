"""The claims table's regime columns (lsmrepro/claims/evaluate.py) and their
counts in the report and README blocks: the regime rule of lsmrepro/tidy/regime.py
applied per claim, the verdict itself unchanged."""
import pandas as pd

from lsmrepro.claims import evaluate
from lsmrepro.publish import readme_verdicts, report


def test_regime_columns_come_last_in_the_verdict_table():
    assert evaluate.VERDICT_COLUMNS[-2:] == ["regime", "regime_reached"]


def test_a_claim_of_a_bourbon_depth_figure_outside_its_regime(monkeypatch):
    """bourbon fig10 depends on the paper's 5 levels: a 4-level tree is outside,
    a 5-level tree inside, whatever the verdict."""
    figs = {"fig10": {"paper_figure": "Figure 10", "engines": ["bourbon"],
                      "regime": {"source": "x", "database_bytes": 1, "memory_bytes": 1, "device": "d", "threads": 1,
                                 "settled": True, "levels": 5, "depends_on": ["tree_depth"]}}}
    monkeypatch.setattr(evaluate.studies, "figures", lambda study: figs)
    claim = {"id": "c", "study": "bourbon", "figure": "fig10", "paper": {"value": 2.3}}
    for levels, expected in ((4, "no"), (5, "yes")):
        rows = [{"experiment": "fig10", "run": "a", "dataset": "AR", "metric": "regime_tree_levels", "value": levels}]
        assert evaluate._regime_fields(claim, "bourbon", rows) == {"regime": "tree_depth", "regime_reached": expected}


def _claims():
    return pd.DataFrame({"claim": ["a", "b", "c", "d"], "verdict": ["reproduced", "not reproduced", "not reproduced", "inconclusive"],
                         "regime_reached": ["yes", "no", "yes", "n.a."], "regime": ["settled", "tree_depth", "settled", ""],
                         "detail": ["", "", "", ""]})


def test_report_counts_verdicts_in_and_outside_the_regime():
    c = report.regime_counts(_claims())
    assert c["in the paper's regime"]["reproduced"] == 1 and c["in the paper's regime"]["not reproduced"] == 1
    assert c["outside it"]["not reproduced"] == 1 and c["outside it"]["reproduced"] == 0
    assert c["regime not measured"]["inconclusive"] == 1


def test_readme_counts_line_splits_by_regime():
    line = readme_verdicts.counts_line(_claims(), "results/reference/local/claims/x.csv")
    assert "in the paper's regime: 1 reproduced, 1 not reproduced; outside it: 1 not reproduced" in line
    assert readme_verdicts.regime_cell(_claims().to_dict("records")[1], {}) == "no (tree_depth)"

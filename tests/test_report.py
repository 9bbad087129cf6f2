import json

from lsmrepro.publish import report


def _limits(log, enforced, reason=None):
    path = log[: -len(".jsonl")] + ".limits.json"
    with open(path, "w") as f:
        json.dump({"limit_spec": "70%", "enforced": enforced, "not_enforced_reason": reason,
                   "peak_bytes": 3 << 20}, f)


def test_unenforced_limit_is_flagged_above_the_runs(tmp_path, make_log):
    enforced = make_log("leveldb__uniform__r0.jsonl")
    loose = make_log("leveldb__uniform__r1.jsonl", rep=1)
    _limits(enforced, True)
    _limits(loose, False, "no write access to the memory cgroup")
    page = report.runs_section([enforced, loose], str(tmp_path / "report" / "index.html"))
    assert "not enforced for 1 of 2 runs" in page
    assert "NO: no write access to the memory cgroup" in page


def test_no_warning_when_every_limit_held(tmp_path, make_log):
    log = make_log()
    _limits(log, True)
    page = report.runs_section([log], str(tmp_path / "index.html"))
    assert "not enforced" not in page and "<td>3</td>" in page  # peak MiB


def test_the_summary_counts_verdicts_by_regime():
    import pandas as pd
    claims = pd.DataFrame({"verdict": ["reproduced", "not reproduced", "inconclusive"],
                           "regime_reached": ["yes", "no", "n.a."]})
    cell = report._regime_counts_html(claims)
    assert "in the paper's regime: <span class='v reproduced'>" in cell
    assert "1 not reproduced" in cell.split("<br>")[1] and "1 inconclusive" in cell.split("<br>")[2]


def test_the_aa_coverage_counts_intervals_that_hold_one(tmp_path):
    """Issue 52 item 5: the report's first section is the A/A claims'
    coverage of their true ratio 1 and their not-reproduced count; other
    claims do not count, and a claim without an interval is not judged."""
    import pandas as pd
    from lsmrepro.publish import aa
    claims = pd.DataFrame({"claim": ["aa-a", "aa-b", "aa-c", "aa-d", "paper-claim"],
                           "ci_low": [0.97, 1.01, float("nan"), 0.9, 0.5],
                           "ci_high": [1.04, 1.08, float("nan"), 1.2, 0.6],
                           "verdict": ["reproduced", "not reproduced", "no data", "inconclusive", "not reproduced"]})
    assert aa.coverage(claims) == {"n": 4, "judged": 3, "covered": 2, "not_reproduced": 1}
    assert aa.coverage(claims[claims["claim"] == "paper-claim"]) is None
    (tmp_path / "local" / "claims").mkdir(parents=True)
    claims.to_csv(tmp_path / "local" / "claims" / "baseline.csv", index=False)
    text = report.aa_section(["baseline"], tmp_path, "local")
    assert "2 of 3 A/A comparisons (67%)" in text and "falls short of the 85%" in text and "1 of 4" in text

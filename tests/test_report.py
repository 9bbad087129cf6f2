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

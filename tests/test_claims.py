import math

import pandas as pd
import pytest

from lsmrepro import aggregate, claims
from lsmrepro.errors import InputError


def test_verdict_rules():
    assert claims.verdict(0.01, 0.03, 5, {"max": 0.05}) == "reproduced"
    assert claims.verdict(0.06, 0.08, 5, {"max": 0.05}) == "not reproduced"
    assert claims.verdict(0.04, 0.06, 5, {"max": 0.05}) == "inconclusive"
    assert claims.verdict(1.2, 1.5, 5, {"min": 1.23, "max": 1.78}) == "inconclusive"
    assert claims.verdict(1.3, 1.5, 5, {"min": 1.23, "max": 1.78}) == "reproduced"
    assert claims.verdict(0.01, 0.02, 1, {"max": 0.05}) == "inconclusive"


def test_interval_matches_t_distribution():
    mean, lo, hi, n = claims.interval([1.0, 2.0, 3.0])
    assert (mean, n) == (2.0, 3)
    assert math.isclose(hi - mean, 4.302652729911275 * 1.0 / math.sqrt(3), rel_tol=1e-9)
    assert claims.interval([5.0])[1] != claims.interval([5.0])[1]  # NaN: no interval from one sample


def _tidy(tmp_path, make_log, harness_values):
    logs = [make_log(f"leveldb__uniform__r{i}.jsonl", rep=i, harness=h, engine_ns=1000.0)
            for i, h in enumerate(harness_values)]
    aggregate.aggregate(logs, tmp_path / "t.csv")
    return pd.read_csv(tmp_path / "t.csv", dtype={"run": str})


CLAIM = {"id": "overhead", "study": "baseline", "figure": "point", "statement": "s", "source": "x",
         "measure": {"kind": "ratio",
                     "numerator": {"metric": "driver_harness_per_op", "engine": "leveldb"},
                     "denominator": {"metric": "driver_engine_call_per_op", "engine": "leveldb"},
                     "pair_on": ["run"]},
         "expect": {"max": 0.05}}


def test_ratio_claim_reproduced_and_not(tmp_path, make_log):
    low = claims.check("baseline", _tidy(tmp_path, make_log, [10, 12, 11]), [CLAIM])
    assert low.loc[0, "verdict"] == "reproduced"
    assert math.isclose(low.loc[0, "measured"], 0.011)
    assert "leveldb__uniform__r0.jsonl:6" in low.loc[0, "evidence"]
    high = claims.check("baseline", _tidy(tmp_path, make_log, [100, 120, 110]), [CLAIM])
    assert high.loc[0, "verdict"] == "not reproduced"


def test_claims_file_is_valid_and_bad_claims_are_rejected(tmp_path):
    assert any(c["study"] == "baseline" for c in claims.load_claims())
    bad = tmp_path / "claims.yaml"
    bad.write_text("claims:\n  - id: x\n    study: baseline\n")
    with pytest.raises(InputError) as e:
        claims.load_claims(bad)
    assert "claims.yaml" in str(e.value)

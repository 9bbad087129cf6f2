"""Per claim, the command that reruns its runs and its price (lsmrepro/publish/rerun.py)."""
import humanfriendly
import pandas as pd

from lsmrepro.claims.measure import experiments
from lsmrepro.claims.spec import load_claims
from lsmrepro.plan import studies, targets
from lsmrepro.publish import report, rerun


def test_every_claims_command_reruns_every_experiment_it_reads():
    for c in load_claims():
        words = rerun.command(c, "local").split()
        assert words[:2] == ["./reproduce", f"{c['study']}/{c['figure']}"], c["id"]
        named = {w.split("/", 1)[1] for w in words[1:]}
        covered = set().union(*(studies.figure_experiments(c["study"], f) for f in named)) | named
        assert experiments(c) <= covered, (c["id"], experiments(c) - covered)


def test_a_claim_reading_another_figures_runs_names_both_targets_and_the_scale():
    c = next(c for c in load_claims() if c["id"] == "lsm-eval-fig10-varlen-like-fixed-clustered")
    assert "lsm-eval/fig7" in rerun.command(c, "local").split()
    assert rerun.command(c, "smoke").endswith("--config scale=smoke")
    assert "--config" not in rerun.command(c, "local")


def test_figures_priced_together_count_a_shared_load_once(tmp_path):
    price = targets.pricer(tmp_path, "smoke")
    disk = lambda figs: sum(humanfriendly.parse_size(d, binary=True)  # noqa: E731
                            for d in price(figs)[1]["disk of loads (upper bound)"])
    alone = disk({"slr/fig8"}) + disk({"slr/fig9"})
    together = disk({"slr/fig8", "slr/fig9"})
    runs = studies.runs(studies.load_scale("smoke"))
    runs = runs[runs.study == "slr"]
    shared = set(runs[runs.figure == "fig8"].load) & set(runs[runs.figure == "fig9"].load)
    assert shared, "the two figures share loads at smoke (else this test checks nothing)"
    assert together < alone


def test_the_report_shows_a_claims_rerun_command_and_price():
    claims = pd.DataFrame([{"claim": "x", "statement": "s", "verdict": "reproduced", "rerun": "./reproduce baseline/point",
                            "rerun_wall": "2 minutes", "rerun_disk": "4 GiB", "rerun_unmeasured_jobs": 3}])
    cell = report.claims_table(claims)
    assert "./reproduce baseline/point (about 2 minutes, 4 GiB of loads, 3 of its jobs not yet timed)" in cell

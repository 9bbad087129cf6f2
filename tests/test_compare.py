"""lsmrepro.publish.compare (a run beside a reference run) and the estimate's
fallback to the reference run's job times. The folders are hand-made
test input in the layout of results/<scale>/."""
import gzip
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from lsmrepro.publish import compare
from lsmrepro.plan import targets
from lsmrepro.tidy.aggregate import COLUMNS
from base.errors import InputError

REPO = Path(__file__).resolve().parents[1]


def _claims(folder, verdicts):
    rows = [{"study": "doblix", "claim": c, "paper": "002", "section": "§IV", "figure": "fig9",
             "statement": f"statement of {c}", "expected": "", "measured": m, "ci_low": m * 0.9,
             "ci_high": m * 1.1, "n": 4, "unit": "ratio", "verdict": v}
            for c, (v, m) in verdicts.items()]
    path = folder / "claims" / "doblix.csv"
    path.parent.mkdir(parents=True)
    pd.DataFrame(rows).to_csv(path, index=False)


def _tidy(folder, values, gz=False):
    """values: (experiment, point, metric) -> [value per repetition]."""
    rows = [{**{c: "" for c in COLUMNS}, "study": "doblix", "experiment": e, "point": p, "metric": m,
             "op": "get", "value": v, "repetition": i}
            for (e, p, m), vs in values.items() for i, v in enumerate(vs)]
    path = folder / "tidy" / ("doblix.csv.gz" if gz else "doblix.csv")
    path.parent.mkdir(parents=True)
    text = pd.DataFrame(rows, columns=COLUMNS).to_csv(index=False)
    path.write_bytes(gzip.compress(text.encode()) if gz else text.encode())


def _hardware(folder, cpu, iops):
    hw = folder / "hardware"
    hw.mkdir(parents=True)
    hw.joinpath("fingerprint.json").write_text(json.dumps({
        "id": cpu[:4], "stable": {"cpu": {"model": cpu, "cores": 2, "threads": 2},
                                  "memory": {"total_bytes": 24 * 2**30}, "kernel": {"release": "6.1.0"},
                                  "storage": {"device": {"model": "NVMe X", "name": "nvme0n1"},
                                              "filesystem": {"type": "ext4"}}},
        "volatile": {"loadavg": [1.0, 1.0, 1.0]}}))
    pd.DataFrame([{"measurement": "randread-4k-qd1", "iops": iops, "bandwidth_MiBps": iops / 256,
                   "clat_mean_us": 1e6 / iops}]).to_csv(hw / "calibration.csv", index=False)


@pytest.fixture
def two_runs(tmp_path):
    ours, ref = tmp_path / "results" / "smoke", tmp_path / "reference" / "local"
    # intervals are the value -10% / +10%: a-same's overlap, b's and c's do not; d has none here
    _claims(ours, {"a-same": ("reproduced", 1.9), "b-differs": ("inconclusive", 1.1),
                   "c-disjoint": ("reproduced", 1.0), "d-no-data": ("no data", float("nan"))})
    _claims(ref, {"a-same": ("reproduced", 2.0), "b-differs": ("reproduced", 1.8),
                  "c-disjoint": ("reproduced", 2.0), "d-no-data": ("no data", float("nan"))})
    # ours: throughput 2x and 8x the reference's (geometric mean 4), latency half;
    # a metric that is not a main one is left out; a point only ours has counts as such
    _tidy(ours, {("fig9", "p1", "run_throughput"): [100, 300], ("fig9", "p2", "run_throughput"): [800],
                 ("fig9", "p1", "latency_mean"): [5], ("fig9", "p3", "latency_mean"): [7],
                 ("fig9", "p1", "steps_l_block_ns"): [1]})
    _tidy(ref, {("fig9", "p1", "run_throughput"): [100], ("fig9", "p2", "run_throughput"): [50, 150],
                ("fig9", "p1", "latency_mean"): [10], ("fig9", "p1", "steps_l_block_ns"): [3]}, gz=True)
    _hardware(ours, "Our CPU", 10000)
    _hardware(ref, "Reference CPU", 40000)
    regime = ref / "tables" / "doblix" / "regime.csv"
    regime.parent.mkdir(parents=True)
    regime.write_text("study,figure,reached,why\ndoblix,fig9,yes,cached 0.1 (paper 0.1)\n")
    return tmp_path, ours, ref


def test_compare_lists_a_differing_verdict_first_and_the_ratios(two_runs):
    tmp, ours, ref = two_runs
    r = subprocess.run([sys.executable, "-m", "lsmrepro.publish.compare", "--scale", "smoke", "--reference", str(ref),
                        "--results", str(tmp / "results")], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = ours / "compare"
    assert r.stdout.strip() == (out / "index.md").read_text().strip()
    cl = pd.read_csv(out / "claims.csv")
    # a differing verdict first, then disjoint intervals, then the rest
    assert cl["claim"].tolist() == ["b-differs", "c-disjoint", "a-same", "d-no-data"]
    assert cl["differs"].tolist() == [True, False, False, False]
    assert cl["intervals"].fillna("").tolist() == ["disjoint", "disjoint", "overlap", ""]
    assert cl.loc[0, ["verdict_ours", "verdict_reference", "measured_reference", "n_ours"]].tolist() == \
        ["inconclusive", "reproduced", 1.8, 4]
    fig = pd.read_csv(out / "figures.csv").set_index("metric")
    assert set(fig.index) == {"run_throughput", "latency_mean"}
    tp = fig.loc["run_throughput"]
    assert tp["matched"] == 2 and math.isclose(tp["ratio_geomean"], 4.0)
    assert (tp["ratio_min"], tp["ratio_max"]) == (2.0, 8.0)
    lat = fig.loc["latency_mean"]
    assert lat["matched"] == 1 and math.isclose(lat["ratio_geomean"], 0.5) and lat["only_ours"] == 1
    # our run has no regime table: shown as such, beside the reference's
    assert lat[["regime_reached_ours", "regime_reached_reference"]].tolist() == ["—", "yes"]
    mach = pd.read_csv(out / "machines.csv").set_index("quantity")
    assert mach.loc["CPU model"].tolist() == ["Our CPU", "Reference CPU"]
    assert mach.loc["fio randread-4k-qd1 iops"].astype(float).tolist() == [10000, 40000]
    assert "1 of 4 verdicts differ; the two 90% intervals are disjoint for 2 of the 3 claims" in r.stdout


def test_a_reference_without_claims_is_one_clear_error(two_runs):
    tmp, ours, ref = two_runs
    for p in (ref / "claims").iterdir():
        p.unlink()
    r = subprocess.run([sys.executable, "-m", "lsmrepro.publish.compare", "--scale", "smoke", "--reference", str(ref),
                        "--results", str(tmp / "results")], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and f"{ref / 'claims'}" in r.stderr and "claims/<study>.csv" in r.stderr
    (ref / "claims" / "doblix.csv").write_text("study,claim\ndoblix,a\n")
    with pytest.raises(InputError, match=r"doblix.csv: verdict, measured, ci_low, ci_high, n: the columns"):
        compare.compare("smoke", ref, tmp / "results")


def test_a_figure_targets_claims_are_compared_with_the_same_claims_of_the_reference(two_runs):
    # ours judged one figure of doblix (./reproduce doblix/fig9: claims/doblix/fig9.csv) and no
    # study as a whole; the reference judged all of doblix and all of slr
    tmp, ours, ref = two_runs
    whole = ours / "claims" / "doblix.csv"
    t = pd.read_csv(whole)
    (ours / "claims" / "doblix").mkdir()
    t[t["claim"].isin(["b-differs", "c-disjoint"])].to_csv(ours / "claims" / "doblix" / "fig9.csv", index=False)
    t[t["claim"] == "c-disjoint"].to_csv(ours / "claims" / "doblix" / "fig10.csv", index=False)  # read twice
    whole.unlink()
    (ours / "tidy" / "doblix").mkdir()
    (ours / "tidy" / "doblix.csv").rename(ours / "tidy" / "doblix" / "fig9.csv")  # the experiment's own table
    slr = pd.read_csv(ref / "claims" / "doblix.csv").assign(study="slr")
    slr.to_csv(ref / "claims" / "slr.csv", index=False)
    text = compare.compare("smoke", ref, results=tmp / "results")
    cl = pd.read_csv(ours / "compare" / "claims.csv")
    # doblix: the two claims both judged; slr, which only the reference judged, shows as absent
    assert cl.loc[cl["study"] == "doblix", "claim"].tolist() == ["b-differs", "c-disjoint"]
    assert set(cl.loc[cl["study"] == "slr", "verdict_ours"]) == {"absent"} and len(cl) == 6
    assert "5 of 6 verdicts differ" in text
    assert "2 verdicts of figures only one side ran are left out" in text
    fig = pd.read_csv(ours / "compare" / "figures.csv").set_index("metric")
    assert math.isclose(fig.loc["run_throughput", "ratio_geomean"], 4.0)
    # a study both judged whole still shows a claim one side lacks
    t.to_csv(whole, index=False)
    pd.read_csv(ref / "claims" / "doblix.csv").query("claim != 'a-same'").to_csv(ref / "claims" / "doblix.csv",
                                                                                 index=False)
    compare.compare("smoke", ref, results=tmp / "results")
    cl = pd.read_csv(ours / "compare" / "claims.csv")
    assert cl.loc[(cl["study"] == "doblix") & (cl["claim"] == "a-same"), "verdict_reference"].tolist() == ["absent"]


def test_a_missing_fingerprint_names_the_file(two_runs):
    tmp, ours, ref = two_runs
    (ref / "hardware" / "fingerprint.json").unlink()
    with pytest.raises(InputError, match=r"reference/local/hardware/fingerprint.json: missing"):
        compare.compare("smoke", ref, tmp / "results")


def _bench(base, rel, seconds):
    p = base / "benchmarks" / f"{rel}.tsv"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(f"s\n{seconds}\n")


def _reference_jobs(tmp_path, seconds):
    """Every baseline/point load and run job at local timed by a reference
    run (no raw logs shipped); returns (its runs, the reference folder)."""
    from lsmrepro.plan import studies
    runs = studies.runs(studies.load_scale("local"), "baseline", "point")
    ref = tmp_path / "reference" / "local"
    for load in runs["load"].unique():
        _bench(ref, f"loads/{load}", seconds)
    for r in runs.itertuples():
        _bench(ref, f"{r.study}/{r.figure}/{r.point}/r{r.rep}", seconds)
    return runs, ref


def test_estimate_uses_the_reference_job_times_until_jobs_are_measured_here(tmp_path):
    """Every baseline job measured by the reference run at local (20 s, no
    raw logs shipped); then one run measured here at local (5 s) replaces
    its point's reference times (one job is too few to scale the others: a
    pilot times at least PILOT_MIN)."""
    runs, ref = _reference_jobs(tmp_path, 20.0)
    _hardware(ref, "Reference CPU", 40000)
    jobs = len(runs) + runs["load"].nunique()
    figures, _ = targets.estimate(tmp_path, "local")
    point = figures.set_index("target").loc["baseline/point"]
    assert point["unmeasured jobs"] == 0 and point["seconds"] == 20.0 * jobs
    note = targets.reference_note(tmp_path, targets.job_times(tmp_path)[1])
    assert "reference run's job times, measured on Reference CPU" in note and "unscaled" in note
    assert f"({jobs} job times, unscaled" in note

    one = runs.iloc[0]
    same_point = runs[runs["point"] == one.point]
    for r in same_point.iloc[:1].itertuples():  # a point's one time prices its repetitions
        _bench(tmp_path / "local", f"{r.study}/{r.figure}/{r.point}/r{r.rep}", 5.0)
    figures, _ = targets.estimate(tmp_path, "local")
    # the startup every job pays is now the smallest job time (5 s) and does not change a same-scale time
    assert figures.set_index("target").loc["baseline/point", "seconds"] == \
        20.0 * (jobs - len(same_point)) + 5.0 * len(same_point)
    assert targets.job_times(tmp_path)[1] == jobs - len(same_point)

    r = subprocess.run([sys.executable, "-m", "lsmrepro.plan.targets", "estimate", "--scale", "local",
                        "--results", str(tmp_path)], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0 and "measured on Reference CPU" in r.stdout, r.stdout + r.stderr


def test_reference_phases_come_from_its_tidy_tables_and_scale_with_the_ops_run_now(tmp_path):
    """A shipped reference keeps no raw logs: a run's measured phase and ops
    come from its tidy table (run_seconds, setup_ops), a load's from its
    load and settle seconds. The reference ran twice today's ops: every
    run job is 20 s of which 10 s measured phase, so it is estimated at
    start-up + half the phase + the rest."""
    runs, ref = _reference_jobs(tmp_path, 20.0)
    rows = []
    for r in runs.itertuples():
        run = dict(study=r.study, experiment=r.figure, point=r.point, repetition=r.rep)
        rows += [dict(run, metric="run_seconds", value=10.0, source="x.jsonl:2"),
                 dict(run, metric="setup_ops", value=2 * r.ops, source="x.jsonl:1"),
                 dict(run, metric="latency_mean", value=1.0, source="x.jsonl:3")]
        load_log = f"results/local/raw/loads/{r.load}.jsonl"
        rows += [dict(run, metric="load_seconds", value=12.0, source=f"{load_log}:2"),
                 dict(run, metric="settle_seconds", value=3.0, source=f"{load_log}:3")]
    (ref / "tidy").mkdir(parents=True)
    pd.DataFrame(rows).to_csv(ref / "tidy" / "baseline.csv.gz", index=False)
    figures, _ = targets.estimate(tmp_path, "local")
    startup = 20.0 - 15.0  # the smallest rest of any job: a load's 20 s less its 15 s of load and settle
    want = (startup + 10.0 / 2 + (20.0 - 10.0 - startup)) * len(runs) + 20.0 * runs["load"].nunique()
    assert figures.set_index("target").loc["baseline/point", "seconds"] == pytest.approx(want)


def test_estimate_without_a_reference_says_nothing_of_it(tmp_path):
    assert targets.reference_note(tmp_path, targets.job_times(tmp_path)[1]) is None


def test_reference_job_times_scale_their_io_share_by_the_two_calibrations(tmp_path):
    """A reference job of 20 s with 5 s of CPU: its 15 s of I/O take 4x as
    long on a device with a quarter of the reference's 4 KiB random-read
    IOPS (runs), half as long where sequential writes are twice as fast
    (loads); the CPU share is the reference's."""
    from lsmrepro.plan import studies
    runs = studies.runs(studies.load_scale("local"), "baseline", "point")
    ref = tmp_path / "reference" / "local"
    for rel in [f"loads/{x}" for x in runs["load"].unique()] + \
               [f"{r.study}/{r.figure}/{r.point}/r{r.rep}" for r in runs.itertuples()]:
        p = ref / "benchmarks" / f"{rel}.tsv"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("s\th:m:s\tcpu_time\n20.0\t0:00:20\t5.0\n")

    def calibration(folder, iops, mibps):
        (folder / "hardware").mkdir(parents=True, exist_ok=True)
        pd.DataFrame([{"measurement": "randread-4k-qd1", "iops": iops, "bandwidth_MiBps": iops / 256},
                      {"measurement": "seqwrite-1m", "iops": mibps, "bandwidth_MiBps": mibps}]
                     ).to_csv(folder / "hardware" / "calibration.csv", index=False)

    # this machine has no calibration yet (a fresh clone): unscaled, and the note says so
    figures, _ = targets.estimate(tmp_path, "local")
    assert figures.set_index("target").loc["baseline/point", "seconds"] == 20.0 * (len(runs) + runs["load"].nunique())
    assert "unscaled: this machine has run none of the reference's jobs at local" in \
        targets.reference_note(tmp_path, targets.job_times(tmp_path)[1])

    calibration(ref, 40000, 400)
    calibration(tmp_path / "local", 10000, 800)
    assert targets.device_ratios(tmp_path, "local") == {"run": 4.0, "load": 0.5}
    figures, by_study = targets.estimate(tmp_path, "local")
    want = (5 + 15 * 4.0) * len(runs) + (5 + 15 * 0.5) * runs["load"].nunique()
    assert figures.set_index("target").loc["baseline/point", "seconds"] == want
    assert by_study.set_index("study").loc["baseline", "seconds"] == want
    note = targets.reference_note(tmp_path, targets.job_times(tmp_path)[1])
    assert "runs x4.00 (randread-4k-qd1 iops)" in note and "loads x0.50 (seqwrite-1m bandwidth_MiBps)" in note


def test_a_smoke_time_here_does_not_replace_the_references_time_at_the_asked_scale(tmp_path):
    """A job this machine ran only at smoke (1 s, 20k ops) is estimated at
    local from the reference's local time, not extrapolated from smoke; and
    this machine's smoke calibration does not scale the reference's local
    one (each scale runs its own fio job)."""
    runs, ref = _reference_jobs(tmp_path, 20.0)
    jobs = len(runs) + runs["load"].nunique()
    for r in runs.itertuples():
        _bench(tmp_path / "smoke", f"{r.study}/{r.figure}/{r.point}/r{r.rep}", 1.0)
    for base, iops in ((ref, 40000), (tmp_path / "smoke", 10000)):
        (base / "hardware").mkdir(parents=True, exist_ok=True)
        pd.DataFrame([{"measurement": "randread-4k-qd1", "iops": iops, "bandwidth_MiBps": 100},
                      {"measurement": "seqwrite-1m", "iops": 400, "bandwidth_MiBps": 400}]
                     ).to_csv(base / "hardware" / "calibration.csv", index=False)
    assert targets.device_ratios(tmp_path, "local") is None
    figures, _ = targets.estimate(tmp_path, "local")
    assert figures.set_index("target").loc["baseline/point", "seconds"] == 20.0 * jobs
    assert targets.job_times(tmp_path, "local")[1] == jobs


def _run_log(path, seconds, interleave):
    """A raw run log's first records: its run record and its run phase."""
    path.parent.mkdir(parents=True, exist_ok=True)
    workload = {"kind": "point", **({"interleave": {"members": 5, "position": 0, "batch_ops": 10}} if interleave else {})}
    path.write_text(json.dumps({"type": "run", "workload": workload}) + "\n" +
                    json.dumps({"type": "phase", "phase": "run", "ops": 300000, "seconds": seconds}) + "\n")


def test_an_interleaved_job_is_priced_once_from_its_own_time_or_its_runs_apart(tmp_path):
    """slr fig8 at local: each job of its six members (five mechanisms and
    the A/A replica) measured at 40 s (its runs' phases 3 s each, their
    copy jobs 0.5 s) is 40 s again; never measured interleaved, it is its
    runs' own jobs (10 s, 6 s of phase each: a start-up of 4 s) less the
    start-ups it shares: 4 + 6 s a member."""
    from lsmrepro.plan import studies
    runs = studies.runs(studies.load_scale("local"), "slr", "fig8")
    jobs = studies.interleave_groups(runs)
    base = tmp_path / "local"
    for load in runs["load"].unique():
        _bench(base, f"loads/{load}", 20.0)
    for (study, figure, group, rep), members in jobs.items():
        _bench(base, f"{study}/{figure}/interleaved/{group}/r{rep}", 40.0)
        for r in members:
            _bench(base, f"{study}/{figure}/{r.point}/r{rep}", 0.5)
            _run_log(base / "raw" / study / figure / r.point / f"r{rep}.jsonl", 3.0, interleave=True)
    loads = 20.0 * runs["load"].nunique()
    figures, _ = targets.estimate(tmp_path, "local")
    fig8 = figures.set_index("target").loc["slr/fig8"]
    assert fig8["unmeasured jobs"] == 0 and fig8["seconds"] == pytest.approx(40.0 * len(jobs) + loads)
    assert fig8["jobs"] == len(runs) + len(jobs) + runs["load"].nunique()

    for (study, figure, group, rep), members in jobs.items():
        (base / "benchmarks" / study / figure / "interleaved" / group / f"r{rep}.tsv").unlink()
        for r in members:
            _bench(base, f"{study}/{figure}/{r.point}/r{rep}", 10.0)
            _run_log(base / "raw" / study / figure / r.point / f"r{rep}.jsonl", 6.0, interleave=False)
    figures, _ = targets.estimate(tmp_path, "local")
    apart = sum(4.0 + 6.0 * len(members) for members in jobs.values())
    assert figures.set_index("target").loc["slr/fig8", "seconds"] == pytest.approx(apart + loads)


def test_a_shipped_reference_says_its_interleaved_runs_in_its_tidy_tables(tmp_path):
    """No raw logs shipped: an interleaved run's tidy rows
    (setup_interleave_members) keep its 0.5 s copy job from being taken
    for the run; the reference's 40 s job is the estimate."""
    from lsmrepro.plan import studies
    runs = studies.runs(studies.load_scale("local"), "slr", "fig8")
    jobs = studies.interleave_groups(runs)
    ref = tmp_path / "reference" / "local"
    rows = []
    for load in runs["load"].unique():
        _bench(ref, f"loads/{load}", 20.0)
    for (study, figure, group, rep), members in jobs.items():
        _bench(ref, f"{study}/{figure}/interleaved/{group}/r{rep}", 40.0)
        for r in members:
            _bench(ref, f"{study}/{figure}/{r.point}/r{rep}", 0.5)
            run = dict(study=study, experiment=figure, point=r.point, repetition=rep, source="x.jsonl:1")
            rows += [dict(run, metric="run_seconds", value=3.0), dict(run, metric="setup_ops", value=r.ops),
                     dict(run, metric="setup_interleave_members", value=len(members))]
    (ref / "tidy").mkdir(parents=True)
    pd.DataFrame(rows).to_csv(ref / "tidy" / "slr.csv.gz", index=False)
    figures, _ = targets.estimate(tmp_path, "local")
    assert figures.set_index("target").loc["slr/fig8", "seconds"] == \
        pytest.approx(40.0 * len(jobs) + 20.0 * runs["load"].nunique())


def test_a_job_of_an_engine_that_links_anothers_library_is_priced_by_that_engines_time(tmp_path):
    """doblix's RocksDB runs: measured as engine rocksdb (the shipped
    reference), priced for engine rocksdb-doblix with the same options and
    data (it links rocksdb's library); other engines' ids stay apart."""
    from engines.registry import load_variants
    from lsmrepro.plan import studies
    variants = load_variants()
    assert targets._library_id("doblix/fig9/engine=rocksdb-doblix+table=block+dataset=AMZN", variants) == \
        "doblix/fig9/engine=rocksdb+table=block+dataset=AMZN"
    assert targets._library_id("engine=bourbon+dataset=ar", variants) == "engine=bourbon+dataset=ar"
    runs = studies.runs(studies.load_scale("local"), "doblix", "fig1")
    ref = tmp_path / "reference" / "local"
    for load in runs["load"].unique():
        _bench(ref, f"loads/{load.replace('engine=rocksdb-doblix', 'engine=rocksdb')}", 30.0)
    for r in runs.itertuples():
        _bench(ref, f"{r.study}/{r.figure}/{r.point.replace('engine=rocksdb-doblix', 'engine=rocksdb')}/r{r.rep}", 4.0)
    fig1 = targets.estimate(tmp_path, "local")[0].set_index("target").loc["doblix/fig1"]
    assert fig1["unmeasured jobs"] == 0 and fig1["seconds"] == 30.0 * runs["load"].nunique() + 4.0 * len(runs)


def test_the_report_counts_the_differing_verdicts_and_the_disjoint_intervals(two_runs):
    from lsmrepro.publish import report
    tmp, ours, ref = two_runs
    compare.compare("smoke", ref, results=tmp / "results")
    html = report.compare_section(report._compare(tmp / "results", "smoke"))
    assert "1 of 4 verdicts differ" in html and "Disjoint intervals: 2 of the 3 claims both runs measured" in html
    assert html.index("b-differs") < html.index("c-disjoint") < html.index("a-same")


def test_the_interval_model_expects_two_percent_disjoint_and_names_a_figure_above_it():
    """Equal-width honest intervals of one truth are disjoint with chance
    2 (1 - Phi(1.645 sqrt 2)) = 1.98%; a figure with 3 disjoint of 5 is
    above the model (Poisson 95% of 0.1), one with none is not; a flip of
    two decided verdicts is counted against its bound."""
    def row(claim, figure, ours, ref, v=("reproduced", "reproduced")):
        return {"study": "s", "claim": claim, "figure": figure, "differs": v[0] != v[1],
                "verdict_ours": v[0], "verdict_reference": v[1],
                "ci_low_ours": ours - 0.1, "ci_high_ours": ours + 0.1, "ci_low_reference": ref - 0.1,
                "ci_high_reference": ref + 0.1}
    rows = [row(f"f{i}", "fig1 (Figure 1)", 1.0, 1.0 + (0.5 if i < 3 else 0.0),
                ("reproduced", "not reproduced") if i == 0 else ("reproduced", "reproduced")) for i in range(5)]
    rows += [row(f"g{i}", "fig2 (Figure 2)", 1.0, 1.05) for i in range(5)]
    cl = pd.DataFrame(rows)
    cl["intervals"] = compare._intervals(cl)
    assert compare.p_disjoint(cl.iloc[:1]).iloc[0] == pytest.approx(0.0198, abs=0.0005)
    exp = compare.expected_counts(cl).set_index("figure")
    assert exp.loc["all", "disjoint"] == 3 and exp.loc["all", "disjoint_expected"] == pytest.approx(0.2, abs=0.01)
    assert exp.loc["s/fig1", "exceeds"] == "yes" and exp.loc["s/fig2", "exceeds"] == ""
    assert exp.loc["s/fig1", "flips"] == 1 and exp.loc["s/fig1", "changed"] == 1
    text = compare.expected_text(compare.expected_counts(cl))
    assert text.startswith("observed 3 disjoint 90% intervals, 0.2 expected") and text.endswith("Figures above the model (Poisson 95%): s/fig1")


def test_a_time_limited_run_is_priced_as_it_measured_not_scaled_by_its_planned_ops(tmp_path):
    """A run YCSB maxexecutiontime stopped after 100 ops in 6 s (its job
    10 s: a start-up of 4 s) costs 10 s again at the same limit, not 6 s x
    its ops / 100; the same run from a shipped reference's tidy rows
    (run_time_limited, run_ops) too. Without the flag it scales."""
    from lsmrepro.plan import studies
    runs = studies.runs(studies.load_scale("local"), "baseline", "point")
    base = tmp_path / "local"

    def raw_log(path, limited):
        path.parent.mkdir(parents=True, exist_ok=True)
        limit = {"ops_planned": 1000000, "time_limit_seconds": 6.0, "time_limited": True} if limited else {}
        path.write_text(json.dumps({"type": "run", "workload": {"kind": "point"}}) + "\n" +
                        json.dumps({"type": "phase", "phase": "run", "ops": 100, "seconds": 6.0, **limit}) + "\n")

    for load in runs["load"].unique():
        _bench(base, f"loads/{load}", 20.0)
    for r in runs.itertuples():
        _bench(base, f"{r.study}/{r.figure}/{r.point}/r{r.rep}", 10.0)
        raw_log(base / "raw" / r.study / r.figure / r.point / f"r{r.rep}.jsonl", limited=True)
    loads = 20.0 * runs["load"].nunique()
    point = lambda: targets.estimate(tmp_path, "local")[0].set_index("target").loc["baseline/point", "seconds"]  # noqa: E731
    assert point() == pytest.approx(loads + 10.0 * len(runs))
    for r in runs.itertuples():
        raw_log(base / "raw" / r.study / r.figure / r.point / f"r{r.rep}.jsonl", limited=False)
    assert point() == pytest.approx(loads + sum(4.0 + 6.0 * r.ops / 100 for r in runs.itertuples()), rel=1e-3)

    shutil.rmtree(base)
    ref = tmp_path / "reference" / "local"
    rows = []
    for load in runs["load"].unique():
        _bench(ref, f"loads/{load}", 20.0)
    for r in runs.itertuples():
        _bench(ref, f"{r.study}/{r.figure}/{r.point}/r{r.rep}", 10.0)
        run = dict(study=r.study, experiment=r.figure, point=r.point, repetition=r.rep, source="x.jsonl:1")
        rows += [dict(run, metric="run_seconds", value=6.0), dict(run, metric="setup_ops", value=r.ops),
                 dict(run, metric="run_ops", value=100), dict(run, metric="run_time_limited", value=1)]
    (ref / "tidy").mkdir(parents=True)
    pd.DataFrame(rows).to_csv(ref / "tidy" / "baseline.csv.gz", index=False)
    assert point() == pytest.approx(loads + 10.0 * len(runs))


def test_a_run_never_timed_is_priced_by_its_figures_timed_runs_and_said_so(tmp_path):
    """baseline/point at local with every load timed (20 s) and the runs of
    one point only (10 s): the other points' runs cost what that point's
    did, counted as priced by like jobs, not as unmeasured."""
    from lsmrepro.plan import studies
    runs = studies.runs(studies.load_scale("local"), "baseline", "point")
    base = tmp_path / "local"
    for load in runs["load"].unique():
        _bench(base, f"loads/{load}", 20.0)
    timed = runs[runs["point"] == runs["point"].iloc[0]]
    for r in timed.itertuples():
        _bench(base, f"{r.study}/{r.figure}/{r.point}/r{r.rep}", 10.0)
    point = targets.estimate(tmp_path, "local")[0].set_index("target").loc["baseline/point"]
    assert point["unmeasured jobs"] == 0 and point["priced by like jobs"] == len(runs) - len(timed)
    assert point["seconds"] == pytest.approx(20.0 * runs["load"].nunique() + 10.0 * len(runs))


def test_a_load_never_timed_is_priced_by_its_figures_timed_loads(tmp_path):
    """One of baseline/point's loads timed (30 s): its other load sets'
    (its id but the seed) cost that by _same_load, the figure's other loads
    30 s each as like jobs; with none timed they stay unmeasured."""
    from lsmrepro.plan import studies
    runs = studies.runs(studies.load_scale("local"), "baseline", "point")
    base = tmp_path / "local"
    for r in runs.itertuples():
        _bench(base, f"{r.study}/{r.figure}/{r.point}/r{r.rep}", 10.0)
    loads = runs["load"].unique()
    (base / "benchmarks" / "loads").mkdir(parents=True)
    point = targets.estimate(tmp_path, "local")[0].set_index("target").loc["baseline/point"]
    assert point["unmeasured jobs"] == len(loads) and point["priced by like jobs"] == 0
    _bench(base, f"loads/{loads[0]}", 30.0)
    point = targets.estimate(tmp_path, "local")[0].set_index("target").loc["baseline/point"]
    like = sum(not targets._same_load(x, loads[0]) for x in loads)
    assert 0 < like < len(loads) - 1
    assert point["unmeasured jobs"] == 0 and point["priced by like jobs"] == like
    assert point["seconds"] == pytest.approx(30.0 * len(loads) + 10.0 * len(runs))


def test_a_run_timed_as_an_interleaved_member_is_priced_by_its_phase_and_its_share_of_the_group(tmp_path):
    """doblix fig1's runs, now jobs of their own, timed by an earlier run as
    members of one interleaved job of 40 s (each member's run phase 3 s at
    300,000 ops, its copy job 0.5 s; loads 20 s of which 18 s load phase: a
    start-up of 2 s): each costs the start-up, its phase at its ops and its
    share of the group job's rest, (40 - 2 - 3 n) / n for n members."""
    from lsmrepro.plan import studies
    runs = studies.runs(studies.load_scale("local"), "doblix", "fig1")
    assert (runs["group"] == "").all()
    base = tmp_path / "local"
    for load in runs["load"].unique():
        _bench(base, f"loads/{load}", 20.0)
        log = base / "raw" / "loads" / f"{load}.jsonl"
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(json.dumps({"type": "phase", "phase": "load", "seconds": 18.0}) + "\n")
    _bench(base, "doblix/fig1/interleaved/g/r0", 40.0)
    points = runs["point"].unique()
    for p in points:
        _bench(base, f"doblix/fig1/{p}/r0", 0.5)
        _run_log(base / "raw" / "doblix" / "fig1" / p / "r0.jsonl", 3.0, interleave=True)
    n = len(points)
    rest = (40.0 - 2.0 - 3.0 * n) / n
    want = sum(2.0 + 3.0 * r.ops / 300000 + rest for r in runs.itertuples()) + 20.0 * runs["load"].nunique()
    fig1 = targets.estimate(tmp_path, "local")[0].set_index("target").loc["doblix/fig1"]
    assert fig1["unmeasured jobs"] == 0 and fig1["priced by like jobs"] == len(runs)
    assert fig1["seconds"] == pytest.approx(want)


def test_a_long_load_id_keeps_its_seed_so_its_load_sets_price_each_other():
    """doblix fig9's load ids pass the file-name bound: digested, with the
    seed kept after the digest; one design's load sets differ in it alone."""
    from lsmrepro.plan import studies
    runs = studies.runs(studies.load_scale("local"), "doblix", "fig9")
    loads = runs.drop_duplicates("load")
    assert loads["load"].str.contains(r"\+id=[0-9a-f]{12}\+seed=\d+$").all()
    assert loads["load"].str.len().max() <= 200
    by_design = loads.groupby(loads["load"].str.replace(r"\+seed=\d+$", "", regex=True))["load"].nunique()
    assert len(by_design) > 1 and (by_design >= 2).all()
    a, b = by_design.index[:2]
    assert targets._same_load(f"{a}+seed=1", f"{a}+seed=2") and not targets._same_load(f"{a}+seed=1", f"{b}+seed=1")


def test_a_pilot_scales_the_references_other_jobs_by_this_machines_measured_speed(tmp_path):
    """Every baseline job timed by the reference at 20 s; this machine ran
    three of its runs in 50 s and three of its loads in 30 s (a pilot): the
    reference's other runs cost 2.5x, its loads 1.5x, whatever the fio
    calibrations say; with one job of each kind both kinds take the pooled
    median, with fewer than three jobs in all the calibrations decide."""
    runs, ref = _reference_jobs(tmp_path, 20.0)
    for folder, iops in ((ref, 40000), (tmp_path / "local", 10000)):
        (folder / "hardware").mkdir(parents=True, exist_ok=True)
        pd.DataFrame([{"measurement": "randread-4k-qd1", "iops": iops, "bandwidth_MiBps": iops / 256},
                      {"measurement": "seqwrite-1m", "iops": 400, "bandwidth_MiBps": 400}]
                     ).to_csv(folder / "hardware" / "calibration.csv", index=False)
    loads = list(runs["load"].unique())
    _bench(tmp_path / "local", f"loads/{loads[0]}", 30.0)
    r0 = runs.iloc[0]
    _bench(tmp_path / "local", f"{r0.study}/{r0.figure}/{r0.point}/r{r0.rep}", 50.0)
    assert targets.machine_ratios(tmp_path, "local") is None  # two jobs: the fio calibrations scale
    assert targets.device_ratios(tmp_path, "local") == {"run": 4.0, "load": 1.0}

    r1 = runs.iloc[1]
    _bench(tmp_path / "local", f"{r1.study}/{r1.figure}/{r1.point}/r{r1.rep}", 50.0)
    assert targets.machine_ratios(tmp_path, "local") == {"load": (2.5, 3), "run": (2.5, 3)}  # pooled

    for load in loads[1:3]:
        _bench(tmp_path / "local", f"loads/{load}", 30.0)
    r2 = runs.iloc[2]
    _bench(tmp_path / "local", f"{r2.study}/{r2.figure}/{r2.point}/r{r2.rep}", 50.0)
    assert targets.machine_ratios(tmp_path, "local") == {"load": (1.5, 3), "run": (2.5, 3)}
    figures, _ = targets.estimate(tmp_path, "local")
    assert figures.set_index("target").loc["baseline/point", "seconds"] == \
        pytest.approx(50.0 * len(runs) + 30.0 * len(loads))
    note = targets.reference_note(tmp_path, targets.job_times(tmp_path)[1])
    assert "loads x1.50 (3 jobs), runs x2.50 (3 jobs)" in note and "fio" not in note


def test_a_phase_a_time_limit_stopped_takes_its_limit_on_any_machine():
    assert targets._stretched((60.0, 760, True), 2.5) == (60.0, 760, True)
    assert targets._stretched((10.0, 1000, False), 2.5) == (25.0, 1000, False)
    assert targets._stretched(None, 2.5) is None


def test_a_pilot_is_per_study_the_two_runs_of_median_cost_the_reference_timed(tmp_path):
    """baseline's loads timed 10, 20, ... s and its runs 5 s by a reference:
    the pilot is the two runs of median cost (run and load), replica 0's,
    each a job the reference timed; with no reference the command says what
    it needs."""
    from lsmrepro.plan import studies
    runs = studies.runs(studies.load_scale("local"), "baseline", "point")
    ref = tmp_path / "reference" / "local"
    loads = sorted(runs["load"].unique())
    for i, load in enumerate(loads):
        _bench(ref, f"loads/{load}", 10.0 * (i + 1))
    for r in runs.itertuples():
        _bench(ref, f"{r.study}/{r.figure}/{r.point}/r{r.rep}", 5.0)
    pilot = targets.pilot_targets(tmp_path, "local")
    assert len(pilot) == 2 and all(p.startswith(f"{tmp_path}/local/raw/baseline/point/") for p in pilot)
    chosen = {r.load for r in runs.itertuples() if f"{targets._run_stem(tmp_path, 'local', r)}.jsonl" in pilot}
    timed = sorted({r.load for r in runs.itertuples() if r.replica == 0}, key=loads.index)
    assert chosen == set(timed[len(timed) // 2 - 1:len(timed) // 2 + 1])

    empty = tmp_path / "empty"
    r = subprocess.run([sys.executable, "-m", "lsmrepro.plan.targets", "pilot", "--scale", "local",
                        "--results", str(empty)], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 2 and "benchmarks: *.tsv: job times of loads and runs" in r.stderr, r.stderr


def test_the_estimate_names_each_figures_loads_x_runs_a_point():
    rows = pd.DataFrame({"point": ["a"] * 4 + ["b"] * 2 + ["a+replica=1"] * 6,
                         "replica": [0] * 6 + [1] * 6,
                         "load": ["l0", "l1", "l0", "l1", "m0", "m0"] + [f"r{i}" for i in range(6)],
                         "rep": [0, 1, 2, 3, 0, 1] + list(range(6))})
    assert targets._design(rows) == "2 x 4"
    assert targets._design(rows.iloc[:0]) == "—"

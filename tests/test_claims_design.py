"""Repetitions as loads x runs (issue 52 items 1 and 3): Kalibera & Jones's
runs per load from the variance components and the costs, every figure a
claim reads at local on at least two independent loads, and the loads a
claim compares paired (load i of each side from the same seed)."""

import math

from lsmrepro.claims import design
from lsmrepro.claims import measure as cm
from lsmrepro.claims.spec import load_claims
from lsmrepro.plan import studies


def test_runs_per_load_is_kalibera_and_jones_optimum_within_its_bounds():
    # r = sqrt((c_load / c_run) * (T1^2 / T2^2)): a load 4x a run's cost, a run's sd twice a load's
    assert design.runs_per_load(10.0, 40.0, 0.2, 0.1) == 4
    assert design.runs_per_load(10.0, 40.0, 0.1, 0.1) == 2
    assert design.runs_per_load(100.0, 10.0, 0.05, 0.2) == 1  # dear runs, a large load effect: one run a load
    assert design.runs_per_load(10.0, 40.0, 0.2, 0.0) == design.MAX_RUNS_PER_LOAD  # no load effect measured
    assert design.runs_per_load(10.0, 0.0, 0.2, 0.1) == design.MAX_RUNS_PER_LOAD  # an unpriced load: not multiplied
    assert design.runs_per_load(1.0, 1e6, 0.2, 0.01) == design.MAX_RUNS_PER_LOAD
    assert round(math.sqrt(40 / 10 * 0.2 ** 2 / 0.1 ** 2)) == 4


def _loads_and_seeds(cfg, claim):
    specs = studies.figures(claim["study"])
    out = {}
    for f in cm.experiments(claim):
        if f in specs and "ops" in specs[f]:
            reps = studies.counts(cfg, claim["study"], f, specs[f])["repetitions"]
            out[f] = (min(studies.load_repetitions(cfg, claim["study"], f, reps), reps), specs[f].get("seed", 1000))
    return out


def test_every_claim_at_local_reads_at_least_two_paired_loads():
    """Item 1: the interval is built from per-load means with df from the
    loads, so a claim on one load has none; and repetition r of every figure
    a claim reads starts from load r mod L of seed + r mod L
    (lsmrepro.plan.studies.runs), so its sides' loads pair only when their
    figures share L and seed."""
    cfg = studies.load_scale("local")
    for claim in load_claims():
        found = _loads_and_seeds(cfg, claim)
        assert all(loads >= design.MIN_LOADS for loads, _ in found.values()), (claim["id"], found)
        assert len(set(found.values())) <= 1, (claim["id"], found)
        assert cm.loads_of(claim, cfg) in (None, *(loads for loads, _ in found.values()))


def test_the_two_sides_of_a_ratio_start_from_the_same_load_seed():
    """Load i of A and of B: the same key order and seed (their loads differ
    only by engine and its options), at every repetition."""
    cfg = studies.load_scale("local")
    runs = studies.runs(cfg, study="bourbon", figure="fig9")
    for rep, g in runs.groupby("rep"):
        assert g["load_seed"].nunique() == 1, rep
        assert set(g["load"].str.extract(r"seed=(\d+)")[0]) == {str(1000 + rep % 2)}
    assert runs["load_seed"].nunique() == 2


def test_a_replicated_figure_runs_identical_points_on_independent_loads():
    """A/A replicas (config/scale.schema.yaml `replicas`): every point twice,
    the same engine, options and data, told apart by the factor `replica`,
    each replica on loads of its own seeds and its point's request stream
    (as the systems a claim compares share theirs); the repetitions of one
    replica still pair across its systems."""
    import copy
    cfg = copy.deepcopy(studies.load_scale("smoke"))
    plain = studies.runs(cfg, study="bourbon", figure="fig9")
    cfg["counts"]["figures"]["bourbon/fig9"]["replicas"] = 2
    runs = studies.runs(cfg, study="bourbon", figure="fig9")
    assert len(runs) == 2 * len(plain)
    by = runs.assign(replica=runs["factors"].map(lambda f: f["replica"]))
    assert sorted(by["replica"].unique()) == ["0", "1"] and by["point"].str.contains(r"\+replica=[01]$").all()
    a, b = (by[by["replica"] == x].reset_index(drop=True) for x in ("0", "1"))
    same = ["engine", "dataset", "workload", "rep"]
    assert a[same].equals(b[same]) and list(a["options"]) == list(b["options"])
    assert not set(a["load"]) & set(b["load"])  # independent loads
    assert (b["load_seed"] - a["load_seed"] == studies.REPLICA_SEED_STRIDE).all()
    assert (b["seed"] == a["seed"]).all()  # the point's request stream
    assert not set(a["point"]) & set(b["point"])
    for rep, g in a.groupby("rep"):  # within a replica the systems' loads pair as before
        assert g["load_seed"].nunique() == 1


REPLICATED = {("lsm-eval", "fig8"), ("slr", "fig8"), ("doblix", "fig13a"), ("bourbon", "fig10")}


def _members_pages(rows):
    """bench_group's pages per member (a copy of its own or links) of an
    interleaved job's rows, their loads standing for the databases."""
    from lsmrepro.run.bench_group import own_copies
    return dict(zip((r.point for r in rows), own_copies([{"from": r.load} for r in rows])))


def test_a_replica_of_one_point_takes_turns_in_its_points_job_on_a_load_of_its_own():
    """The A/A replicas in the studies' own designs (local.yaml
    replica_select): only the selected point gets replica 1; where the
    figure interleaves, replica 1 is one more member of its point's job,
    with the job's request stream (lsmbench runs one for all members:
    rule bench_group's shared arguments) and a load of its own, alone on
    it, so on linked pages of its own; and its joining changes no other
    member's pages (lsmrepro/run/bench_group.py, Pages)."""
    cfg = studies.load_scale("local")
    for study, fig in sorted(REPLICATED):
        runs = studies.runs(cfg, study=study, figure=fig)
        one = runs[runs["replica"] == 1]
        entry = cfg["counts"]["figures"][f"{study}/{fig}"]
        assert len(one) and len(one) == studies.selection(runs, entry["replica_select"]).sum() / 2, (study, fig)
        assert (runs["factors"].map(lambda f: f["replica"]) == runs["replica"].astype(str)).all()
        for r in one.itertuples():
            twin = runs[(runs["point"] == r.point.replace("+replica=1", "+replica=0")) & (runs["rep"] == r.rep)].iloc[0]
            assert r.run_args == twin.run_args and r.group == twin.group and r.options == twin.options
            assert r.load != twin.load and r.load_seed == twin.load_seed + studies.REPLICA_SEED_STRIDE
            assert not (runs[runs["replica"] == 0]["load"] == r.load).any()  # no other run starts from it
        groups = studies.interleave_groups(runs)
        if not studies.figures(study)[fig].get("interleave"):
            assert not any(r.group for r in one.itertuples())
            continue
        for key, rows in groups.items():
            pages = _members_pages(rows)
            without = _members_pages([r for r in rows if r.replica == 0])
            assert all(pages[p] == o for p, o in without.items()), key  # the others' pages as before
            assert not any(pages[r.point] for r in rows if r.replica == 1), key  # linked, alone on its load


def test_a_replica_in_a_group_of_one_shared_load_would_change_the_others_pages():
    """Why bourbon's interleaved figures have no A/A replica: their members
    share one load's pages, and a member on a load of its own turns every
    member after the first to a copy of its own (local.yaml's note)."""
    import copy
    cfg = copy.deepcopy(studies.load_scale("local"))
    cfg["counts"]["figures"]["bourbon/fig9"].update(replicas=2, replica_select="learning=never")
    rows = next(iter(studies.interleave_groups(studies.runs(cfg, study="bourbon", figure="fig9")).values()))
    assert not any(_members_pages([r for r in rows if r.replica == 0]).values())
    assert any(_members_pages(rows).values())


def test_replica_select_needs_replicas():
    import copy
    import pytest
    from base.errors import InputError
    cfg = copy.deepcopy(studies.load_scale("local"))
    del cfg["counts"]["figures"]["slr/fig8"]["replicas"]
    with pytest.raises(InputError, match="replica_select"):
        studies.check_scale(cfg, "config/scales/local.yaml")


def test_a_claim_naming_no_replica_reads_the_studys_own_runs():
    """Replicas 1.. are the A/A claims' alone: a claim that names no
    replica reads replica 0 (and the rows of figures without replicas),
    so a replicated point has no more loads than the points it is compared
    with; an A/A claim reads the replica it names."""
    import pandas as pd
    tidy = pd.DataFrame({"metric": ["m"] * 4, "index": ["pgm", "pgm", "fp", "x"],
                         "replica": ["0", "1", "0", None], "value": [1.0, 2.0, 3.0, 4.0]})
    assert cm.select_rows(tidy, {"metric": "m"}, "c", "where")["value"].tolist() == [1.0, 3.0, 4.0]
    assert cm.select_rows(tidy, {"index": "pgm", "replica": 1}, "c", "where")["value"].tolist() == [2.0]
    assert cm.select_rows(tidy, {"index": "pgm", "replica": 0}, "c", "where")["value"].tolist() == [1.0]
    assert cm.select_rows(tidy.drop(columns="replica"), {"metric": "m"}, "c", "where")["value"].tolist() == [1.0, 2.0, 3.0, 4.0]
    text = tidy.assign(replica=["0", "1", "0", "nan"])  # the power check's text rows: a figure without replicas has "nan"
    assert cm.select_rows(text, {"metric": "m"}, "c", "where")["value"].tolist() == [1.0, 3.0, 4.0]


def test_a_replicas_runs_are_priced_by_its_points_measured_job_times():
    """The estimate prices replica i of a point from the point's own job
    times (it runs the same work), so a replicated figure is not unmeasured."""
    from lsmrepro.plan import targets
    assert targets.unreplicated("engine=leveldb+dataset=uniform+workload=lookups+replica=1") == \
        "engine=leveldb+dataset=uniform+workload=lookups"
    assert targets.unreplicated("engine=leveldb+dataset=uniform+workload=lookups") == \
        "engine=leveldb+dataset=uniform+workload=lookups"

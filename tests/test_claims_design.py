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
    each replica on loads and request streams of its own seeds; the
    repetitions of one replica still pair across its systems."""
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
    assert (b["seed"] - a["seed"] == studies.REPLICA_SEED_STRIDE).all()
    assert not set(a["point"]) & set(b["point"])
    for rep, g in a.groupby("rep"):  # within a replica the systems' loads pair as before
        assert g["load_seed"].nunique() == 1


def test_a_replicas_runs_are_priced_by_its_points_measured_job_times():
    """The estimate prices replica i of a point from the point's own job
    times (it runs the same work), so a replicated figure is not unmeasured."""
    from lsmrepro.plan import targets
    assert targets.unreplicated("engine=leveldb+dataset=uniform+workload=lookups+replica=1") == \
        "engine=leveldb+dataset=uniform+workload=lookups"
    assert targets.unreplicated("engine=leveldb+dataset=uniform+workload=lookups") == \
        "engine=leveldb+dataset=uniform+workload=lookups"

"""Studies as data: the registry, a spec's validation (each bad input one
error naming file, field and what was expected) and its expansion into runs."""
import copy
import json

import pytest
import yaml
from hypothesis import given, strategies as st

from lsmrepro.plan import studies
from base.errors import InputError

SMOKE = studies.load_scale("smoke")


def test_baseline_point_expands_to_engine_dataset_repetition_runs():
    runs = studies.runs(SMOKE, "baseline", "point")
    assert len(runs) == 2 * 2 * SMOKE["counts"]["max_repetitions"]
    assert set(runs["point"]) == {f"engine={e}+dataset={d}+workload=lookups"
                                  for e in ("leveldb", "rocksdb") for d in ("uniform", "lognormal")}
    rocks = runs[runs["engine"] == "rocksdb"].iloc[0]
    # the option set applies to every rocksdb point and shapes its load
    assert "-o" in rocks.run_args and "write_buffer_size=4194304" in rocks.run_args
    assert "write_buffer_size=4194304" in rocks.load
    assert rocks.run_args[:2] == ["--phase", "run"] and rocks.load_args[:2] == ["--phase", "load"]
    assert set(runs["ops"]) == {SMOKE["counts"]["max_ops"]}
    # one load per (engine, dataset, repetition): the same seed loads and runs
    assert runs["load"].nunique() == len(runs)
    assert all(f"seed={s}" in ld for s, ld in zip(runs["seed"], runs["load"]))


def test_shared_load_repetitions_start_from_one_load_with_their_own_streams():
    """load_repetitions L: repetition r starts from the load of repetition
    r mod L (its seed) and runs its own request stream (seed + r)."""
    def scale(**entry):
        return {"counts": {"figures": {"baseline/point": {"repetitions": 4, **entry}}}}
    runs = studies.runs(scale(load_repetitions=1), "baseline", "point")
    for _, point in runs.groupby("point"):
        assert list(point["rep"]) == [0, 1, 2, 3] and point["load"].nunique() == 1
        assert list(point["seed"]) == [1000, 1001, 1002, 1003] and set(point["load_seed"]) == {1000}
        for r in point.itertuples():
            assert r.load_args[r.load_args.index("--seed") + 1] == "1000"
            assert r.run_args[r.run_args.index("--seed") + 1] == str(r.seed)
    two = studies.runs(scale(load_repetitions=2), "baseline", "point")
    assert list(two.groupby("point")["load_seed"].apply(list).iloc[0]) == [1000, 1001, 1000, 1001]
    # without it every repetition loads its own database (the paper's protocol)
    own = studies.runs(scale(), "baseline", "point")
    assert own.groupby("point")["load"].nunique().eq(4).all() and (own["seed"] == own["load_seed"]).all()


def test_runs_inserting_held_out_keys_share_a_load_drawn_with_its_seed():
    """The keys YCSB D inserts are held out of the load by the load's seed
    (--holdout-seed, given to both phases): repetitions share that load."""
    scale = {"counts": {"figures": {"bourbon/fig16": {"repetitions": 3, "load_repetitions": 1}}}}
    runs = studies.runs(scale, "bourbon", "fig16")
    loads = runs.groupby("workload")["load"].nunique() / runs.groupby("workload")["engine"].nunique()
    assert loads.to_dict() == {"A": 1, "B": 1, "D": 1, "F": 1}
    d = runs[runs["workload"] == "D"]
    assert list(d["seed"]) != list(d["load_seed"])
    for r in d.itertuples():
        for args in (r.load_args, r.run_args):
            assert args[args.index("--holdout-seed") + 1] == str(r.load_seed)
    a = runs[runs["workload"] == "A"]
    assert not set(a["load"]) & set(d["load"])
    assert "--holdout-share" not in a["run_args"].iloc[0]


def test_inserting_mixes_of_a_dataset_start_from_one_load():
    """Every inserting mix of a study with as many operations holds out what
    the most insert-heavy one inserts: DobLIX's mixes of a dataset share a
    load, its read-only mix too (every_mix_shares_the_load); in a study
    without it (bourbon fig14, YCSB A-F) a mix that inserts nothing keeps
    every key."""
    runs = studies.runs(studies.load_scale("local"), "doblix")
    fig9 = runs[runs["figure"] == "fig9"]
    assert fig9["load_seed"].nunique() >= 2  # local: every figure a claim reads on two loads or more (issue 52)
    for _, one in fig9.groupby(["engine", "table", "dataset", "load_seed"]):  # one load a seed
        by_mix = one.groupby("workload")["load"].unique().apply(list).to_dict()
        assert by_mix["read_only"] == by_mix["read_heavy"] == by_mix["balanced"] == by_mix["write_heavy"]
        assert len(by_mix["write_heavy"]) == 1
    quiet = fig9[fig9["workload"] == "read_only"].iloc[0]
    assert quiet.run_args[quiet.run_args.index("--holdout-share") + 1] == "1"
    bourbon = studies.runs(studies.load_scale("local"), "bourbon", "fig14")
    held = bourbon.groupby("workload")["load_args"].first().map(lambda a: "--holdout-share" in a)
    assert held["D"] and held["E"] and not held["A"] and not held["C"]
    heavy = fig9[fig9["workload"] == "read_heavy"].iloc[0]
    assert heavy.run_args[heavy.run_args.index("--holdout-share") + 1] == "1"
    # fig11's read-heavy runs (same operations) start from fig9's loads
    assert set(runs[runs["figure"] == "fig11"]["load"]) <= set(fig9["load"])
    # fig15 runs more operations: its own holdout, sized for its 10% inserts
    agent = runs[runs["figure"] == "fig15"].iloc[0]
    assert agent.load_args[agent.load_args.index("--holdout-share") + 1] == "0.1"


def test_paired_dimensions_advance_together(tmp_path):
    runs = studies.runs(studies.load_scale("local"), "doblix", "fig13c")
    pairs = set(zip(runs["key_encoding"], runs["value_bytes"]))
    assert pairs == {("be64_pad27", 127), ("be64_pad48", 43), ("be64_pad10", 47)}
    fig = {"paired": ["key_encoding", "value_bytes"], "key_encoding": ["be64", "be64_pad16"], "value_bytes": 64}
    with pytest.raises(InputError, match="paired"):
        studies._check_figure("doblix", "fig13c", fig, tmp_path / "experiments.yaml")


def test_interleaved_runs_of_a_repetition_and_condition_are_one_job():
    runs = studies.runs(studies.load_scale("local"), "slr", "fig8")
    jobs = studies.interleave_groups(runs)
    # one job per dataset and repetition, its five mechanisms each on its own
    # load, and equal-size SLR's A/A replica (local.yaml replica_select) on one more
    assert len(jobs) == runs["dataset"].nunique() * runs["rep"].nunique()
    for (_, _, group, rep), members in jobs.items():
        assert sorted((r.slr, r.replica) for r in members) == [("binary", 0), ("ea", 0), ("eq", 0), ("eq", 1),
                                                               ("eq-bad", 0), ("off", 0)]
        assert "slr=" not in group and "replica=" not in group
        assert len({r.load for r in members}) == 6 and {r.rep for r in members} == {rep}
    plain = studies.runs(studies.load_scale("local"), "baseline")
    assert set(plain["group"]) == {""} and not studies.interleave_groups(plain)


def test_writing_runs_of_an_interleaved_figure_take_turns_only_where_the_scale_says():
    """doblix fig9: the four systems of a dataset, workload and repetition
    are one job; the mixes that insert only with the scale's
    interleave_writes (none at local since its scale model flushes them)."""
    local = studies.load_scale("local")
    for writes in (True, False):
        cfg = copy.deepcopy(local)
        cfg["counts"]["figures"]["doblix/fig9"]["interleave_writes"] = writes
        runs = studies.runs(cfg, "doblix", "fig9")
        grouped = runs[runs["group"] != ""]
        assert set(grouped["workload"]) == (set(runs["workload"]) if writes else {"read_only"})
        jobs = studies.interleave_groups(runs)
        assert len(jobs) == len(grouped.drop_duplicates(["dataset", "workload", "rep"]))
        assert {tuple(sorted(r.table for r in m)) for m in jobs.values()} == {
            ("block", "bourbon-style", "doblix", "tridentkv-style")}
    cfg["counts"]["figures"]["doblix/fig15"]["interleave_writes"] = True  # fig15 has no `interleave`
    with pytest.raises(InputError, match="counts.figures.doblix/fig15.interleave_writes"):
        studies.check_scale(cfg, "local.yaml")
    assert studies.read_only({"kind": "ycsb", "spec": "workloadc"})
    assert not studies.read_only({"kind": "ycsb", "spec": "workloadc", "properties": {"updateproportion": 0.5}})
    assert not studies.read_only({"kind": "ycsb", "spec": "workloadf"})  # read-modify-write


def test_the_scale_model_sets_an_option_sets_sizes_and_refuses_interleaved_flushing_writes():
    """local's scale_model: bourbon's LevelDB sizes x 5/64 in every load and
    run of an option set that names it, doblix's write buffer sized to flush
    in a writing run, which then cannot take turns (a flush would land in
    another system's turn); smoke has no scale model."""
    local = studies.load_scale("local")
    load = studies.runs(local, "bourbon", "fig10").iloc[0].load_args
    model = {f"{k}={v['ours']}" for k, v in local["scale_model"]["bourbon-paper"].items()}
    assert "max_bytes_for_level_base=819200" in model
    for o in (*model, "bloom_bits=10"):
        assert o in load
    assert not any("max_bytes_for_level" in a for a in studies.runs(SMOKE, "bourbon", "fig10").iloc[0].load_args)
    fig9 = studies.runs(local, "doblix", "fig9")
    assert "write_buffer_size=5242880" in fig9.iloc[0].load_args
    assert set(fig9[fig9["group"] != ""]["workload"]) == {"read_only"}
    for model in local["scale_model"].values():
        assert all(set(v) == {"ours", "paper", "why"} and v["ours"] != v["paper"] for v in model.values())
    cfg = copy.deepcopy(local)
    cfg["counts"]["figures"]["doblix/fig9"]["interleave_writes"] = True
    with pytest.raises(InputError, match="interleave_writes.*scale_model.doblix-setup"):
        studies.check_scale(cfg, "local.yaml")
    cfg = copy.deepcopy(local)
    cfg["scale_model"]["no-such-set"] = {"write_buffer_size": {"ours": 1, "paper": 2, "why": "a reason long enough"}}
    with pytest.raises(InputError, match="scale_model.no-such-set"):
        studies.check_scale(cfg, "local.yaml")


def test_bourbons_wisckey_shares_its_load_and_takes_turns_where_nothing_learns_meanwhile():
    """bourbon: the paper's WiscKey is bourbon learning=never on the Bourbon
    variants' own load (the artifact's setup), the wisckey engine runs in the
    controls only, and a figure's runs of one repetition take turns in one
    process where they read only, in memory, and nothing learns in the
    background (learning never or offline)."""
    runs = studies.runs(studies.load_scale("local"), "bourbon")
    assert set(runs[runs["engine"] == "wisckey"]["figure"]) == {"whole-keys", "scan-steps"}
    bourbon = runs[runs["engine"] == "bourbon"]
    for _, one in bourbon.groupby(["figure", "dataset", "workload", "load_order", "rep", "replica"]):
        assert one["load"].nunique() == 1  # WiscKey and Bourbon read one tree (an A/A replica its own)
    jobs = studies.interleave_groups(runs)
    assert {fig for _, fig, _, _ in jobs} == {"fig8", "fig9", "fig12", "fig15", "fig17", "whole-keys", "scan-steps"}
    for (_, fig, _, _), members in jobs.items():
        spec = studies.figures("bourbon")[fig]
        assert "memory_limit" not in spec and spec.get("cache", "warm") == "warm", fig
        if fig in ("whole-keys", "scan-steps"):
            assert sorted(r.block_restart_interval for r in members) == ["1", "16"]
        else:
            assert {r.learning for r in members} <= {"never", "offline"}, fig
    fig9 = [sorted(f"{r.learning}/{r.granularity}" for r in m) for (_, f, _, _), m in jobs.items() if f == "fig9"]
    assert fig9 and all(m == ["never/nan", "offline/file", "offline/level"] for m in fig9), fig9[:1]
    alone = runs[(runs["group"] == "") & (runs["engine"] == "bourbon")]
    for fig, one in alone.groupby("figure"):
        spec = studies.figures("bourbon")[fig]
        reasons = {"cold": spec.get("cache") == "cold", "memory": "memory_limit" in spec,
                   "learner": bool(set(one["learning"]) & {"always", "cba"}),
                   "writes": not all(map(studies.read_only, spec["workloads"].values())),
                   "one member": one["point"].nunique() == one["dataset"].nunique()}
        assert any(reasons.values()), fig


@pytest.mark.parametrize("change, field, expected", [
    ({"interleave": ["colour"]}, "interleave", "an option of the figure's grid expected (slr), got 'colour'"),
    ({"engines": ["leveldb-learned", "leveldb"]}, "interleave", "a figure of one engine expected"),
])
def test_a_bad_interleave_is_one_error_naming_the_field(tmp_path, change, field, expected):
    fig = {**copy.deepcopy(studies.figures("slr")["fig8"]), **change}
    with pytest.raises(InputError) as e:
        studies._check_interleave(fig, tmp_path / "experiments.yaml", "figures.fig8")
    assert f"figures.fig8.{field}" in str(e.value) and expected in str(e.value)


def test_scale_counts_cap_and_override_per_figure():
    fig = studies.figures("baseline")["point"]
    assert studies.counts(studies.load_scale("paper"), "baseline", "point", fig) == {"ops": 10000000, "repetitions": 5}
    over = {"counts": {"max_ops": 100, "figures": {"baseline/point": {"repetitions": 1}}}}
    assert studies.counts(over, "baseline", "point", fig) == {"ops": 100, "repetitions": 1}


def test_select_narrows_runs_without_editing_the_spec():
    runs = studies.runs(SMOKE, select="engine=leveldb dataset=uniform rep=0")
    assert list(runs["point"]) == ["engine=leveldb+dataset=uniform+workload=lookups"] and list(runs["rep"]) == [0]
    with pytest.raises(InputError) as e:
        studies.runs(SMOKE, select="colour=red")
    assert "colour" in str(e.value) and "a run column expected" in str(e.value)


def _spec(tmp_path, monkeypatch, mutate):
    """A copy of paper/ with baseline's spec changed by `mutate`."""
    spec = copy.deepcopy(studies.load_spec("baseline"))
    mutate(spec["figures"]["point"])
    folder = tmp_path / "baseline"
    folder.mkdir()
    (folder / "experiments.yaml").write_text(yaml.safe_dump(spec))
    monkeypatch.setattr(studies, "PAPER", tmp_path)
    studies.load_spec.cache_clear()
    return tmp_path / "baseline" / "experiments.yaml"


@pytest.mark.parametrize("mutate, field, expected", [
    (lambda f: f.__setitem__("engines", ["leveldb", "levledb"]), "figures.point.engines.1", "an engine of engines/engines.yaml"),
    (lambda f: f["datasets"].__setitem__("uniform", "nosuch"), "figures.point.datasets.uniform", "a dataset of workloads/datasets.yaml"),
    (lambda f: f.__setitem__("option_sets", {"rocksdb": ["nosuch"]}), "figures.point.option_sets.rocksdb", "an option set"),
    (lambda f: f.__setitem__("option_sets", {"leveldb": ["leveldb-shape"]}), "figures.point.option_sets.leveldb", "is for rocksdb"),
    (lambda f: f.__setitem__("workloads", {"a": {"kind": "ycsb", "spec": "workloadz"}}), "figures.point.workloads.a.spec", "workloads/ycsb/"),
    (lambda f: f.__setitem__("workloads", {"a": {"kind": "scan"}}), "figures.point.workloads.a", ""),
    (lambda f: f.__setitem__("grid", {"leveldb": {"block_size": []}}), "figures.point.grid.leveldb.block_size", "should be non-empty"),
    (lambda f: f.__setitem__("grid", {"leveldb": {}}), "figures.point.grid.leveldb", "should be non-empty"),
    (lambda f: f.__setitem__("grid", {"leveldb": {"block_size": ["4 KiB"]}}), "figures.point.grid.leveldb.block_size", "part of a run id"),
    (lambda f: f.__setitem__("cache", "lukewarm"), "figures.point.cache", "warm, cold"),
    (lambda f: f.pop("workloads"), "figures.point", "workloads"),
])
def test_bad_spec_is_one_error_naming_file_field_and_expectation(tmp_path, monkeypatch, mutate, field, expected):
    path = _spec(tmp_path, monkeypatch, mutate)
    try:
        with pytest.raises(InputError) as e:
            studies.load_spec("baseline")
    finally:
        studies.load_spec.cache_clear()
    msg = str(e.value)
    assert "experiments.yaml" in msg and field in msg and expected in msg, msg
    assert path.exists()


def test_unknown_study_is_rejected():
    with pytest.raises(InputError) as e:
        studies.load_spec("nosuch")
    assert "studies.yaml" in str(e.value) and "baseline" in str(e.value)


def test_grid_is_the_product_of_its_lists(tmp_path, monkeypatch):
    def grid(f):
        f["grid"] = {"leveldb": {"block_size": [4096, 8192], "max_open_files": [100, 1000, 5000]}}
        f["run_options"] = ["max_open_files"]
        f["cache"] = ["warm", "cold"]
    _spec(tmp_path, monkeypatch, grid)
    try:
        runs = studies.runs({"counts": {"max_repetitions": 1, "figures": {}}}, "baseline", "point")
    finally:
        studies.load_spec.cache_clear()
    level = runs[runs["engine"] == "leveldb"]
    assert len(level) == 2 * 3 * 2 * 2  # block_size x max_open_files x datasets x cache
    assert "engine=leveldb+block_size=4096+max_open_files=100+dataset=uniform+workload=lookups+cache=cold" in set(level["point"])
    # a run-only option does not split the load; the cache mode does not either
    assert level["load"].nunique() == 2 * 2
    assert level["point"].is_unique


def test_a_runs_id_is_its_manifests_factors():
    """The run id names the folder; the factors travel as data (the manifest)."""
    for row in studies.runs(SMOKE).itertuples():
        manifest = json.loads(studies.run_manifest(row))
        assert row.point == studies.ID_SEP.join(f"{k}={v}" for k, v in manifest["factors"].items())
        assert manifest["engine"] == manifest["factors"]["engine"] == row.engine


def test_a_grid_list_is_the_union_of_its_products(tmp_path, monkeypatch):
    def mutate(f):
        f["engines"] = ["leveldb"]
        f.pop("option_sets", None)
        f["grid"] = {"leveldb": [{"block_size": [4096, 8192], "bloom_bits": [0]},
                                 {"block_size": [16384], "bloom_bits": [10]}]}
    _spec(tmp_path, monkeypatch, mutate)
    try:
        runs = studies.runs({"counts": {"max_repetitions": 1, "figures": {}}}, "baseline", "point")
    finally:
        studies.load_spec.cache_clear()
    combos = {(r.block_size, r.bloom_bits) for r in runs.itertuples()}
    assert combos == {("4096", "0"), ("8192", "0"), ("16384", "10")}


def test_a_scale_selects_grid_points_per_figure():
    scale = {"counts": {"max_repetitions": 1,
                        "figures": {"lsm-eval/fig7": {"select": "index=pgm position_boundary=16 dataset=uniform"}}}}
    runs = studies.runs(scale, "lsm-eval", "fig7")
    assert set(runs["index"]) == {"pgm"} and set(runs["position_boundary"]) == {"16"}
    assert len(runs) == 1
    bad = {"counts": {"figures": {"lsm-eval/fig7": {"select": "colour=red"}}}}
    with pytest.raises(InputError) as e:
        studies.runs(bad, "lsm-eval", "fig7")
    assert "counts.figures.lsm-eval/fig7.select" in str(e.value) and "colour" in str(e.value)


@pytest.mark.parametrize("select", ["keep_keys=False", "index=PGM", "index=pgm index=pmg"])
def test_a_select_value_no_run_has_is_an_error(select):
    """A misspelt value would otherwise silently drop the figure's runs."""
    bad = {"counts": {"figures": {"lsm-eval/fig7": {"select": select}}}}
    with pytest.raises(InputError) as e:
        studies.runs(bad, "lsm-eval", "fig7")
    wrong = select.split()[-1].split("=")[1]
    assert "counts.figures.lsm-eval/fig7.select" in str(e.value) and f"got {wrong}" in str(e.value)
    with pytest.raises(InputError, match="one of the runs' values expected"):
        studies.runs(SMOKE, "lsm-eval", select=select)


def test_memory_limit_as_a_share_of_the_database(tmp_path):
    from lsmrepro.run.bench import db_share_budget
    (tmp_path / "a.ldb").write_bytes(b"x" * 1000)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b").write_bytes(b"x" * 1000)
    assert db_share_budget(tmp_path, "50%db") == 1000
    assert db_share_budget(tmp_path, "50%db+1KiB") == 1000 + 1024
    with pytest.raises(InputError):
        db_share_budget(tmp_path, "half%db")


@given(st.integers(1, 10**9), st.integers(1, 100), st.one_of(st.none(), st.integers(1, 10**9)),
       st.one_of(st.none(), st.integers(1, 100)))
def test_scale_counts_never_exceed_the_papers(ops, reps, max_ops, max_reps):
    fig = {"ops": ops, "repetitions": reps}
    caps = {k: v for k, v in (("max_ops", max_ops), ("max_repetitions", max_reps)) if v is not None}
    got = studies.counts({"counts": {**caps, "figures": {}}}, "s", "f", fig)
    assert 1 <= got["ops"] <= ops and 1 <= got["repetitions"] <= reps
    assert got["ops"] == min(ops, max_ops or ops) and got["repetitions"] == min(reps, max_reps or reps)


def test_fence_pointer_runs_load_their_own_boundary():
    """lsm-eval's `load_shaping`: FP's tables are LevelDB's with a block every
    position_boundary entries (engines/leveldb-learned, "Fence pointers"),
    so an FP run's index and boundary are its load's, while the learned
    indexes retrain over one shared load per dataset."""
    runs = studies.runs(SMOKE, "lsm-eval", "fig7")
    runs = runs[(runs["dataset"] == "uniform") & (runs["rep"] == 0)]
    fp = runs[runs["index"] == "fp"]
    learned = runs[runs["index"] != "fp"]
    assert len(fp) > 1 and fp["load"].nunique() == len(fp)
    for row in fp.itertuples():
        assert "index=fp" in row.load and f"position_boundary={row.position_boundary}" in row.load
        assert "-o" in row.load_args and f"position_boundary={row.position_boundary}" in row.load_args
    assert not set(fp["load"]) & set(learned["load"])
    assert learned[learned["keep_keys"] == "false"]["load"].nunique() == 1

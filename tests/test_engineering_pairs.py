"""Study engineering's engine side benchmarks (tool lsmbench_pairs): their
lsmbench arguments planned from the spec (a study's own run arguments where
the figure says so), run side by side by lsmrepro.run.paired on a real
engine, made tidy with every number traced to its CSV line, and bad specs
refused with one error naming the field."""
import copy
import csv
import json
import struct

import pytest
import yaml

from base.errors import InputError
from lsmrepro.plan import studies, tools
from lsmrepro.run import pages, paired
from lsmrepro.run import tool as tool_run
from lsmrepro.tidy import aggregate

REPO = studies.REPO


def _runs(scale, figure):
    frame = studies.tool_runs(studies.load_scale(scale), "engineering")
    return frame[frame["figure"] == figure].reset_index(drop=True)


def _variants(row):
    return json.loads(row["args"][row["args"].index("--variants") + 1])


def _value(args, flag):
    return args[args.index(flag) + 1]


def test_doblix_creation_runs_the_doblix_studys_read_only_point_on_both_tables():
    runs = _runs("smoke", "doblix-creation")
    assert set(runs["point"]) == {"dataset=AMZN+key_encoding=be64", "dataset=AMZN+key_encoding=be64_pad56"}
    row = runs[runs["key_encoding"] == "be64_pad56"].iloc[0]
    assert row["dataset_name"] == "books" and tools.engines(row) == ["rocksdb", "rocksdb-doblix"]
    variants = _variants(row)
    assert list(variants) == ["rocksdb", "doblix"]  # the first is the base
    for name, table in (("rocksdb", "block"), ("doblix", "doblix")):
        a = variants[name]["args"]
        # the study's §IV-A setup: no block cache, zipfian reads; the point's key encoding, the scale's ops
        assert f"table={table}" in a and "block_cache_bytes=0" in a and "requestdistribution=zipfian" in a
        assert _value(a, "--key-encoding") == "be64_pad56" and _value(a, "--ops") == "20000"
        assert _value(a, "--phase") == "all" and _value(a, "--seed") == "1000"
    assert "doblix.error=128" in variants["doblix"]["args"]
    # the same arguments as the doblix study's own run of that point
    fig9 = studies.runs(studies.load_scale("smoke"), "doblix", "fig9", "workload=read_only dataset=AMZN table=doblix")
    # (but the held-out share: a read-only mix holds out what its study's
    # inserting mixes of as many operations insert, every_mix_shares_the_load)
    study = fig9.iloc[0]["run_args"]
    share = study[study.index("--holdout-share") + 1]
    assert set(study) - set(variants["doblix"]["args"]) <= {"run", "be64", "20000", share}
    # local: every dataset and both 64-byte encodings, three paired loads each
    local = _runs("local", "doblix-creation")
    assert len(local) == 6 * 3 * 3 and set(local["dataset"]) == {"WIKI", "AMZN", "FB", "OSM", "LOGN", "UNI"}


def test_a_variants_options_replace_the_studys():
    a = _variants(_runs("smoke", "doblix-steps").iloc[0])["rocksdb"]["args"]
    assert "perf_steps=true" in a and "perf_steps=false" not in a
    assert tools.with_option(["-o", "x=1", "--n", "x=2"], "x=3") == ["-o", "x=3", "--n", "x=2"]
    assert tools.with_flag(["--ops", "1"], "--seed", 7) == ["--ops", "1", "--seed", "7"]


def test_every_figure_runs_at_smoke_one_process_each():
    frame = studies.tool_runs(studies.load_scale("smoke"), "engineering")
    pairs = frame[frame["tool"] == "lsmbench_pairs"]
    assert set(frame["figure"]) == {*pairs["figure"], "pgm-speedup", "shared-pages"}
    assert sorted(pairs.groupby("figure").size().items()) == [
        ("bourbon-wisckey", 1), ("doblix-creation", 2), ("doblix-steps", 1), ("learned-indexes", 1), ("slr-search", 1)]
    assert all(_value(a, "--rounds") == "1" for a in pairs["args"])


def _spec_with(tmp_path, monkeypatch, figure, mutate):
    spec = copy.deepcopy(yaml.safe_load((REPO / "paper/engineering/experiments.yaml").read_text()))
    mutate(spec["figures"][figure])
    (tmp_path / "engineering").mkdir()
    (tmp_path / "engineering" / "experiments.yaml").write_text(yaml.safe_dump(spec))
    monkeypatch.setattr(studies, "PAPER", tmp_path)
    studies.load_spec.cache_clear()


@pytest.mark.parametrize("figure, mutate, field, expected", [
    ("learned-indexes", lambda f: f["tool_options"].__setitem__("loads", "sometimes"),
     "figures.learned-indexes.tool_options.loads", "each_round, once"),
    ("learned-indexes", lambda f: f["tool_options"]["variants"]["pgm"].pop("engine"),
     "figures.learned-indexes.tool_options.variants.pgm", "engine"),
    ("doblix-creation", lambda f: f["tool_options"].__setitem__("args", {"from": "fig9"}),
     "figures.doblix-creation.tool_options.args", "STUDY/FIGURE"),
    ("learned-indexes", lambda f: f["tool_grid"].pop("key_encoding"),
     "figures.learned-indexes.tool_grid", "dataset, key_encoding"),
    ("shared-pages", lambda f: f["tool_options"]["members"]["rs"].__setitem__("load", "rs"),
     "figures.shared-pages.tool_options.members.rs", "load: one of fp, pgm"),
    ("shared-pages", lambda f: f["tool_options"].__setitem__("order", ["shared", "linked"]),
     "figures.shared-pages.tool_options.order", "shared, own"),
])
def test_a_bad_pairs_figure_is_one_error_naming_the_field(tmp_path, monkeypatch, figure, mutate, field, expected):
    _spec_with(tmp_path, monkeypatch, figure, mutate)
    try:
        with pytest.raises(InputError) as e:
            studies.load_spec("engineering")
    finally:
        studies.load_spec.cache_clear()
    assert "engineering/experiments.yaml" in str(e.value) and field in str(e.value) and expected in str(e.value)


@pytest.mark.parametrize("figure, value, expected", [
    ("doblix-creation", "NOPE", "a dataset label of doblix/fig9 expected (WIKI, AMZN, FB, OSM, LOGN, UNI)"),
    ("learned-indexes", "nope", "a dataset of workloads/datasets.yaml expected"),
])
def test_an_unknown_dataset_names_what_exists(monkeypatch, figure, value, expected):
    spec = copy.deepcopy(studies.load_spec("engineering"))
    spec["figures"][figure]["tool_grid"]["dataset"] = [value]
    monkeypatch.setattr(studies, "all_figures", lambda: [("engineering", figure, spec["figures"][figure])])
    with pytest.raises(InputError) as e:
        studies.tool_runs(studies.load_scale("local"), "engineering")
    assert f"figures.{figure}.tool_grid.dataset" in str(e.value) and expected in str(e.value), str(e.value)


def test_a_learned_tables_search_is_its_model_and_last_mile():
    learned = {"model_lookups": 10, "s_block_ns": 300, "s_kv_ns": 200, "blocks_loaded": 12,
               "block_read_count": 15, "block_cache_hit_count": 5}
    assert paired.steps_per_get(learned, 10) == {"search_ns_per_get": 50.0, "blocks_per_get": 2.0,
                                                  "model_blocks_per_lookup": 1.2}
    block = {"model_lookups": 0, "s_block_plus_s_kv_ns": 900, "block_read_count": 10}
    assert paired.steps_per_get(block, 10) == {"search_ns_per_get": 90.0, "blocks_per_get": 1.0}
    assert paired.steps_per_get({}, 10) == {}


def _sosd(path, keys):
    path.write_bytes(struct.pack("<Q", len(keys)) + struct.pack(f"<{len(keys)}Q", *keys))
    return path


@pytest.mark.e2e  # builds leveldb-learned if needed; the runs take seconds
def test_a_pairs_run_is_tidy_rows_traced_to_its_csv(built, tmp_path):
    built("leveldb-learned")
    binary = REPO / "build/engines/leveldb-learned/bin/lsmbench"
    dataset = _sosd(tmp_path / "keys_uint64", list(range(1000, 1000 + 3 * 20000, 3)))
    row = _runs("smoke", "learned-indexes").iloc[0].copy()
    variants = {k: v for k, v in _variants(row).items() if k in ("fp", "pgm")}
    for v in variants.values():
        v["args"] = tools.with_flag(v["args"], "--ops", 2000)
    row["args"] = [*row["args"][:row["args"].index("--variants")], "--variants", json.dumps(variants)]
    row["args"][row["args"].index("--rounds") + 1] = "2"
    stem = tmp_path / "raw" / "engineering" / "learned-indexes" / row["point"] / "r0"
    stem.parent.mkdir(parents=True)
    record = f"{stem}{tool_run.RECORD_SUFFIX}"
    command = tools.command(row, {"lsmbench:leveldb-learned": str(binary), "dataset": str(dataset)},
                            str(tmp_path / "work"))
    tool_run.run(command[0], command[1:], f"{stem}.csv", record, json.loads(tools.manifest(row)), {"scale": "smoke"},
                 build_inputs=[binary])
    lines = list(csv.DictReader(open(f"{stem}.csv")))
    # two rounds, the order rotated; each round's variants from one seed
    assert [(r["variant"], r["round"], r["order"], r["seed"]) for r in lines] == [
        ("fp", "0", "0", "1000"), ("pgm", "0", "1", "1000"), ("pgm", "1", "0", "1001"), ("fp", "1", "1", "1001")]
    assert not (tmp_path / "work").exists()  # the databases are gone
    rows = aggregate.aggregate([f"{stem}.csv", record], tmp_path / "tidy.csv")
    p50 = [r for r in rows if r["metric"] == "get_p50_ns"]
    assert sorted((r["variant"], r["round"]) for r in p50) == [("fp", "0"), ("fp", "1"), ("pgm", "0"), ("pgm", "1")]
    pgm = next(r for r in p50 if (r["variant"], r["round"]) == ("pgm", "1"))
    assert pgm["dataset"] == "fb" and pgm["key_encoding"] == "be64" and float(pgm["value"]) > 0
    path, line = pgm["source"].rsplit(":", 1)
    assert open(path).read().splitlines()[int(line) - 1].startswith("pgm,leveldb-learned,1,0,1001,")
    # no search steps without perf_steps: no row, not a zero
    assert not [r for r in rows if r["metric"] == "search_ns_per_get"]
    index = {r["variant"]: float(r["value"]) for r in rows if r["metric"] == "index_bytes"}
    assert 0 < index["pgm"] < index["fp"]
    assert json.loads(open(record).read())["build_id"] == tool_run.digest(binary)


@pytest.mark.e2e
def test_a_failing_variant_leaves_no_run(built, tmp_path):
    built("leveldb-learned")
    binary = REPO / "build/engines/leveldb-learned/bin/lsmbench"
    dataset = _sosd(tmp_path / "keys_uint64", list(range(100, 5000)))
    variants = {"bad": {"engine": "leveldb-learned", "args": ["--seed", "1", "--phase", "all", "-o", "index=nosuch"]}}
    with pytest.raises(InputError) as e:
        paired.run(variants, {"leveldb-learned": str(binary)}, dataset, tmp_path / "work", 1, "each_round",
                   tmp_path / "out.csv")
    assert "exit status" in str(e.value) and "index=nosuch" in str(e.value)
    assert not (tmp_path / "out.csv").exists() and not (tmp_path / "work").exists()


def _plan(row):
    return json.loads(row["args"][row["args"].index("--plan") + 1])


def test_shared_pages_runs_fig8s_job_under_the_scales_budgets():
    row = _runs("smoke", "shared-pages").iloc[0]
    assert row["dataset_name"] == "fb" and tools.engines(row) == ["leveldb-learned"]
    plan = _plan(row)
    assert list(plan["loads"]) == ["fp", "pgm"] and "index=pgm" in plan["loads"]["pgm"]
    assert _value(plan["loads"]["fp"], "--phase") == "load" and _value(plan["run"], "--phase") == "run"
    assert _value(plan["run"], "--ops") == "2000" and "timers=on" in plan["run"]
    assert [m["point"] for m in plan["members"]][:2] == ["fp", "pgm"]  # FP first: the base of mean_to_first
    assert {m["load"] for m in plan["members"][1:]} == {"pgm"}
    assert set(plan["order"]) == {"shared", "own"} and plan["memory"] == "586%db"
    hardware = studies.load_scale("smoke")["hardware"]
    assert plan["load_memory"] == hardware["memory_limit"] and plan["allow_unenforced"] is True


@pytest.mark.e2e  # builds leveldb-learned if needed; two loads and two jobs of seconds
def test_a_pages_run_gives_each_member_its_ratio_to_fp_per_job(built, tmp_path):
    built("leveldb-learned")
    binary = REPO / "build/engines/leveldb-learned/bin/lsmbench"
    dataset = _sosd(tmp_path / "keys_uint64", list(range(1000, 1000 + 7 * 20000, 7)))
    plan = _plan(_runs("smoke", "shared-pages").iloc[0])
    plan["members"] = plan["members"][:3]
    plan["order"] = ["shared", "own"]
    plan["run"] = tools.with_flag(plan["run"], "--ops", 500)
    pages.run(plan, str(binary), str(dataset), tmp_path / "work", tmp_path / "out.csv")
    lines = list(csv.DictReader(open(tmp_path / "out.csv")))
    assert [(r["job"], r["pages"], r["member"]) for r in lines] == [
        ("0", "shared", "fp"), ("0", "shared", "pgm"), ("0", "shared", "rmi"),
        ("1", "own", "fp"), ("1", "own", "pgm"), ("1", "own", "rmi")]
    for r in lines:
        fp = next(x for x in lines if x["job"] == r["job"] and x["member"] == "fp")
        assert float(r["mean_to_first"]) == pytest.approx(float(r["get_mean_ns"]) / float(fp["get_mean_ns"]))
        assert float(r["load_data_ns"]) > 0 and float(r["index_bytes"]) > 0  # timers on, every table counted
    assert not (tmp_path / "work").exists()


@pytest.mark.e2e  # builds leveldb-learned if needed; one load a variant, then runs of a second each
def test_loads_once_reads_one_database_a_variant_every_round(built, tmp_path):
    built("leveldb-learned")
    binary = REPO / "build/engines/leveldb-learned/bin/lsmbench"
    dataset = _sosd(tmp_path / "keys_uint64", list(range(1000, 1000 + 5 * 20000, 5)))
    variants = {k: v for k, v in _variants(_runs("smoke", "learned-indexes").iloc[0]).items() if k in ("fp", "pgm")}
    for v in variants.values():
        v["args"] = tools.with_flag(v["args"], "--ops", 1000)
    paired.run(variants, {"leveldb-learned": str(binary)}, dataset, tmp_path / "work", 3, "once", tmp_path / "out.csv")
    lines = list(csv.DictReader(open(tmp_path / "out.csv")))
    assert [(r["variant"], r["seed"]) for r in lines] == [
        ("fp", "1000"), ("pgm", "1000"), ("pgm", "1001"), ("fp", "1001"), ("fp", "1002"), ("pgm", "1002")]
    for name in variants:  # the database's numbers are its one load's, the same every round
        mine = [r for r in lines if r["variant"] == name]
        assert len({(r["index_bytes"], r["creation_seconds"], r["tables"]) for r in mine}) == 1
        assert all(float(r["get_p50_ns"]) > 0 for r in mine)
    assert not (tmp_path / "work").exists()

import json

import pandas as pd
import pytest

from lsmrepro.tidy import aggregate
from base.errors import InputError


def test_every_tidy_value_is_the_number_at_its_source_line(tmp_path, make_log):
    logs = [make_log(f"{e}__uniform__r{r}.jsonl", engine=e, rep=r) for e in ("leveldb", "rocksdb") for r in (0, 1)]
    out = tmp_path / "tidy.csv"
    aggregate.aggregate(logs, out)
    tidy = pd.read_csv(out)
    assert set(tidy["engine"]) == {"leveldb", "rocksdb"}
    assert len(tidy) > 0
    for _, row in tidy.iterrows():
        path, line = row["source"].rsplit(":", 1)
        record = json.loads(open(path).read().splitlines()[int(line) - 1])
        if row["metric"] == "failed":  # a completed run: 0 at its end record, status ok
            assert row["value"] == 0 and record["type"] == "end" and record["status"] == "ok"
            continue
        flat = [v for v in record.values() if isinstance(v, (int, float))]
        for part in ("per_op", "steps", "counters"):
            flat += [v for v in record.get(part, {}).values() if isinstance(v, (int, float))]
        flat += list(((record.get("hooks") or {}).get("compaction_totals") or {}).values())
        if record.get("files_per_level"):  # regime_tree_levels: the deepest level with a table, plus one
            flat.append(max((i + 1 for i, n in enumerate(record["files_per_level"]) if n), default=0))
        if record["type"] == "run":  # the dataset's size and the device calibration
            flat.append(aggregate.run_field(row["metric"], record))
        assert any(abs(float(v) - row["value"]) < 1e-9 for v in flat), row.to_dict()


def test_aggregate_is_a_pure_function_of_the_logs(tmp_path, make_log):
    logs = [make_log("leveldb__uniform__r0.jsonl"), make_log("rocksdb__uniform__r0.jsonl", engine="rocksdb")]
    aggregate.aggregate(logs, tmp_path / "a.csv")
    aggregate.aggregate(list(reversed(logs)), tmp_path / "b.csv")
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()


def test_expected_metrics_present(tmp_path, make_log):
    out = tmp_path / "t.csv"
    aggregate.aggregate([make_log()], out)
    metrics = set(pd.read_csv(out)["metric"])
    for m in ("latency_mean", "latency_p99", "run_throughput", "driver_harness_per_op",
              "driver_engine_call_per_op", "index_bytes", "answers_wrong"):
        assert m in metrics


def test_runner_report_becomes_rows_with_field_sources(tmp_path, make_log):
    log = make_log("leveldb__uniform__r0.jsonl")
    report = tmp_path / "leveldb__uniform__r0.limits.json"
    report.write_text(json.dumps({"limit_bytes": 1 << 30, "peak_bytes": 12345, "oom_kills": 0,
                                  "enforced": True, "wall_seconds": 1.5, "other_cpu_share": 0.25,
                                  "loadavg_start": 3.5}))
    out = tmp_path / "t.csv"
    aggregate.aggregate([log, report], out)
    tidy = pd.read_csv(out)
    peak = tidy[tidy["metric"] == "memory_peak_bytes"].iloc[0]
    assert peak["value"] == 12345 and peak["source"] == f"{report}#peak_bytes"
    assert tidy[tidy["metric"] == "memory_enforced"].iloc[0]["value"] == 1
    share = tidy[tidy["metric"] == "host_other_cpu_share"].iloc[0]
    assert share["value"] == 0.25 and share["source"] == f"{report}#other_cpu_share"
    assert tidy[tidy["metric"] == "host_loadavg_start"].iloc[0]["value"] == 3.5


def test_runner_report_without_its_log_is_an_error(tmp_path, make_log):
    import pytest
    from base.errors import InputError
    report = tmp_path / "orphan.limits.json"
    report.write_text("{}")
    with pytest.raises(InputError) as e:
        aggregate.aggregate([make_log(), report], tmp_path / "t.csv")
    assert "orphan.limits.json" in str(e.value)


def test_engine_is_the_build_ids_variant_not_the_adapters_name(tmp_path, make_log):
    """A fork built on LevelDB's adapter reports Name() 'leveldb' in old
    builds; its build id names the variant, and the tidy data keeps it apart."""
    fork = make_log("fork.jsonl", engine="leveldb", build_engine="leveldb-learned")
    pristine = make_log("pristine.jsonl", engine="leveldb")
    aggregate.aggregate([fork, pristine], tmp_path / "t.csv")
    tidy = pd.read_csv(tmp_path / "t.csv")
    assert set(tidy["engine"]) == {"leveldb", "leveldb-learned"}


def test_manifest_factors_become_factor_columns(tmp_path, make_log):
    log = make_log("r0.jsonl", factors={"engine": "leveldb", "index": "pgm", "position_boundary": "16",
                                        "dataset": "uniform", "workload": "w"})
    aggregate.aggregate([log], tmp_path / "t.csv")
    tidy = pd.read_csv(tmp_path / "t.csv")
    assert set(tidy["index"]) == {"pgm"} and set(tidy["position_boundary"]) == {16}
    assert set(tidy["run"]) == {"point/engine=leveldb+index=pgm+position_boundary=16+dataset=uniform+workload=w/r0"}


def test_a_value_size_factor_keeps_its_name_beside_the_metric_value(tmp_path, make_log):
    """A point names its value size `value` (studies.ID_NAMES); as a tidy
    column of that name the row's measured number replaced it, so the
    column is `value_bytes` and `value` stays the metric's number."""
    log = make_log("r0.jsonl", factors={"engine": "rocksdb", "table": "block", "dataset": "OSM", "value": "1024",
                                        "workload": "w"})
    aggregate.aggregate([log], tmp_path / "t.csv")
    tidy = pd.read_csv(tmp_path / "t.csv")
    assert set(tidy["value_bytes"]) == {1024}
    assert (tidy["value"] != 1024).any()


def test_failed_run_becomes_one_failed_row_with_its_reason(tmp_path, make_log):
    from lsmrepro.run import bench
    failed = tmp_path / "r1.jsonl"
    meta = {"study": "baseline", "experiment": "point", "scale": "smoke", "dataset": "osm", "repetition": "1",
            "point": "engine=leveldb-learned+index=lipp+dataset=osm+workload=w"}
    manifest = {"engine": "leveldb-learned",
                "factors": {"engine": "leveldb-learned", "index": "lipp", "dataset": "osm", "workload": "w"}}
    bench.failed_record(failed, "load", "lipp: cannot build on duplicate-heavy keys", 2, meta, manifest)
    aggregate.aggregate([make_log(), failed], tmp_path / "t.csv")
    tidy = pd.read_csv(tmp_path / "t.csv")
    failed_rows = tidy[tidy["metric"] == "failed"]
    assert sorted(failed_rows["value"]) == [0, 1]  # the completed run's 0 beside the failure's 1
    row = failed_rows[failed_rows["value"] == 1].iloc[0]
    assert row["engine"] == "leveldb-learned" and row["index"] == "lipp" and row["dataset"] == "osm"
    assert row["note"] == "lipp: cannot build on duplicate-heavy keys" and row["source"] == f"{failed}:1"


def test_a_log_without_its_manifest_is_refused(tmp_path, sample_records, write_log):
    records = sample_records()
    del records[0]["attached"]["manifest"]
    log = write_log(tmp_path / "r0.jsonl", records)
    with pytest.raises(InputError, match="line 1: manifest: the run's manifest"):
        aggregate.aggregate([str(log)], tmp_path / "t.csv")


def test_doblix_rows_tail_setup_steps_and_agent_steps(tmp_path, sample_records, write_log):
    """DobLIX's study reads the tail latency, the run's set-up, the table's
    counters, the step timers and one row per agent step and field."""
    records = sample_records(engine="rocksdb")
    records[0]["options"] = {"max_background_jobs": "2", "block_cache_bytes": "0"}
    records[0]["workload"] = {"kind": "ycsb", "ops": 100, "loaded_keys": 90, "key_bytes": 8, "value_bytes": 64}
    records[4]["tail5_mean"] = 2999.5
    step = {"episode": 0, "tables": 2, "state": "pla/E128/B4K", "action": "keep", "next_state": "pla/E128/B4K",
            "reward": -0.25, "epsilon": 0.99, "reads": 10, "mean_read_latency_ns": 500.0,
            "block_bytes_per_read": 4100.0, "throughput_ops": 2e6, "index_bytes_per_entry": 0.5,
            "estimated_index_bytes": 45.0, "distribution_shift": False}
    records[6].update(table_factory="DoblixTable", steps={"s_kv_ns": 700, "l_block_ns": 900},
                      doblix={"live_tables_train_seconds": 0.03, "model_misses": 0, "agent_episodes": [step]})
    out = tmp_path / "t.csv"
    aggregate.aggregate([write_log(tmp_path / "rocksdb__uniform__r0.jsonl", records)], out)
    tidy = pd.read_csv(out).set_index("metric")
    assert tidy.loc["latency_tail5_mean", "value"] == 2999.5
    assert tidy.loc["setup_max_background_jobs", "value"] == 2 and tidy.loc["setup_loaded_keys", "value"] == 90
    assert tidy.loc["setup_max_background_jobs", "source"].endswith(":1")
    assert tidy.loc["steps_s_kv_ns", "value"] == 700 and tidy.loc["doblix_live_tables_train_seconds", "value"] == 0.03
    reward = tidy.loc["agent_reward"]
    assert reward["value"] == -0.25 and str(reward["subset"]) == "0" and reward["agent_block"] == "B4K"
    assert "state=pla/E128/B4K" in reward["note"] and "distribution_shift=false" in reward["note"]
    assert "agent_distribution_shift" not in tidy.index and "agent_episode" not in tidy.index


def test_a_studys_table_joins_its_experiments_tables(tmp_path, make_log):
    """tidy/<study>.csv is its experiments' tables joined: every row, every
    factor column of any of them (blank elsewhere), values as written."""
    a = make_log("a.jsonl", factors={"engine": "leveldb", "index": "pgm"}, experiment="fig7")
    b = make_log("b.jsonl", engine="rocksdb", factors={"engine": "rocksdb", "table": "block"}, experiment="fig8")
    aggregate.aggregate([a], tmp_path / "fig7.csv")
    aggregate.aggregate([b], tmp_path / "fig8.csv")
    aggregate.aggregate([a, b], tmp_path / "direct.csv")
    aggregate.concat([tmp_path / "fig7.csv", tmp_path / "fig8.csv"], tmp_path / "study.csv")
    joined = pd.read_csv(tmp_path / "study.csv", dtype=str, keep_default_na=False)
    direct = pd.read_csv(tmp_path / "direct.csv", dtype=str, keep_default_na=False)
    assert list(joined.columns) == list(direct.columns)
    assert list(joined.columns[-2:]) == ["index", "table"]
    key = ["run", "metric", "op", "subset"]
    assert joined.sort_values(key).reset_index(drop=True).equals(direct.sort_values(key).reset_index(drop=True))
    from lsmrepro.tidy.table import read_tidy
    both = read_tidy([tmp_path / "fig7.csv", tmp_path / "fig8.csv"])
    assert len(both) == len(direct) and set(both["experiment"]) == {"fig7", "fig8"}
    assert list(read_tidy([]).columns) == aggregate.COLUMNS


def test_joining_a_file_that_is_not_a_tidy_table_is_an_error(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    with pytest.raises(InputError, match="bad.csv: header"):
        aggregate.concat([bad], tmp_path / "out.csv")
    assert not (tmp_path / "out.csv").exists()


def test_a_time_limited_run_says_so_and_its_throughput_is_of_the_ops_done(tmp_path, sample_records, write_log):
    """YCSB maxexecutiontime stopped the run after 40 of 3000 ops in 2 s:
    its tidy rows flag it, and its throughput is 40 / 2, not 3000 / 2."""
    records = sample_records()
    for r in records:
        if r["type"] == "phase" and r["phase"] == "run":
            r.update(ops=40, seconds=2.0, ops_per_sec=20.0, ops_planned=3000, time_limit_seconds=2.0,
                     time_limited=True)
        if r["type"] == "latency":
            r["count"] = 40
    limited = write_log(tmp_path / "limited.jsonl", records)
    plain = write_log(tmp_path / "plain.jsonl", sample_records(rep=1))
    aggregate.aggregate([str(limited), str(plain)], tmp_path / "t.csv")
    tidy = pd.read_csv(tmp_path / "t.csv")
    one = tidy[tidy["repetition"] == 0].set_index("metric")["value"]
    assert one["run_time_limited"] == 1
    assert one["run_ops"] == 40 and one["run_ops_planned"] == 3000
    assert one["run_throughput"] == pytest.approx(40 / 2.0)
    # a run without a limit has no limit rows (every planned op done)
    assert not set(tidy[tidy["repetition"] == 1]["metric"]) & {"run_time_limited", "run_ops", "run_ops_planned"}
    records[3]["time_limited"] = False  # a limit not reached
    aggregate.aggregate([str(write_log(tmp_path / "reached.jsonl", records))], tmp_path / "u.csv")
    assert pd.read_csv(tmp_path / "u.csv").set_index("metric")["value"]["run_time_limited"] == 0

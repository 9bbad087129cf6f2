"""engines/driver/log_schema.yaml is the contract of lsmbench's run log:
lsmbench's real output (over the tests' map engine, and over every real
engine build) must pass it record by record, through the same reader the
pipeline uses (lsmrepro/tidy/runlog.py). Records are closed (no undeclared field),
so a field the writer adds without declaring it fails here."""
import json
import subprocess

import numpy as np
import pytest
import yaml

from engines import registry
from lsmrepro.tidy import runlog
from base.errors import InputError
from workloads import catalogue

REPO = registry.REPO
DRIVER_BUILD = REPO / "build" / "tests" / "engines-driver"  # scripts/test.sh's build of the driver


@pytest.fixture(scope="module")
def lsmbench_map():
    """The driver's lsmbench over its map engine, built (or brought up to
    date) in the test command's driver build folder."""
    if not (DRIVER_BUILD / "CMakeCache.txt").is_file():
        subprocess.run(["cmake", "-S", REPO / "engines" / "driver", "-B", DRIVER_BUILD, "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=Release", "-DLSMBENCH_TESTS=ON"],
                       check=True, capture_output=True)
    r = subprocess.run(["cmake", "--build", DRIVER_BUILD, "--target", "lsmbench_map"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:]
    return DRIVER_BUILD / "lsmbench_map"


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    d = tmp_path_factory.mktemp("data")
    ends = np.array([0, 1, 2**64 - 2, 2**64 - 1], dtype=np.uint64)
    keys = np.sort(np.concatenate([ends, np.arange(1, 4001, dtype=np.uint64) * 1009]))
    keys = np.insert(keys, 10, keys[10])  # a duplicate, counted in the run record
    with open(d / "keys_uint64", "wb") as f:
        f.write(np.uint64(len(keys)).tobytes() + keys.tobytes())
    widths = (8 + np.arange(len(keys)) % 17).astype(np.uint32)  # decimal_var: 8..24 bytes
    with open(d / "keys_keylen_uint32", "wb") as f:
        f.write(np.uint64(len(widths)).tobytes() + widths.tobytes())
    (d / "build_id.json").write_text(json.dumps({"id": "0123456789ab", "engine": "map"}))
    (d / "fingerprint.json").write_text(json.dumps({"cpu": "test"}))
    return d


RUNS = {
    "point": ["--workload", "point", "--negative-share", "0.3", "--load-order", "sorted"],
    "diff": ["--workload", "diff", "--value-bytes", "16"],
    "ycsb-a": ["--workload", "ycsb", "--spec", "workloads/ycsb/workloada"],
    "ycsb-e": ["--workload", "ycsb", "--spec", "workloads/ycsb/workloade", "--settle", "full"],
    "ycsb-f": ["--workload", "ycsb", "--spec", "workloads/ycsb/workloadf"],
    # a time limit the map engine never reaches: the run phase still says it had one
    "ycsb-c-limit": ["--workload", "ycsb", "--spec", "workloads/ycsb/workloadc", "-p", "maxexecutiontime=600"],
    "point-limit": ["--workload", "point", "--max-execution-time", "600"],
}


def catalogue_encodings():
    """Every key encoding the dataset catalogue uses, and one of each form
    its schema allows."""
    used = {u["key_encoding"] for e in catalogue.load()["datasets"].values() for u in e["uses"]}
    return sorted(used | {"be64", "be64_pad16", "be64_pad32", "decimal24", "decimal_var", "ycsb_user"})


def encoding_args(encoding, dataset):
    extra = ["--key-lengths", dataset / "keys_keylen_uint32"] if encoding == "decimal_var" else []
    return ["--key-encoding", encoding, *extra]


def run_lsmbench(binary, dataset, tmp_path, args, name="run"):
    log = tmp_path / f"{name}.jsonl"
    r = subprocess.run([binary, "--db", tmp_path / f"{name}.db", "--dataset", dataset / "keys_uint64",
                        "--ops", "3000", "--seed", "5", "--progress", "never", "--log", log,
                        "--build-id", dataset / "build_id.json", "--meta", "rep=0",
                        "--attach", f"fingerprint={dataset / 'fingerprint.json'}", *args],
                       cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return log


@pytest.mark.parametrize("name", RUNS)
def test_map_engine_output_passes_the_schema(lsmbench_map, dataset, tmp_path, name):
    log = runlog.read(run_lsmbench(lsmbench_map, dataset, tmp_path, RUNS[name]))
    kinds = [r.data["type"] for r in log.records]
    assert kinds[0] == "run" and kinds[-1] == "end"
    assert {"phase", "latency", "breakdown", "engine", "check"} <= set(kinds)
    assert log.run["engine"] == "map" and log.run["dataset"]["duplicates"] == 1
    stages = log.records[-1].data["driver_seconds"]  # the time outside the measured phases
    assert {"read_dataset", "make_ops", "open", "phases", "close", "total"} <= set(stages)
    assert stages["total"] >= sum(v for k, v in stages.items() if k != "total") * 0.999


@pytest.mark.parametrize("encoding", catalogue_encodings())
def test_every_catalogue_encoding_runs_and_logs(lsmbench_map, dataset, tmp_path, encoding):
    """The driver takes every encoding the catalogue can produce; the diff
    stream's scans are checked in the engine's order of encoded keys."""
    args = ["--workload", "diff", *encoding_args(encoding, dataset)]
    log = runlog.read(run_lsmbench(lsmbench_map, dataset, tmp_path, args))
    assert log.run["workload"]["key_encoding"] == encoding
    assert log.of_type("check")[0].data["wrong"] == 0


def test_an_undeclared_field_fails(lsmbench_map, dataset, tmp_path):
    """The schema is closed: a writer that adds a field must declare it."""
    lines = run_lsmbench(lsmbench_map, dataset, tmp_path, []).read_text().splitlines()
    for i, line in enumerate(lines):
        record = json.loads(line)
        if record["type"] == "engine":
            record["undeclared_statistic"] = 1
            lines[i] = json.dumps(record)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match="undeclared_statistic"):
        runlog.read(bad)


def test_schema_version_is_the_writers(lsmbench_map, dataset, tmp_path):
    schema = yaml.safe_load((REPO / "engines/driver/log_schema.yaml").read_text())
    log = runlog.read(run_lsmbench(lsmbench_map, dataset, tmp_path, []))
    assert log.run["schema_version"] == schema["$defs"]["run"]["properties"]["schema_version"]["const"]


@pytest.mark.e2e
def test_real_engine_output_passes_the_schema(built, dataset, tmp_path):
    """LevelDB (built here when missing, as test_difftest.py builds it) and
    every other engine already built: point lookups and the differential
    stream, with fixed-width and variable-length keys, logged by the real
    adapter and checked by the verifier in the engine's own key order."""
    built("leveldb")
    built = [e for e in registry.engine_ids() if (REPO / f"build/engines/{e}/bin/lsmbench").is_file()]
    runs = {"point": RUNS["point"], "diff": RUNS["diff"]}
    for encoding in ("decimal_var", "ycsb_user"):
        runs[encoding] = ["--workload", "diff", *encoding_args(encoding, dataset)]
    for engine in built:
        binary = REPO / f"build/engines/{engine}/bin/lsmbench"
        for name, args in runs.items():
            log = runlog.read(run_lsmbench(binary, dataset, tmp_path, args, f"{engine}-{name}"))
            assert log.run["engine"] == engine
            assert log.of_type("engine")[0].data["index_bytes"] > 0


@pytest.mark.parametrize("args, says", [
    (["--workload", "diff", "--max-execution-time", "5"], "--max-execution-time: --workload point only"),
    (["--workload", "ycsb", "--spec", "workloads/ycsb/workloadc", "--max-execution-time", "5"],
     "-p maxexecutiontime=N"),
    (["--workload", "ycsb", "--spec", "workloads/ycsb/workloadc", "-p", "maxexecutiontime=soon"],
     "maxexecutiontime: expected an integer >= 0"),
])
def test_a_time_limit_where_it_does_not_belong_is_one_clear_error(lsmbench_map, dataset, tmp_path, args, says):
    r = subprocess.run([lsmbench_map, "--db", tmp_path / "db", "--dataset", dataset / "keys_uint64",
                        "--log", tmp_path / "log.jsonl", *args], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and says in r.stderr, r.stderr

"""datagen on bad input: one line on stderr naming the file and the problem,
exit status 2; and op streams identical across runs."""
import json

import pytest
from workloads_fixtures import datagen, run, specs  # noqa: F401 (pytest fixtures)


def _one_line_error(r):
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    return lines[0][len("error: "):]


def test_ops_are_identical_across_runs(run, specs, datagen):
    args = ("ops", "--spec", specs / "workloadd", "-p", "recordcount=10000", "-p", "operationcount=5000",
            "--seed", 7)
    a, b = run(datagen, *args).stdout, run(datagen, *args).stdout
    assert a == b and len(a.splitlines()) == 5000
    c = run(datagen, *args[:-1], 8).stdout
    assert a != c


def test_load_phase_names_keys_like_ycsb(run, specs, datagen):
    out = run(datagen, "ops", "--spec", specs / "workloada", "--load", "--count", 2).stdout
    assert out.splitlines() == ["INSERT user6284781860667377211 0", "INSERT user8517097267634966620 0"]


def test_unknown_property_in_spec(run, specs, datagen, tmp_path):
    spec = tmp_path / "workloadx"
    spec.write_text("recordcount=10\noperationcount=10\nreadproportoin=1\n")
    msg = _one_line_error(run(datagen, "ops", "--spec", spec, ok=False))
    assert msg == f"{spec}:3: readproportoin: unknown property (expected a YCSB CoreWorkload property)"


def test_malformed_override(run, specs, datagen):
    msg = _one_line_error(run(datagen, "ops", "--spec", specs / "workloada", "-p", "recordcount=1e6", ok=False))
    assert msg == "-p: recordcount: expected an integer >= 0, got '1e6'"


@pytest.mark.parametrize("content, problem", [
    (b"\x01\x02", "truncated: no 8-byte count header"),
    ((3).to_bytes(8, "little") + (1).to_bytes(8, "little"), "header count 3 needs 32 bytes, file has 16"),
    ((2).to_bytes(8, "little") + (5).to_bytes(8, "little") + (4).to_bytes(8, "little"),
     "key 1 (4) is smaller than key 0; sorted keys expected"),
])
def test_bad_key_files(run, specs, datagen, tmp_path, content, problem):
    path = tmp_path / "bad_uint64"
    path.write_bytes(content)
    msg = _one_line_error(run(datagen, "verify", "--in", path, "--sorted", ok=False))
    assert msg == f"{path}: {problem}"


def test_duplicates_are_counted_not_dropped(run, specs, datagen, tmp_path):
    path = tmp_path / "dups_uint64"
    path.write_bytes((3).to_bytes(8, "little") + b"".join(k.to_bytes(8, "little") for k in (4, 4, 9)))
    facts = json.loads(run(datagen, "verify", "--in", path, "--sorted").stdout)
    assert facts["count"] == 3 and facts["duplicates"] == 1


def test_unknown_generator_and_param(run, specs, datagen, tmp_path):
    msg = _one_line_error(run(datagen, "gen", "--generator", "nope", "--count", 5, "--out", tmp_path / "x_uint64",
                              ok=False))
    assert msg == "--generator: unknown generator 'nope' (see `datagen list`)"
    msg = _one_line_error(run(datagen, "gen", "--generator", "sosd_logn", "--count", 5, "--param", "sigam=2",
                              "--out", tmp_path / "x_uint64", ok=False))
    assert msg == "--param: unknown parameter(s) for sosd_logn: sigam"
    assert not (tmp_path / "x_uint64").exists()

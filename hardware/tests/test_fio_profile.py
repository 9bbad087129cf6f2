"""fio job files, the parser against recorded fio output, a short real run."""
import configparser
import json
import re
import shutil
from pathlib import Path

import pytest

from base.errors import InputError
from hardware import fio_profile
from conftest import DATA, REPO, one_error_line, run_module

JOBS = REPO / "hardware" / "fio"


def test_job_files_are_what_their_names_say():
    """A job's name says what it measures (seq|rand + read|write, block size,
    queue depth when not 1 job); its global section takes every size and
    time from the variables fio_profile sets (test_short_real_run runs one),
    with direct I/O."""
    files = sorted(JOBS.glob("*.fio"))
    assert files
    for f in files:
        m = re.fullmatch(r"(seq|rand)(read|write)-(\d+[km])(?:-qd(\d+))?", f.stem)
        assert m, f.name
        ini = configparser.ConfigParser(comment_prefixes=(";", "#"), interpolation=None)
        ini.read(f)
        g, j = ini["global"], ini[f.stem]
        assert (j["rw"], j["bs"]) == (m[2] if m[1] == "seq" else "rand" + m[2], m[3]), f.name
        if m[4]:
            assert j["iodepth"] == m[4], f.name
        assert g["direct"] == "1" and g["time_based"] == "1", f.name
        for key, var in (("directory", "FIO_DIR"), ("size", "FIO_SIZE"), ("ramp_time", "FIO_RAMP"),
                         ("runtime", "FIO_RUNTIME")):
            assert g[key] == f"${{{var}}}", (f.name, key)


def test_parse_recorded_output():
    raw = json.loads((DATA / "fio-randread-4k-qd1.json").read_text())
    prof = fio_profile.profile_from_outputs([(None, raw, "fixture")])
    assert prof["fio_version"] == "fio-3.33"
    m = prof["measurements"]["randread-4k-qd1"]
    r = raw["jobs"][0]["read"]
    assert m["direction"] == "read" and "write" not in m
    assert m["iops"] == r["iops"] and m["bw_bytes"] == r["bw_bytes"]
    assert m["clat_ns"]["mean"] == r["clat_ns"]["mean"]
    for key, pct in (("p50", "50.000000"), ("p99", "99.000000"), ("p99.9", "99.900000")):
        assert m["clat_ns"][key] == r["clat_ns"]["percentile"][pct]
    assert (m["rw"], m["bs"], m["iodepth"], m["ioengine"], m["direct"]) == \
        ("randread", "4k", 1, "psync", 1)
    assert m["job_options"]["runtime"] == "1"      # global and job options merged


def test_parse_cli_several_outputs(tmp_path):
    out = tmp_path / "p.json"
    p = run_module("fio_profile", "--parse", DATA / "fio-randread-4k-qd1.json",
                   DATA / "fio-seqwrite-1m.json", "--out", out)
    assert p.returncode == 0, p.stderr
    prof = json.loads(out.read_text())
    assert set(prof["measurements"]) == {"randread-4k-qd1", "seqwrite-1m"}
    w = prof["measurements"]["seqwrite-1m"]
    assert w["direction"] == "write" and w["bw_bytes"] > 0 and w["clat_ns"]["p99.9"] > 0


def test_notes_before_the_json_are_skipped(tmp_path):
    f = tmp_path / "noisy.json"
    f.write_text("fio: note: both iodepth >= 1 and synchronous I/O engine are selected\n"
                 + (DATA / "fio-randread-4k-qd1.json").read_text())
    assert "randread-4k-qd1" in fio_profile.parse_fio(fio_profile.load_fio_json(f))


@pytest.mark.parametrize("text,says", [("", "found no JSON object"),
                                       ("{\"jobs\": [}", "valid JSON"),
                                       ("{\"a\": 1}", "'fio version' and 'jobs'")])
def test_bad_fio_output_is_one_line(tmp_path, text, says):
    f = tmp_path / "bad.json"
    f.write_text(text)
    assert says in one_error_line(run_module("fio_profile", "--parse", f))


def test_failed_job_is_an_error(tmp_path):
    raw = json.loads((DATA / "fio-randread-4k-qd1.json").read_text())
    raw["jobs"][0]["error"] = 5
    with pytest.raises(InputError, match="fio reported error 5"):
        fio_profile.parse_fio(raw)


def test_missing_fio_is_one_line(tmp_path):
    p = run_module("fio_profile", "--dir", tmp_path, "--fio", "/nonexistent/fio")
    assert "the fio executable on PATH" in one_error_line(p)
    p = run_module("fio_profile", "--dir", tmp_path, env={"PATH": str(tmp_path)})
    assert "apt-get install fio" in one_error_line(p)


def test_bad_directory_and_size(tmp_path):
    assert "an existing directory" in one_error_line(
        run_module("fio_profile", "--dir", tmp_path / "nope"))
    assert "a size like" in one_error_line(
        run_module("fio_profile", "--dir", tmp_path, "--size", "big"))


@pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed")
def test_short_real_run(disk_tmp_path):
    """On the disk the databases go to: the one fio run of the tests that
    measures the device (the smoke run's calibration runs in RAM)."""
    tmp_path = disk_tmp_path
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    shutil.copy(JOBS / "randread-4k-qd1.fio", jobs)
    data = tmp_path / "db"
    data.mkdir()
    out = tmp_path / "profile.json"
    p = run_module("fio_profile", "--jobs-dir", jobs, "--dir", data, "--ramp", "0",
                   "--runtime", "1", "--size", "8MiB", "--out", out)
    assert p.returncode == 0, p.stderr
    prof = json.loads(out.read_text())
    m = prof["measurements"]["randread-4k-qd1"]
    assert m["iops"] > 0 and m["clat_ns"]["p50"] > 0 and m["job_file"] == "randread-4k-qd1.fio"
    assert prof["parameters"]["size_bytes"] == 8 << 20 and prof["fio_binary_version"].startswith("fio-")
    assert len(prof["fingerprint_id"]) == 12 and prof["storage"]["filesystem"]["type"]
    assert list(data.iterdir()) == []          # the test file is removed

"""The calibration figure and table from a profile."""
import csv
import json

from hardware import fio_profile
from conftest import DATA, one_error_line, run_module


def test_figure_and_table(tmp_path):
    outs = [fio_profile.load_fio_json(DATA / f) for f in
            ("fio-randread-4k-qd1.json", "fio-seqwrite-1m.json")]
    prof = fio_profile.profile_from_outputs([(None, d, "x") for d in outs])
    pf = tmp_path / "profile.json"
    pf.write_text(json.dumps(prof))
    o = {k: tmp_path / f"cal.{k}" for k in ("pdf", "png", "csv", "md")}
    p = run_module("calibration_plot", "--profile", pf, *[a for k, v in o.items()
                                                          for a in (f"--out-{k}", v)])
    assert p.returncode == 0, p.stderr
    assert o["pdf"].read_bytes().startswith(b"%PDF") and o["png"].read_bytes()[1:4] == b"PNG"
    rows = list(csv.DictReader(o["csv"].open()))
    assert [r["measurement"] for r in rows] == ["seqwrite-1m", "randread-4k-qd1"]
    qd1 = rows[1]
    assert abs(float(qd1["iops"]) - prof["measurements"]["randread-4k-qd1"]["iops"]) < 0.01
    assert abs(float(qd1["clat_p99_us"]) * 1000
               - prof["measurements"]["randread-4k-qd1"]["clat_ns"]["p99"]) < 1
    md = o["md"].read_text()
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in md.splitlines() if "|" in line]
    assert cells[0][:5] == ["measurement", "rw", "bs", "QD", "engine"]
    assert ["randread-4k-qd1", "randread", "4k", "1", "psync"] in [row[:5] for row in cells]


def test_bad_profile_is_one_line(tmp_path):
    f = tmp_path / "p.json"
    f.write_text("{}")
    assert "a device profile" in one_error_line(
        run_module("calibration_plot", "--profile", f, "--out-csv", tmp_path / "x.csv"))

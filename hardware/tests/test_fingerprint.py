"""The fingerprint: complete, JSON, and an id over the stable fields only."""
import copy
import json
import re

from hardware import fingerprint, system_table
from conftest import one_error_line, run_module


def test_fingerprint_fields_and_stable_id(tmp_path):
    fp = fingerprint.collect(tmp_path)
    s = fp["stable"]
    assert re.fullmatch(r"[0-9a-f]{12}", fp["id"])
    assert s["cpu"]["model"] and s["cpu"]["threads"] >= 1 and s["cpu"]["cores"] >= 1
    assert {"governor", "turbo"} <= set(s["frequency"])
    assert s["memory"]["total_bytes"] > 0 and s["kernel"]["release"]
    assert isinstance(s["mitigations"], dict)
    assert {"rotational", "scheduler", "model"} <= set(s["storage"]["device"]) or \
        s["storage"]["device"].get("note")
    assert s["storage"]["filesystem"]["type"] and "mount_options" in s["storage"]["filesystem"]
    assert s["toolchain"]["python"] and "debian_packages" in s["toolchain"]
    assert {"inside", "image"} <= set(s["container"])
    # the id ignores volatile things and is reproducible
    assert fingerprint.collect(tmp_path)["id"] == fp["id"]
    changed = copy.deepcopy(fp)
    changed["volatile"]["loadavg"] = [99, 99, 99]
    assert fingerprint.stable_id(changed["stable"]) == fp["id"]
    changed["stable"]["memory"]["total_bytes"] += 1
    assert fingerprint.stable_id(changed["stable"]) != fp["id"]


def test_cli_out_and_id_agree(tmp_path):
    out = tmp_path / "f.json"
    p = run_module("fingerprint", "--out", out)
    assert p.returncode == 0, p.stderr
    fp = json.loads(out.read_text())
    p = run_module("fingerprint", "--id")
    assert p.stdout.strip() == fp["id"] and p.stdout.count("\n") == 1


def test_bad_dir_is_one_line(tmp_path):
    assert "an existing directory" in one_error_line(
        run_module("fingerprint", "--id", "--dir", tmp_path / "nope"))


def test_system_table(tmp_path):
    fp = fingerprint.collect(tmp_path)
    rows = dict(system_table.rows(fp))
    assert {"CPU", "Memory", "Storage", "OS", "Kernel", "Compiler", "Fingerprint"} <= set(rows)
    assert rows["Fingerprint"] == fp["id"] and rows["Kernel"] == fp["stable"]["kernel"]["release"]
    f = tmp_path / "f.json"
    f.write_text(json.dumps(fp))
    md, csv = tmp_path / "t.md", tmp_path / "t.csv"
    p = run_module("system_table", "--fingerprint", f, "--out-md", md, "--out-csv", csv)
    assert p.returncode == 0, p.stderr
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in md.read_text().splitlines()]
    assert cells[0] == ["item", "value"] and ["Fingerprint", fp["id"]] in cells
    assert csv.read_text().splitlines()[0] == "item,value"
    f.write_text("{}")
    assert "a fingerprint from" in one_error_line(
        run_module("system_table", "--fingerprint", f))

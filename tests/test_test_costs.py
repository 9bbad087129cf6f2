"""scripts/test_costs.py: the set-up row names what setup.sh installed, and a
failed ./run-tests never overwrites the measurement in docs/costs.md."""
import importlib.util
import sys
from collections import Counter
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "test_costs.py"


@pytest.fixture()
def costs(monkeypatch, tmp_path):
    spec = importlib.util.spec_from_file_location("test_costs_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    readme = tmp_path / "costs.md"
    readme.write_text(f"# Costs\n\n{module.BEGIN}\n<!-- cold -->\nthe earlier measurement\n\n{module.END}\n")
    monkeypatch.setattr(module, "README", readme)
    return module


def result(status, installed=()):
    return {"cold": True, "long": False, "status": status, "wall": 1500.0, "cpu": 2400.0,
            "load": ("0.10 0.10 0.10", "2.00 2.00 2.00"), "date": "2026-12-05 00:29 UTC", "commit": "f7b190f",
            "ccache": (0, 10), "cores": 2, "installed": list(installed),
            "phases": [("engines", 600.0, 900.0)], "outcomes": Counter(passed=3)}


def test_installed_packages_are_read_from_setups_line(costs, tmp_path):
    log = tmp_path / "run.log"
    log.write_text("noise\nsetup: installing Debian packages: ccache fio libsnappy-dev\nmore\n")
    assert costs.installed_packages(log) == ["ccache", "fio", "libsnappy-dev"]
    log.write_text("setup: Debian packages present\n")
    assert costs.installed_packages(log) == []


def test_setup_row_says_whether_packages_were_installed(costs):
    assert "| set-up (`scripts/setup.sh`: 2 Debian packages installed, `.venv`) | 15 min 00 s |" in \
        costs.table(result(0, ["fio", "ccache"]))
    assert "set-up (`scripts/setup.sh`: Debian packages checked, `.venv`)" in costs.table(result(0))


@pytest.mark.parametrize("status", [0, 1])
def test_write_only_after_a_passing_run(costs, monkeypatch, tmp_path, capsys, status):
    monkeypatch.setattr(costs, "measure", lambda cold, slurm, long: (result(status), tmp_path / "work"))
    monkeypatch.setattr(sys, "argv", ["test_costs.py", "--cold", "--write"])
    costs.main()
    text = costs.README.read_text()
    if status:
        assert "the earlier measurement" in text
        assert "./run-tests exited 1" in capsys.readouterr().err
    else:
        assert "the earlier measurement" not in text and "**25 min 00 s**" in text

"""Limits as written in configs and on the command line."""
import pytest

from base.errors import InputError
from base.sizes import human, parse_size
from hardware.limits import parse_limit
from conftest import run_module, one_error_line

GIB = 1 << 30


@pytest.fixture
def meminfo(tmp_path):
    p = tmp_path / "meminfo"
    p.write_text("MemTotal:        8388608 kB\nMemFree:  1 kB\nSwapTotal:       0 kB\n")
    return p   # 8 GiB of RAM


@pytest.mark.parametrize("text,expected", [
    ("4GiB", 4 * GIB), ("512MiB", 512 << 20), ("1073741824", GIB), ("64M", 64 << 20),
    ("1.5GiB", 3 * GIB // 2), ("2GB", 2 * 10**9), ("8GiB", 8 * GIB),
    ("50%", 4 * GIB), ("70%", int(8 * GIB * 0.7) // 4096 * 4096), ("100%", 8 * GIB),
    ("none", None), ("None", None),
])
def test_parse_limit(text, expected, meminfo):
    assert parse_limit(text, meminfo=meminfo) == expected


@pytest.mark.parametrize("text,says", [
    ("4 gigs", "a size like"), ("abc", "a size like"), ("-5", "a size like"), ("", "a size like"),
    ("0%", "share of RAM"), ("150%", "share of RAM"),
    ("9GiB", "no larger than this machine's RAM"), ("16TiB", "no larger"),
    ("1KiB", "at least 4MiB"),
])
def test_bad_limits_name_the_argument(text, says, meminfo):
    with pytest.raises(InputError) as e:
        parse_limit(text, meminfo=meminfo)
    assert str(e.value).startswith("--memory: ") and says in str(e.value)


def test_sizes_and_human():
    assert parse_size("16MiB") == 16 << 20
    with pytest.raises(InputError):
        parse_size("lots")
    assert human(1536) == "1.5 KiB" and human(None) == "-"


@pytest.mark.parametrize("limit,says", [("4 gigs", "a size like"),
                                        ("64TiB", "no larger than this machine's RAM")])
def test_runner_bad_limit_is_one_line(limit, says):
    p = run_module("cgroup_run", "--memory", limit, "--", "true")
    assert says in one_error_line(p)


def test_runner_without_command_is_one_line():
    assert "a command after" in one_error_line(run_module("cgroup_run", "--memory", "none"))


def test_scale_configs_have_a_valid_hardware_section():
    from lsmrepro.plan import studies
    for scale in ("smoke", "local", "paper"):
        hw = studies.load_scale(scale)["hardware"]
        parse_limit(hw["memory_limit"])          # this machine's RAM
        parse_size(hw["calibration"]["size"], "calibration.size")
        assert hw["calibration"]["runtime_s"] > 0

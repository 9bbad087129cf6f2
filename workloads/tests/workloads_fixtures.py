"""Fixtures of the workloads tests, imported by name into each test module
(`from workloads_fixtures import datagen, run`): a conftest.py here would be
imported as the top-level module `conftest` and shadow the other test
folders' conftest helpers."""
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def datagen():
    """The datagen binary: WORKLOADS_DATAGEN as given, else build/workloads/
    datagen, built (or brought up to date) with CMake. A build that fails
    fails the tests that need it: it is never a reason to skip them."""
    if "WORKLOADS_DATAGEN" in os.environ:
        return Path(os.environ["WORKLOADS_DATAGEN"])
    build = REPO / "build" / "workloads"
    configure = [] if (build / "CMakeCache.txt").is_file() else [
        ["cmake", "-S", REPO / "workloads", "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release"]]
    for cmd in [*configure, ["cmake", "--build", build, "--target", "datagen", "-j", "2"]]:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            pytest.fail(f"datagen does not build: {' '.join(map(str, cmd))}\n{r.stdout[-2000:]}{r.stderr[-1000:]}")
    return build / "datagen"


@pytest.fixture(scope="session")
def lidx_hardness():
    """The lidx_hardness tool (indexes/tools), built as the pipeline's
    workloads_lidx_hardness rule builds it: lidx alone, no tests."""
    build = REPO / "build" / "lidx-tools"
    cmds = [["cmake", "-S", REPO / "indexes", "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
             "-DLIDX_BUILD_TESTS=OFF", "-DLIDX_BUILD_BENCH=OFF"],
            ["cmake", "--build", build, "--target", "lidx_hardness", "-j", "2"]]
    for cmd in cmds[(build / "CMakeCache.txt").is_file():]:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            pytest.fail(f"lidx_hardness does not build: {' '.join(map(str, cmd))}\n{r.stdout[-2000:]}{r.stderr[-1000:]}")
    return build / "lidx_hardness"


def _run(datagen, *args, ok=True):
    r = subprocess.run([str(datagen), *map(str, args)], capture_output=True, text=True)
    if ok:
        assert r.returncode == 0, r.stderr
    return r


@pytest.fixture
def run():
    """run(datagen, *args, ok=True): runs datagen, asserting success when ok."""
    return _run


@pytest.fixture(scope="session")
def specs():
    return REPO / "workloads" / "ycsb"

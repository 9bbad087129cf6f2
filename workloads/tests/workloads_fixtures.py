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
    """The datagen binary (WORKLOADS_DATAGEN, else build/workloads/datagen),
    built with CMake if it is missing."""
    path = Path(os.environ.get("WORKLOADS_DATAGEN", REPO / "build" / "workloads" / "datagen"))
    if not path.is_file():
        build = path.parent
        r = subprocess.run(f"cmake -S {REPO / 'workloads'} -B {build} -G Ninja -DCMAKE_BUILD_TYPE=Release"
                           f" && cmake --build {build} --target datagen -j 2", shell=True, capture_output=True)
        if r.returncode != 0 or not path.is_file():
            pytest.skip(f"datagen not built and cannot be built: {r.stderr[-300:]!r}")
    return path


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

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
DATA = Path(__file__).parent / "data"

from tests import scratch  # noqa: E402 (needs REPO on the path)


@pytest.fixture
def disk_tmp_path():
    with scratch.on_disk() as folder:
        yield folder


def run_module(module, *args, timeout=60, **kw):
    """python -m hardware.<module> ARGS from the repository root."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.update(kw.pop("env", {}))
    return subprocess.run([sys.executable, "-m", f"hardware.{module}", *map(str, args)],
                          cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=timeout, **kw)


def one_error_line(p):
    """The process failed with status 2 and one `error: ...` line, no traceback."""
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert len(lines) == 1 and lines[0].startswith("error: "), p.stderr
    return lines[0]


@pytest.fixture
def repo():
    return REPO

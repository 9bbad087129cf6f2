"""Kill-and-reopen crash test of the wisckey engine (a bounded sample; the
long run is `python -m engines.crashtest wisckey --rounds 300`)."""
import random

import pytest

from engines import crashtest

pytestmark = pytest.mark.e2e


def test_wisckey_keeps_every_acknowledged_write(built, tmp_path):
    built("wisckey")
    total, keys = crashtest.run("wisckey", rounds=12, seed=7, build_dir="build", max_wait=0.4,
                                work=tmp_path)
    assert total > 1000 and keys > 100


def test_a_lost_write_is_caught(built, tmp_path):
    """The check is not blind: an acknowledged write the store does not
    hold fails the round."""
    built("wisckey")
    tool = crashtest.build_tool("wisckey", "build")
    rng = random.Random(3)
    expected = {}
    _, op = crashtest.one_round(tool, tmp_path / "db", 1, 0, expected, rng, 0.2)
    expected["ffffffffffffffff"] = "never written"
    with pytest.raises(AssertionError, match="lost or changed"):
        crashtest.one_round(tool, tmp_path / "db", 2, op, expected, rng, 0.2)

"""Kill-and-reopen crash tests of the LevelDB family (bounded samples; the
long runs are `python -m engines.crashtest <variant> --rounds 300`, README's
longer checks)."""
import random
import struct
import subprocess

import numpy as np
import pytest

from engines import crashtest, registry

REPO = registry.REPO

pytestmark = pytest.mark.e2e


def test_wisckey_keeps_every_acknowledged_write(built, tmp_path):
    built("wisckey")
    total, keys = crashtest.run("wisckey", rounds=12, seed=7, build_dir="build", max_wait=0.4,
                                work=tmp_path)
    assert total > 1000 and keys > 100


@pytest.mark.parametrize("engine", ["leveldb-learned", "bourbon", "rocksdb-doblix"])
def test_learned_variants_keep_every_acknowledged_write(built, tmp_path, engine):
    """One kill per table format of the variant (leveldb-learned: every table
    index, SLR, keep_keys and level models; bourbon: file and level models,
    always and cba learning, two kills each; rocksdb-doblix: PLA, PRA, the
    agent, a filter, the two baselines), all on one database."""
    built(*(["rocksdb"] if engine == "rocksdb-doblix" else []), engine)
    rounds = len(crashtest.formats(engine)) * (2 if engine == "bourbon" else 1)
    total, keys = crashtest.run(engine, rounds=rounds, seed=5, build_dir="build", max_wait=0.3,
                                work=tmp_path)
    assert total > 500 and keys > 100


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


def _crc32c(data):
    table = _crc32c.table
    crc = 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


_crc32c.table = [0] * 256
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ (0x82F63B78 if _c & 1 else 0)
    _crc32c.table[_i] = _c


def _vlog_record(key, value, good_crc=True):
    """One value-log record (engines/wisckey/overlay/layers/wisckey/value_log.h): masked
    crc32c | key length | value length | key | value."""
    body = struct.pack("<II", len(key), len(value)) + key + value
    crc = _crc32c(body)
    masked = (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF
    return struct.pack("<I", masked if good_crc else masked ^ 1) + body


def test_value_log_open_keeps_whole_records_and_cuts_the_tail(built, tmp_path):
    """Reopening checks every value-log record, in chunked reads: records
    across chunk boundaries and one larger than a chunk are kept, the tail
    from the first bad record on is cut (and logged), and every loaded key
    still reads back right."""
    built("wisckey")
    binary = REPO / "build/engines/wisckey/bin/lsmbench"
    keys = np.arange(1, 150001, dtype=np.uint64) * 7  # ~12 MB of records: several 4 MiB chunks
    data = tmp_path / "keys_uint64"
    data.write_bytes(np.uint64(len(keys)).tobytes() + keys.tobytes())
    db, common = tmp_path / "db", ["--dataset", data, "--load-order", "sorted", "--value-bytes", "64",
                                   "--progress", "never"]
    subprocess.run([binary, "--phase", "load", "--db", db, "--log", tmp_path / "load.jsonl", *common],
                   check=True, capture_output=True)
    vlog = db / "000001.vlog"
    loaded = vlog.stat().st_size
    kept = _vlog_record(b"big", bytes(range(256)) * (5 << 12)) + _vlog_record(b"small", b"v" * 70)
    cut = _vlog_record(b"bad", b"x" * 30, good_crc=False) + _vlog_record(b"after", b"y") \
        + _vlog_record(b"torn", b"z" * 100)[:50]
    with open(vlog, "ab") as f:
        f.write(kept + cut)
    r = subprocess.run([binary, "--phase", "run", "--db", db, "--log", tmp_path / "run.jsonl", "--keep-db",
                        "--ops", "20000", *common], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert vlog.stat().st_size == loaded + len(kept)
    assert f"dropping {len(cut)} bytes after {loaded + len(kept)}" in (db / "LOG").read_text()

"""The fuzz target of leveldb-learned's table and model readers
(engines/fuzz.py; the long run is `python -m engines.fuzz --seconds 1800`,
README's longer checks): a bounded sample, and its oracle seen failing on a
wrong value."""
import functools
import os
import subprocess

import pytest

from engines import fuzz

pytestmark = pytest.mark.e2e

TARBALL = "build/sources/leveldb-1.23.tar.gz"


@functools.lru_cache(maxsize=None)
def sanitized_target():
    return fuzz.build("build", TARBALL)


@pytest.fixture
def target(built):
    built("leveldb-learned")  # its source tarball, fetched and checked
    return sanitized_target()


def test_a_bounded_run_finds_no_crash_hang_or_wrong_answer(target, tmp_path):
    # a fixed seed and count: nearly the same inputs on every run of the
    # test command (a random run's find belongs to the long command)
    code, runs, kept, report = fuzz.run(target, 120, tmp_path / "corpus", tmp_path / "artifacts",
                                        extra=("-seed=1", "-runs=2000"))
    assert code == 0, report[-4000:]
    assert runs > 50 and kept > 0, report[-2000:]
    assert not list((tmp_path / "artifacts").iterdir())


def test_the_oracle_sees_a_wrong_value(target, tmp_path):
    """A value byte changed in a pgm table: with checksums verified the
    target accepts the refusal; read unverified under the same oracle
    (LEARNED_FUZZ_SELF_TEST) it aborts with a wrong answer."""
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    subprocess.run([target], env=dict(os.environ, LEARNED_FUZZ_WRITE_SEEDS=str(seeds)), check=True,
                   capture_output=True)
    data = bytearray((seeds / "seed_0_0").read_bytes())  # mode 0: pgm, verified, not resealed
    value = str((1 << 40) + 5).encode()  # the value "v1099511627781" of key 2^40 + 5
    at = data.index(b"v" + value) + len(value)
    data[at] ^= 0x03  # ...781 -> ...782: another key's value
    damaged = tmp_path / "damaged"
    damaged.write_bytes(bytes(data))
    ok = subprocess.run([target, damaged], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr[-3000:]
    blind = subprocess.run([target, damaged], env=dict(os.environ, LEARNED_FUZZ_SELF_TEST="1"),
                           capture_output=True, text=True)
    assert blind.returncode != 0 and "wrong answer" in blind.stderr, blind.stderr[-3000:]


def test_the_inputs_it_found_stay_fixed(target):
    """Each input the fuzzer found a fault with (engines/fuzz/regressions/:
    an fp index entry whose key is no internal key, read past under ASan; an
    SLR block error not naming its table; LITS offsets out of order, read
    past before Valid() refused them) runs clean."""
    inputs = sorted((fuzz.HERE / "fuzz" / "regressions").iterdir())
    assert len(inputs) >= 3
    r = subprocess.run([target, *inputs], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-4000:]

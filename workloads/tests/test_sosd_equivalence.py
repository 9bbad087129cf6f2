"""datagen's SOSD synthetic sets against SOSD's own generators, re-run here
with numpy/scipy exactly as gen_uniform.py and gen_norm.py call them.

uden and uspr (both widths) and the uint32 norm/logn sets are bit-identical.
The uint64 norm/logn keys depend on the last ulp of scipy's ndtri, which we
do not copy: we solve the quantile with erfc instead. Those agree to a
relative 1e-12 (how many keys are bit-identical depends on whether the
extreme quantiles, which set the scaling, agree to the last bit)."""
import numpy as np
import pytest
from scipy.stats import lognorm, norm
from workloads_fixtures import datagen, run  # noqa: F401 (pytest fixtures)

N = 200_000


def _read(path, width):
    return np.fromfile(path, dtype=np.uint64 if width == 64 else np.uint32, offset=8)


def _gen(run, datagen, tmp_path, generator, width):
    out = tmp_path / f"{generator}_uint{width}"
    run(datagen, "gen", "--generator", generator, "--count", N, "--seed", 42, "--out", out)
    return _read(out, width)


def _sosd_quantiles(ppf, width):
    keys = np.linspace(0, 1, N + 2)[1:-1]
    keys = np.concatenate([ppf(x) for x in np.array_split(keys, 1000)])
    keys = (keys - np.min(keys)) / (np.max(keys) - np.min(keys))
    keys *= 2**63 - 1 if width == 64 else 2**32 - 1
    return keys.astype(np.uint64 if width == 64 else np.uint32)


@pytest.mark.parametrize("width", [64, 32])
def test_uniform_sparse_is_numpy_legacy_stream(run, datagen, tmp_path, width):
    np.random.seed(42)
    if width == 64:
        want = np.random.randint(0, 18446744073709551615, size=N, dtype="uint64")
    else:
        want = np.random.randint(0, 4294967295, size=N, dtype="uint32")
    want.sort()
    assert np.array_equal(_gen(run, datagen, tmp_path, "sosd_uspr", width), want)


@pytest.mark.parametrize("width", [64, 32])
def test_uniform_dense(run, datagen, tmp_path, width):
    want = np.arange(42, N + 42, dtype=np.uint64 if width == 64 else np.uint32)
    assert np.array_equal(_gen(run, datagen, tmp_path, "sosd_uden", width), want)


@pytest.mark.parametrize("generator, ppf", [
    ("sosd_norm", {64: norm.ppf, 32: norm.ppf}),
    ("sosd_logn", {64: lambda x: lognorm.ppf(x, 2), 32: lambda x: lognorm.ppf(x, 1)}),
])
@pytest.mark.parametrize("width", [64, 32])
def test_quantile_sets(run, datagen, tmp_path, generator, ppf, width):
    want = _sosd_quantiles(ppf[width], width)
    got = _gen(run, datagen, tmp_path, generator, width)
    if width == 32:
        assert np.array_equal(got, want)
        return
    rel = np.abs(got.astype(np.float64) - want.astype(np.float64)) / np.maximum(want.astype(np.float64), 1)
    assert rel.max() < 1e-12
    assert np.all(np.diff(got.astype(np.float64)) >= 0)

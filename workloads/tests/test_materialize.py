"""Dataset materialisation: stand-ins are labelled, a placed real file is
verified and downsampled SOSD's way, the paper scale refuses stand-ins,
output is deterministic, and manifests catch a tampered file."""
import hashlib
import json

import numpy as np
import pytest

from base.errors import InputError
from workloads import catalogue, manifest, materialize
from workloads_fixtures import datagen  # noqa: F401 (pytest fixtures)


def _cat_with_small_real(md5):
    cat = catalogue.load()
    cat["datasets"]["fb"]["real"].update(md5=md5, count=1000)
    return cat


def _write_sosd(path, keys):
    with open(path, "wb") as f:
        f.write(len(keys).to_bytes(8, "little"))
        np.asarray(keys, dtype=np.uint64).tofile(f)


def test_stand_in_is_labelled(tmp_path, datagen):
    out = tmp_path / "fb_uint64"
    f = materialize.dataset("fb", "smoke", out, datagen, tmp_path / "nodata", "prefer")
    m = manifest.read(str(out) + ".manifest.json")
    assert m == f
    assert m["stand_in"] is True and m["stands_in_for"] == "fb_200M_uint64"
    assert m["label_suffix"] == " (stand-in)" and m["generator"] == "fb_like" and m["seed"] == 42
    assert m["count"] == 200000 and m["sha256"] == manifest.sha256_of(out)


def test_same_inputs_same_bytes(tmp_path, datagen):
    a = materialize.dataset("norm", "smoke", tmp_path / "a" / "norm_uint64", datagen, tmp_path, "prefer")
    b = materialize.dataset("norm", "smoke", tmp_path / "b" / "norm_uint64", datagen, tmp_path, "prefer")
    assert a["sha256"] == b["sha256"]


def test_real_file_is_verified_and_downsampled_every_kth(tmp_path, datagen):
    data = tmp_path / "data"
    data.mkdir()
    keys = np.arange(0, 1_000_000, 3, dtype=np.uint64)[:1000] * 7
    real = data / "fb_200M_uint64"
    _write_sosd(real, keys)
    cat = _cat_with_small_real(hashlib.md5(real.read_bytes()).hexdigest())
    cat["datasets"]["fb"]["size"]["smoke"] = 300
    out = tmp_path / "fb_uint64"
    m = materialize.dataset("fb", "smoke", out, datagen, data, "require", cat=cat)
    assert m["stand_in"] is False and m["source"] == "real"
    assert m["real"]["checksum_verified"] and m["real"]["downsample_step"] == 3
    got = np.fromfile(out, dtype=np.uint64, offset=8)
    assert np.array_equal(got, keys[::3])  # SOSD's d[::k]
    assert m["count"] == 334


def test_real_file_with_wrong_md5_fails(tmp_path, datagen):
    data = tmp_path / "data"
    data.mkdir()
    _write_sosd(data / "fb_200M_uint64", [1, 2, 3])
    with pytest.raises(InputError, match="md5: expected 0{32}"):
        materialize.dataset("fb", "smoke", tmp_path / "fb_uint64", datagen, data, "prefer",
                            cat=_cat_with_small_real("0" * 32))


def test_unsorted_real_file_fails_naming_it(tmp_path, datagen):
    data = tmp_path / "data"
    data.mkdir()
    real = data / "fb_200M_uint64"
    _write_sosd(real, [1, 9, 3])
    with pytest.raises(InputError) as e:
        materialize.dataset("fb", "smoke", tmp_path / "fb_uint64", datagen, data, "prefer",
                            cat=_cat_with_small_real(hashlib.md5(real.read_bytes()).hexdigest()))
    assert f"{real}: key 2 (3) is smaller than key 1; sorted keys expected" in str(e.value)


def test_paper_scale_requires_the_real_file(tmp_path, datagen):
    with pytest.raises(InputError) as e:
        materialize.dataset("wiki", "paper", tmp_path / "wiki_uint64", datagen, tmp_path, "require")
    assert e.value.path == str(tmp_path / "wiki_ts_200M_uint64")
    assert "requires the real wiki_ts_200M_uint64" in e.value.expected
    assert not (tmp_path / "wiki_uint64").exists()


def test_variable_length_keys_get_a_length_file(tmp_path, datagen):
    m = materialize.dataset("ycsbgen_varlen", "smoke", tmp_path / "ycsbgen_varlen_uint64", datagen, tmp_path,
                            "prefer")
    materialize.key_lengths("ycsbgen_varlen", "smoke", tmp_path / "ycsbgen_varlen_keylen_uint32", datagen)
    lens = np.fromfile(tmp_path / "ycsbgen_varlen_keylen_uint32", dtype=np.uint32, offset=8)
    keys = np.fromfile(tmp_path / "ycsbgen_varlen_uint64", dtype=np.uint64, offset=8)
    assert len(lens) == len(keys) == m["count"]
    assert lens.min() == 8 and lens.max() == 24
    assert keys.max() < 10**8  # every key fits the shortest length


def test_size_set_follows_table_one(tmp_path, datagen):
    out = tmp_path / "sizes_zippydb_value_uint32"
    m = materialize.size_set("zippydb", "value", "smoke", out, datagen)
    sizes = np.fromfile(out, dtype=np.uint32, offset=8)
    assert len(sizes) == m["count"] == 200000
    assert abs(sizes.mean() - 42.9) < 1.0  # clamping at 1 lifts the mean a little


def test_manifest_verify_catches_tampering(tmp_path, datagen):
    out = tmp_path / "uden_uint64"
    materialize.dataset("uden", "smoke", out, datagen, tmp_path, "prefer")
    mpath = str(out) + ".manifest.json"
    manifest.verify(mpath)
    b = bytearray(out.read_bytes())
    b[-1] ^= 1
    out.write_bytes(bytes(b))
    with pytest.raises(InputError, match="sha256: expected"):
        manifest.verify(mpath)


def test_wrong_output_name(tmp_path, datagen):
    with pytest.raises(InputError, match="expected books32_uint32"):
        materialize.dataset("books32", "smoke", tmp_path / "books32_uint64", datagen, tmp_path, "prefer")

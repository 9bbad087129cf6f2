"""Real files: a placed copy is verified (and a wrong one rejected naming
both hashes); a download is zstd-decompressed and md5-checked before it
appears; a wrong checksum after download leaves nothing behind."""
import hashlib

import pytest
import zstandard

from base.errors import InputError
from workloads import sosd_fetch


def _sosd_bytes(keys):
    return len(keys).to_bytes(8, "little") + b"".join(k.to_bytes(8, "little") for k in keys)


@pytest.fixture
def source(tmp_path):
    raw = _sosd_bytes([1, 2, 3, 5, 8])
    plain = tmp_path / "src" / "toy_5_uint64"
    plain.parent.mkdir()
    plain.write_bytes(raw)
    (plain.parent / f"{plain.name}.zst").write_bytes(zstandard.ZstdCompressor().compress(raw))
    return raw, plain


def _real(url, md5, compression="zstd"):
    return {"file": "toy_5_uint64", "url": url, "compression": compression, "md5": md5, "count": 5}


def test_download_decompresses_and_verifies(tmp_path, source):
    raw, plain = source
    md5 = hashlib.md5(raw).hexdigest()
    dest = sosd_fetch.download(_real(f"file://{plain}.zst", md5), tmp_path / "data")
    assert dest.read_bytes() == raw
    assert sosd_fetch.verify(dest, _real("file:///x", md5))["checksum_verified"]


def test_wrong_checksum_after_download(tmp_path, source):
    _, plain = source
    data = tmp_path / "data"
    with pytest.raises(InputError) as e:
        sosd_fetch.download(_real(f"file://{plain}.zst", "0" * 32), data)
    assert e.value.field == "md5"
    assert e.value.expected.startswith("expected 00000000000000000000000000000000 (SOSD's download.sh), got ")
    assert list(data.iterdir()) == []  # no partial or unverified file left


def test_placed_file_with_wrong_checksum_is_rejected_not_overwritten(tmp_path, source):
    raw, _ = source
    placed = tmp_path / "toy_5_uint64"
    placed.write_bytes(raw[:-1] + b"\x07")
    with pytest.raises(InputError) as e:
        sosd_fetch.verify(placed, _real("file:///x", hashlib.md5(raw).hexdigest()))
    assert str(e.value).startswith(f"{placed}: md5: expected {hashlib.md5(raw).hexdigest()}")
    assert placed.exists()


def test_stamp_skips_rehash_but_notices_changes(tmp_path, source):
    raw, _ = source
    placed = tmp_path / "toy_5_uint64"
    placed.write_bytes(raw)
    md5 = hashlib.md5(raw).hexdigest()
    sosd_fetch.verify(placed, _real("file:///x", md5))
    assert (tmp_path / "toy_5_uint64.verified.json").exists()
    placed.write_bytes(raw + b"\x00")  # size changes: the stamp no longer applies
    with pytest.raises(InputError, match="md5"):
        sosd_fetch.verify(placed, _real("file:///x", md5))


def test_corrupt_zstd_stream(tmp_path):
    bad = tmp_path / "bad.zst"
    bad.write_bytes(b"not zstd at all")
    with pytest.raises(InputError, match="zstd"):
        sosd_fetch.download(_real(f"file://{bad}", "0" * 32), tmp_path / "data")


def test_unreachable_url(tmp_path):
    with pytest.raises(InputError) as e:
        sosd_fetch.download(_real(f"file://{tmp_path}/missing.zst", "0" * 32), tmp_path / "data")
    assert e.value.path == str(tmp_path / "data" / "toy_5_uint64") and e.value.field == "download"
    assert e.value.expected.startswith(f"could not fetch file://{tmp_path}/missing.zst")


def test_missing_placed_file_names_the_source(tmp_path):
    with pytest.raises(InputError, match="missing: place toy_5_uint64 here or run the download rule"):
        sosd_fetch.verify(tmp_path / "toy_5_uint64", _real("https://example.org/toy.zst", "0" * 32))

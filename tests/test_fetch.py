import hashlib
import io
import tarfile

import pytest
import yaml

from engines import fetch, registry
from base.errors import InputError


def _tarball(path):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        data = b"int main() { return 0; }\n"
        info = tarfile.TarInfo("demo-1.0/main.c")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    path.write_bytes(buf.getvalue())
    return hashlib.sha256(buf.getvalue()).hexdigest()


def _sources(tmp_path, sha):
    path = tmp_path / "sources.yaml"
    path.write_text(yaml.safe_dump({"demo": {"version": "1.0", "file": "demo-1.0.tar.gz", "sha256": sha,
                                             "top_dir": "demo-1.0", "urls": []}}))
    return path


def test_drop_folder_file_with_right_hash_is_used(tmp_path):
    drop = tmp_path / "drop"
    drop.mkdir()
    sha = _tarball(drop / "demo-1.0.tar.gz")
    out = tmp_path / "out" / "demo-1.0.tar.gz"
    fetch.fetch("demo", out, drop, _sources(tmp_path, sha))
    assert fetch.sha256_of(out) == sha


def test_wrong_checksum_names_file_and_both_hashes_and_writes_nothing(tmp_path):
    drop = tmp_path / "drop"
    drop.mkdir()
    got = _tarball(drop / "demo-1.0.tar.gz")
    pinned = "0" * 64
    out = tmp_path / "out" / "demo-1.0.tar.gz"
    with pytest.raises(InputError) as e:
        fetch.fetch("demo", out, drop, _sources(tmp_path, pinned))
    msg = str(e.value)
    assert "demo-1.0.tar.gz" in msg and pinned in msg and got in msg and "sha256" in msg
    assert not out.exists()


def test_unknown_source_name(tmp_path):
    with pytest.raises(InputError) as e:
        registry.pin("levledb", _sources(tmp_path, "0" * 64))
    assert "levledb" in str(e.value) and "demo" in str(e.value)

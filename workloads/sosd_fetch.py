"""Real SOSD files: download, decompress, verify; or verify a placed copy.

Sources and md5s are SOSD's scripts/download.sh (md5 of the decompressed
file). A file already in the data folder is verified and used, never
overwritten: a mismatch is an error naming the file and both hashes. A
download (resumed when cut off, base/download.py) is decompressed with
zstandard into a temporary file that is renamed only after its md5 matches.
Verified files get a `<file>.verified.json` stamp (size, mtime, md5) so later
runs skip re-hashing gigabytes.

    python -m workloads.sosd_fetch --dataset fb --data-dir data
"""
import argparse
import hashlib
import json
import os
from pathlib import Path

import zstandard

from base.download import Unreachable, download as fetch_url, file_hash
from base.errors import InputError, cli
from workloads import catalogue

CHUNK = 1 << 22


def md5_of(path):
    return file_hash(path, "md5")


def _stamp_path(path):
    return path.with_name(path.name + ".verified.json")


def _stamp_matches(path, md5):
    stamp = _stamp_path(path)
    if not stamp.is_file():
        return False
    st = path.stat()
    try:
        s = json.loads(stamp.read_text())
    except ValueError:
        return False
    return s.get("md5") == md5 and s.get("size") == st.st_size and s.get("mtime_ns") == st.st_mtime_ns


def _write_stamp(path, md5):
    st = path.stat()
    _stamp_path(path).write_text(json.dumps({"md5": md5, "size": st.st_size, "mtime_ns": st.st_mtime_ns}))


def verify(path, real):
    """Checks a placed real file against the catalogue's md5 (when SOSD
    publishes one). Returns the facts for the manifest."""
    path = Path(path)
    if not path.is_file():
        raise InputError(path, "file", f"missing: place {real['file']} here or run the download rule ({real['url']})")
    want = real["md5"]
    if want is None:
        return {"md5": md5_of(path), "md5_expected": None, "checksum_verified": False}
    if not _stamp_matches(path, want):
        got = md5_of(path)
        if got != want:
            raise InputError(path, "md5", f"expected {want} (SOSD's download.sh), got {got}")
        _write_stamp(path, want)
    return {"md5": want, "md5_expected": want, "checksum_verified": True}


def _unpack_zstd(packed, out, url):
    """Decompresses `packed` into `out`; returns the md5 of what it wrote."""
    h = hashlib.md5()
    try:
        with open(packed, "rb") as src, open(out, "wb") as dst, \
                zstandard.ZstdDecompressor().stream_reader(src) as reader:
            while chunk := reader.read(CHUNK):
                h.update(chunk)
                dst.write(chunk)
    except zstandard.ZstdError as e:
        raise InputError(url, "zstd", f"a valid zstd stream expected ({e})") from None
    return h.hexdigest()


def download(real, data_dir):
    """Downloads real['url'] into data_dir/real['file'] (decompressing zstd),
    verifying the md5 before the file appears under its name. An interrupted
    transfer is resumed by the next call (base/download.py)."""
    dest = Path(data_dir) / real["file"]
    raw = dest.with_name(f".{dest.name}.download")  # the file as served
    tmp = dest.with_name(f".{dest.name}.unpacked{os.getpid()}")
    try:
        fetch_url(real["url"], raw)
        if real["compression"] == "zstd":
            got = _unpack_zstd(raw, tmp, real["url"])
        else:
            got = md5_of(raw)
            os.replace(raw, tmp)
        if real["md5"] is not None and got != real["md5"]:
            raise InputError(dest, "md5", f"expected {real['md5']} (SOSD's download.sh), got {got} after download from {real['url']}")
        os.replace(tmp, dest)
        if real["md5"] is not None:
            _write_stamp(dest, got)
    except (Unreachable, OSError) as e:
        raise InputError(dest, "download", f"could not fetch {real['url']} ({e}); place the file here "
                         f"(md5 {real['md5']}) to use it without downloading") from None
    finally:
        for leftover in (raw, tmp):
            leftover.unlink(missing_ok=True)
    return dest


def fetch(name, data_dir, cat=None):
    cat = cat or catalogue.load()
    e = catalogue.entry(cat, name)
    if e["kind"] != "real":
        raise InputError(catalogue.CATALOGUE, f"datasets.{name}.kind", "expected a real dataset to fetch")
    real = e["real"]
    path = Path(data_dir) / real["file"]
    if not path.exists():
        download(real, data_dir)
    return path, verify(path, real)


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--data-dir", required=True)
    args = ap.parse_args(argv)
    path, facts = fetch(args.dataset, args.data_dir)
    print(json.dumps({"file": str(path), **facts}))


if __name__ == "__main__":
    main()

"""Downloads a file over HTTP(S) with retries, a timeout, resume and a
progress bar (requests, urllib3's Retry, tqdm), verifying its hash before it
appears under its name. engines/fetch.py (source tarballs) and
workloads/sosd_fetch.py (SOSD datasets) both fetch through it.

The bytes go to `<dest>.part` first; a later call resumes that file with an
HTTP Range request, so a multi-gigabyte download cut off halfway is not
started again. file:// URLs (a local mirror) are copied.
"""
import hashlib
import os
import shutil
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import requests
from requests.adapters import HTTPAdapter
from tqdm import tqdm
from urllib3.util.retry import Retry

from base.errors import InputError

TIMEOUT = 30  # seconds without a byte before a connection counts as lost
CHUNK = 1 << 20


class Unreachable(Exception):
    """The URL gave no file (network error, HTTP error, missing path)."""


def file_hash(path, algorithm):
    with open(path, "rb") as f:
        return hashlib.file_digest(f, algorithm).hexdigest()


def _session(retries):
    s = requests.Session()
    retry = Retry(total=retries, backoff_factor=1, status_forcelist=(429, 500, 502, 503, 504),
                  allowed_methods=("GET",))
    s.mount("https://", HTTPAdapter(max_retries=retry))
    s.mount("http://", HTTPAdapter(max_retries=retry))
    return s


def _http_to(url, part, retries):
    have = part.stat().st_size if part.exists() else 0
    headers = {"Range": f"bytes={have}-"} if have else {}
    try:
        with _session(retries).get(url, headers=headers, stream=True, timeout=TIMEOUT) as r:
            if r.status_code == 416 and have:  # nothing left to fetch: the part is whole
                return
            r.raise_for_status()
            resumed = r.status_code == 206
            total = int(r.headers.get("Content-Length", 0)) + (have if resumed else 0)
            with open(part, "ab" if resumed else "wb") as out, \
                    tqdm(total=total or None, initial=have if resumed else 0, unit="B",
                         unit_scale=True, unit_divisor=1024, desc=part.name[:-len(".part")],
                         file=sys.stderr, disable=None) as bar:
                for chunk in r.iter_content(CHUNK):
                    out.write(chunk)
                    bar.update(len(chunk))
    except requests.RequestException as e:
        raise Unreachable(f"{url}: {e}") from None


def download(url, dest, algorithm=None, expected=None, retries=3):
    """Fetches `url` into `dest` (a Path), verifying `algorithm` (a hashlib
    name) against `expected` when given: a mismatch removes the partial file
    and raises InputError naming both hashes. Raises Unreachable when the URL
    gives nothing. Returns dest."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.with_name(dest.name + ".part")
    scheme = urllib.parse.urlsplit(url).scheme
    if scheme == "file":
        src = Path(urllib.request.url2pathname(urllib.parse.urlsplit(url).path))
        if not src.is_file():
            raise Unreachable(f"{url}: no such file")
        shutil.copyfile(src, part)
    elif scheme in ("http", "https"):
        _http_to(url, part, retries)
    else:
        raise Unreachable(f"{url}: expected an http, https or file URL")
    if expected is not None:
        got = file_hash(part, algorithm)
        if got != expected:
            part.unlink()
            raise InputError(dest, algorithm, f"expected {expected}, got {got} (from {url})")
    os.replace(part, dest)
    return dest

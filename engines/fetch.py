"""Fetches one pinned upstream tarball of engines/sources.yaml and verifies it.

Tries, in order: the local drop folder, each upstream URL, Debian's source
package. A source that is unreachable is skipped; a file that is reached but
has the wrong sha256 stops everything, naming the file and both hashes,
because a wrong tarball must never be built.

    python -m engines.fetch leveldb --out build/sources/leveldb-1.23.tar.gz
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

import yaml

from lsmrepro.atomic import atomic_path
from lsmrepro.errors import InputError, cli

SOURCES = Path(__file__).with_name("sources.yaml")


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def load_pin(name, sources=SOURCES):
    with open(sources) as f:
        pins = yaml.safe_load(f)
    if name not in pins:
        raise InputError(sources, name, f"no such source; known: {', '.join(sorted(pins))}")
    pin = pins[name]
    for field in ("file", "sha256", "top_dir"):
        if not isinstance(pin.get(field), str):
            raise InputError(sources, f"{name}.{field}", "a string is required")
    return pin


def verify(path, pin, origin):
    got = sha256_of(path)
    if got != pin["sha256"]:
        raise InputError(path, "sha256",
                         f"expected {pin['sha256']}, got {got} (from {origin})")


def from_drop(pin, drop_dir):
    names = [pin["file"]] + ([pin["debian"]["file"]] if "debian" in pin else [])
    for name in names:
        candidate = Path(drop_dir) / name
        if candidate.is_file():
            return candidate, f"drop folder {candidate}"
    return None, None


def from_url(url, workdir):
    target = Path(workdir) / "download"
    try:
        with urllib.request.urlopen(url, timeout=20) as r, open(target, "wb") as f:
            shutil.copyfileobj(r, f)
    except OSError as e:
        print(f"fetch: {url} unreachable ({e}); trying the next source", file=sys.stderr)
        return None
    return target


def debian_deb_src_lines():
    """deb-src lines for the machine's own Debian mirror: its `deb` entries
    for the release codename, with the type changed (the machine's sources
    carry only binary entries)."""
    codename = ""
    with open("/etc/os-release") as f:
        for line in f:
            if line.startswith("VERSION_CODENAME="):
                codename = line.split("=", 1)[1].strip().strip('"')
    lines = []
    sources_d = Path("/etc/apt/sources.list.d")
    for path in sorted(sources_d.glob("*.sources")) if sources_d.is_dir() else []:
        for stanza in path.read_text().split("\n\n"):
            fields = {}
            for raw in stanza.splitlines():
                if ":" in raw and not raw.startswith(("#", " ")):
                    k, v = raw.split(":", 1)
                    fields[k.strip().lower()] = v.strip()
            if "deb" not in fields.get("types", "").split():
                continue
            signed = fields.get("signed-by")
            opts = f"[signed-by={signed}] " if signed and not signed.startswith("-") else ""
            for uri in fields.get("uris", "").split():
                for suite in fields.get("suites", "").split():
                    if suite == codename:
                        lines.append(f"deb-src {opts}{uri} {suite} {fields.get('components', 'main')}")
    legacy = Path("/etc/apt/sources.list")
    if legacy.is_file():
        for raw in legacy.read_text().splitlines():
            parts = raw.split()
            if len(parts) >= 4 and parts[0] == "deb" and codename in parts:
                lines.append("deb-src " + raw.split(None, 1)[1])
    return lines


def from_debian(pin, workdir):
    deb = pin.get("debian")
    if not deb or not shutil.which("apt-get"):
        return None
    lines = debian_deb_src_lines()
    if not lines:
        print("fetch: no Debian mirror in the apt sources; skipping apt-get source", file=sys.stderr)
        return None
    state = Path(workdir) / "apt"
    for d in ("lists/partial", "cache/archives/partial"):
        (state / d).mkdir(parents=True, exist_ok=True)
    (state / "sources.list").write_text("\n".join(lines) + "\n")
    # A private apt state: the machine's apt configuration is never touched.
    opts = ["-o", f"Dir::Etc::SourceList={state / 'sources.list'}",
            "-o", "Dir::Etc::SourceParts=/nonexistent",
            "-o", f"Dir::State={state}", "-o", f"Dir::Cache={state / 'cache'}",
            "-o", "Debug::NoLocking=1", "-qq"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    try:
        subprocess.run(["apt-get", *opts, "update"], check=True, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)
        subprocess.run(["apt-get", *opts, "source", "--download-only",
                        f"{deb['package']}={deb['version']}"], check=True, cwd=workdir,
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=600)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
        msg = (getattr(e, "stderr", b"") or b"").decode(errors="replace").strip()
        print(f"fetch: apt-get source {deb['package']} failed: {msg}", file=sys.stderr)
        return None
    target = Path(workdir) / deb["file"]
    return target if target.is_file() else None


def fetch(name, out, drop_dir, sources=SOURCES):
    pin = load_pin(name, sources)
    found, origin = from_drop(pin, drop_dir)
    with tempfile.TemporaryDirectory(prefix=f"fetch-{name}-") as work:
        if found is None:
            for url in pin.get("urls", []):
                found = from_url(url, work)
                if found is not None:
                    origin = url
                    break
        if found is None:
            found = from_debian(pin, work)
            origin = f"Debian source package {pin.get('debian', {}).get('package')}"
        if found is None:
            raise InputError(sources, name,
                             f"no source reachable: put {pin['file']} into {drop_dir}/")
        verify(found, pin, origin)
        with atomic_path(out) as tmp:
            shutil.copyfile(found, tmp)
    print(f"fetch: {name} from {origin}, sha256 verified", file=sys.stderr)


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name")
    ap.add_argument("--out", required=True)
    ap.add_argument("--drop-dir", default="sources")
    ap.add_argument("--sources", default=str(SOURCES))
    args = ap.parse_args(argv)
    fetch(args.name, args.out, args.drop_dir, Path(args.sources))


if __name__ == "__main__":
    main()

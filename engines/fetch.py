"""Fetches one pinned upstream tarball of engines/sources.yaml and verifies it.

Tries, in order: the local drop folder, each upstream URL, Debian's source
package. A source that is unreachable is skipped; a file that is reached but
has the wrong sha256 stops everything, naming the file and both hashes,
because a wrong tarball must never be built. Downloads retry, show progress
and resume a partial `<out>.part` (base/download.py).

    python -m engines.fetch leveldb --out build/sources/leveldb-1.23.tar.gz
"""
import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from debian.deb822 import Deb822

from engines import registry
from base.download import Unreachable, download, file_hash
from base.atomic import atomic_path
from base.errors import InputError, cli


def sha256_of(path):
    return file_hash(path, "sha256")


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


def from_url(url, pin, out):
    """The verified tarball at `out`, or None when the URL gives nothing; a
    partial download is resumed by the next call."""
    try:
        return download(url, out, "sha256", pin["sha256"])
    except Unreachable as e:
        print(f"fetch: {e}; trying the next source", file=sys.stderr)
        return None


def deb_src_entries(apt_dir=Path("/etc/apt"), codename=None):
    """deb-src entries for the machine's own Debian mirror, whose sources
    carry only binary entries: (deb822 stanzas, one-line entries). Each `deb`
    entry of the release codename, with the type changed; everything else
    (Signed-By, components) kept as the machine has it."""
    codename = codename or platform.freedesktop_os_release().get("VERSION_CODENAME", "")
    stanzas = []
    parts = Path(apt_dir) / "sources.list.d"
    for path in sorted(parts.glob("*.sources")) if parts.is_dir() else []:
        with open(path) as f:
            for stanza in Deb822.iter_paragraphs(f):
                suites = [s for s in stanza.get("Suites", "").split() if s == codename]
                if "deb" not in stanza.get("Types", "").split() or not suites:
                    continue
                src = Deb822(stanza)
                src["Types"], src["Suites"] = "deb-src", " ".join(suites)
                stanzas.append(src)
    lines = []
    legacy = Path(apt_dir) / "sources.list"
    if legacy.is_file():
        for raw in legacy.read_text().splitlines():
            fields = raw.split()
            if len(fields) >= 4 and fields[0] == "deb" and codename in fields:
                lines.append("deb-src " + raw.split(None, 1)[1])
    return stanzas, lines


def from_debian(pin, workdir):
    deb = pin.get("debian")
    if not deb or not shutil.which("apt-get"):
        return None
    stanzas, lines = deb_src_entries()
    if not stanzas and not lines:
        print("fetch: no Debian mirror in the apt sources; skipping apt-get source", file=sys.stderr)
        return None
    state = Path(workdir) / "apt"
    for d in ("lists/partial", "cache/archives/partial", "sources.list.d"):
        (state / d).mkdir(parents=True, exist_ok=True)
    (state / "sources.list").write_text("".join(f"{line}\n" for line in lines))
    (state / "sources.list.d" / "mirror.sources").write_text(
        "\n".join(stanza.dump() for stanza in stanzas))
    # A private apt state: the machine's apt configuration is never touched.
    opts = ["-o", f"Dir::Etc::SourceList={state / 'sources.list'}",
            "-o", f"Dir::Etc::SourceParts={state / 'sources.list.d'}",
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


def fetch(name, out, drop_dir, sources=registry.SOURCES):
    pin = registry.pin(name, sources)
    found, origin = from_drop(pin, drop_dir)
    if found is None:
        for url in pin.get("urls", []):
            if from_url(url, pin, Path(out)) is not None:
                print(f"fetch: {name} from {url}, sha256 verified", file=sys.stderr)
                return
    with tempfile.TemporaryDirectory(prefix=f"fetch-{name}-") as work:
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
    ap.add_argument("--sources", default=str(registry.SOURCES))
    args = ap.parse_args(argv)
    fetch(args.name, args.out, args.drop_dir, Path(args.sources))


if __name__ == "__main__":
    main()

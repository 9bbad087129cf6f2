"""Builds one engine variant of engines/engines.yaml and its lsmbench.

Unpacks the verified tarball, lays the variant's overlay and patches over
it, builds the engine's static library and then lsmbench against it (CMake,
Release, ccache, one job per core), and writes the build id every run log
carries: source hash, overlay hash, git commit, compiler, flags, timings.

    python -m engines.build_engine leveldb --tarball build/sources/leveldb-1.23.tar.gz \
        --work build/engines/leveldb
"""
import argparse
import datetime
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

from engines import registry
from engines.fetch import sha256_of
from base.atomic import write_text
from base.errors import InputError, cli

REPO = registry.REPO
DRIVER = registry.DRIVER


def cmake_args(variant):
    """The variant's CMake arguments; `{repo}` stands for this repository
    (layers that compile the indexes library need its include folder)."""
    return [a.replace("{repo}", str(REPO)) for a in variant.get("cmake_args", [])]


def overlay_hash(name):
    """Hash of our own code that goes into this binary (registry.build_inputs,
    which are also the Snakemake rule's inputs). Content, not commits, so an
    uncommitted edit changes the id too."""
    h = hashlib.sha256()
    for p in registry.build_inputs(name):
        h.update(str(p.relative_to(REPO)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def ccache_env(work):
    """The environment a build under `work` compiles in: ccache rewrites
    absolute paths below its base folder relative to the compile's folder,
    so a clone at another path (CI's clean checkout) hits the same entries.
    The base covers this repository too, not only the work folder: the
    variants' include folders and lsmbench's sources are the repository's
    ({repo}/indexes/include, engines/driver), and an absolute one there put
    the clone's path in every direct-mode key (a warm clone then ran the
    preprocessor on each of RocksDB's files to find its preprocessed hit)."""
    common = Path(os.path.commonpath([REPO, Path(work).resolve()]))
    base = common if common != Path(common.anchor) else Path(work).resolve()
    return dict(os.environ, CCACHE_BASEDIR=str(base), CCACHE_NOHASHDIR="1")


def git(*args):
    try:
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def compiler_version():
    cxx = os.environ.get("CXX", "c++")
    out = subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout
    return out.splitlines()[0] if out else cxx


def run(cmd, log, **kw):
    log.write(f"$ {' '.join(map(str, cmd))}\n")
    log.flush()
    r = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, **kw)
    if r.returncode != 0:
        raise SystemExit(f"error: build step failed ({r.returncode}): {' '.join(map(str, cmd))}; "
                         f"see {log.name}")


def unpack(tarball, top_dir, dest):
    if dest.exists():
        shutil.rmtree(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = dest.parent / "unpack.tmp"
    if staging.exists():
        shutil.rmtree(staging)
    with tarfile.open(tarball) as t:
        if hasattr(tarfile, "data_filter"):
            t.extractall(staging, filter="data")
        else:  # Python < 3.11.4 (Debian 12's 3.11.2): refuse escaping paths by hand
            for member in t.getmembers():
                target = (staging / member.name).resolve()
                if not str(target).startswith(str(staging.resolve())) or member.issym() and \
                        os.path.isabs(member.linkname):
                    raise InputError(tarball, member.name, "a path inside the archive expected")
            t.extractall(staging)
    (staging / top_dir).rename(dest)
    shutil.rmtree(staging)


def apply_overlay(name, src, log, layers=None):
    """Lays the variant's layers (or the given subset of them) over src."""
    for variant_dir in layers if layers is not None else registry.layers(name):
        overlay = variant_dir / registry.OVERLAY
        if overlay.is_dir():
            shutil.copytree(overlay, src, dirs_exist_ok=True)
        patches = variant_dir / registry.PATCHES
        for patch in sorted(patches.glob("*.patch")) if patches.is_dir() else []:
            run(["patch", "-p1", "--forward", "-i", str(patch)], log, cwd=src)


def build(name, tarball, work, jobs):
    variant = registry.variant(name)
    pin = registry.pin(variant["source"])
    got = sha256_of(tarball)
    if got != pin["sha256"]:
        raise InputError(tarball, "sha256", f"expected {pin['sha256']}, got {got}")
    work = Path(work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    src, lib_build, drv_build = work / "src", work / "lib-build", work / "driver-build"
    jobs = jobs or os.cpu_count() or 1
    launcher = ["-DCMAKE_C_COMPILER_LAUNCHER=ccache", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"] \
        if shutil.which("ccache") else []
    env = ccache_env(work)
    lib_flags = ["-DCMAKE_BUILD_TYPE=Release", *cmake_args(variant)]

    library_from = variant.get("library_from")
    if library_from:
        # Same library as another variant (e.g. rocksdb-doblix links the
        # rocksdb build that carries the plugin): only lsmbench is built.
        donor = work.parent / library_from
        if not (donor / "build_id.json").exists():
            raise InputError(registry.VARIANTS, f"{name}.library_from",
                             f"a built engine expected; build {library_from} first")
        src, lib_build = donor / "src", donor / "lib-build"
        variant = dict(variant, library=registry.variant(library_from)["library"])
        lib_flags = json.loads((donor / "build_id.json").read_text())["flags"]

    t0, c0 = time.time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(work / "build.log", "w") as log:
        if not library_from:
            unpack(tarball, pin["top_dir"], src)
            apply_overlay(name, src, log)
            if lib_build.exists():
                shutil.rmtree(lib_build)
            run(["cmake", "-S", src, "-B", lib_build, "-G", "Ninja", *lib_flags, *launcher], log,
                env=env)
            run(["cmake", "--build", lib_build, "--target", variant["target"], "-j", str(jobs)],
                log, env=env)
        t_lib = time.time() - t0
        if drv_build.exists():
            shutil.rmtree(drv_build)
        run(["cmake", "-S", DRIVER, "-B", drv_build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
             f"-DLSMBENCH_ENGINE={variant['adapter']}", f"-DLSMBENCH_ENGINE_ID={name}",
             f"-DENGINE_SOURCE_DIR={src}",
             f"-DENGINE_BUILD_DIR={lib_build}", f"-DENGINE_LIBRARY={lib_build / variant['library']}",
             f"-DENGINE_LINK_LIBS={';'.join(variant.get('link', []))}", *launcher], log, env=env)
        run(["cmake", "--build", drv_build, "-j", str(jobs)], log, env=env)
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.time() - t0
    cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)

    binary = work / "bin" / "lsmbench"
    binary.parent.mkdir(exist_ok=True)
    shutil.copy2(drv_build / "lsmbench", binary)
    identity = {
        "engine": name,
        "source": {"name": variant["source"], "version": pin.get("version"), "sha256": pin["sha256"]},
        "overlay_sha256": overlay_hash(name),
        "compiler": compiler_version(),
        "flags": ["-DCMAKE_BUILD_TYPE=Release", *variant.get("cmake_args", [])],
    }
    if library_from:
        identity["library_from"] = library_from
    build_id = dict(
        id=hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:12],
        **identity,
        git_commit=git("rev-parse", "HEAD"),
        git_dirty=bool(git("status", "--porcelain", "--", "engines", "workloads/sosd", "indexes")),
        jobs=jobs,
        ccache=bool(launcher),
        build_seconds={"library": round(t_lib, 1), "total": round(wall, 1)},
        build_cpu_seconds=round(cpu, 1),
        built_at=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    )
    write_text(work / "build_id.json", json.dumps(build_id, indent=2) + "\n")
    print(f"build: {name} in {wall:.0f}s wall, {cpu:.0f}s CPU, id {build_id['id']}", file=sys.stderr)


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("--tarball", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--jobs", type=int, default=0, help="0 = one per core")
    args = ap.parse_args(argv)
    build(args.engine, args.tarball, args.work, args.jobs)


if __name__ == "__main__":
    main()

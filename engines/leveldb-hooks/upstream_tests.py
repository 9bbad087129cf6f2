"""Runs LevelDB 1.23's own test suite against one engine variant.

The pinned tarball is unpacked, the variant's layers (engines.yaml) laid
over it exactly as engines/build_engine.py does, and the upstream tests built
against Debian's GoogleTest/benchmark packages (the tarball lacks its git
submodules; CMake is pointed at find_package as Debian's packaging does).
With --format SPEC the library is compiled with the variant's
`table_format_parser` (engines.yaml) and every test runs with
LEVELDB_TABLE_FORMAT=SPEC, so each database the tests open writes and reads
the variant's tables: e.g. `--format index=pgm,position_boundary=16`.

The layers' own tests (`engines/<layer>/tests/*_test.cc`, with the headers
they share, `tests/*.h`) are built and run the same way. Each test program
runs on its own with --gtest_output=json; a failing case is a regression
unless pristine LevelDB 1.23 fails it too (BASELINE, measured here) or the
variant lists it as skipped, with why, in its folder's `upstream_skips.yaml`
(case names, applied as a --gtest_filter exclusion).

    .venv/bin/python engines/leveldb-hooks/upstream_tests.py leveldb-learned \\
        --tarball build/sources/leveldb-1.23.tar.gz --work build/upstream/learned \\
        --format index=pgm,position_boundary=16 [--tests db_test,table_test]

Exit 0 when no regression, 1 otherwise; a summary line per program.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # run as a script

from engines import build_engine, registry  # noqa: E402
from engines.fetch import sha256_of  # noqa: E402
from base.errors import InputError, cli  # noqa: E402

# Pristine LevelDB 1.23 fails this case here too (NOTES.md: db/db_test.cc:1372,
# a hidden value still present after compaction, two runs out of two).
BASELINE = {"db_test": {"DBTest.HiddenValuesAreRemoved"}}


def use_system_gtest(cmakelists):
    """The tarball's test section, rewritten for Debian's GTest/benchmark."""
    text = cmakelists.read_text()
    text = text.replace('add_subdirectory("third_party/googletest")', "find_package(GTest REQUIRED)")
    text = text.replace('add_subdirectory("third_party/benchmark")', "find_package(benchmark REQUIRED)")
    text = re.sub(r"  # GoogleTest triggers a missing field initializers warning\.\n.*?"
                  r"endif\(LEVELDB_HAVE_NO_MISSING_FIELD_INITIALIZERS\)\n", "", text, flags=re.S)
    text = text.replace('target_link_libraries("${test_target_name}" leveldb gmock gtest benchmark)',
                        'target_link_libraries("${test_target_name}" leveldb GTest::gmock GTest::gtest '
                        'benchmark::benchmark)')
    if "find_package(GTest REQUIRED)" not in text or "GTest::gmock" not in text:
        raise InputError(cmakelists, "test section", "the LevelDB 1.23 layout this script rewrites")
    cmakelists.write_text(text)


def add_layer_tests(layers, src):
    """Each layer's own tests/*_test.cc, built like LevelDB's tests, and the
    headers they share (tests/*.h, included as "layer_tests/NAME.h")."""
    names = []
    for layer in layers:
        tests = sorted((layer / "tests").glob("*_test.cc"))
        for file in tests + sorted((layer / "tests").glob("*.h")):
            dest = src / "layer_tests" / file.name
            dest.parent.mkdir(exist_ok=True)
            shutil.copy2(file, dest)
        names += [test.stem for test in tests]
    if names:
        lines = "".join(f'  leveldb_test("layer_tests/{n}.cc")\n' for n in names)
        text = (src / "CMakeLists.txt").read_text()
        anchor = '  leveldb_test("db/c_test.c")\n'
        (src / "CMakeLists.txt").write_text(text.replace(anchor, anchor + lines, 1))
    return names


def skips_of(layers):
    """Case name -> reason, from each layer's upstream_skips.yaml."""
    skips = {}
    for layer in layers:
        f = layer / "upstream_skips.yaml"
        if f.is_file():
            skips.update(yaml.safe_load(f.read_text()) or {})
    return skips


def _text(b):
    return b.decode(errors="replace") if isinstance(b, bytes) else (b or "")


def run_program(binary, env, skips, out_json, timeout):
    cmd = [str(binary), f"--gtest_output=json:{out_json}"]
    if skips:
        cmd.append("--gtest_filter=-" + ":".join(sorted(skips)))
    try:
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=binary.parent,
                           timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return {f"<timed out after {timeout} s>"}, 0, subprocess.CompletedProcess(
            cmd, -1, _text(e.stdout), _text(e.stderr))
    failed, total = set(), 0
    if Path(out_json).is_file():
        report = json.loads(Path(out_json).read_text())
        for suite in report.get("testsuites", []):
            for case in suite.get("testsuite", []):
                total += 1
                if case.get("failures") or case.get("result") not in ("COMPLETED", None):
                    failed.add(f"{suite['name']}.{case['name']}")
    elif r.returncode != 0:
        failed.add("<crashed: " + (r.stderr.strip().splitlines() or ["?"])[-1][:200] + ">")
    return failed, total, r


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variant", help="engines.yaml key (leveldb, leveldb-learned, ...)")
    ap.add_argument("--tarball", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--format", default="", help="LEVELDB_TABLE_FORMAT spec for every test")
    ap.add_argument("--tests", default="", help="comma-separated test programs (default: all)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=1200, help="seconds per test program")
    ap.add_argument("--without", action="append", default=[], metavar="LAYER",
                    help="leave this layer of the variant out (e.g. bourbon --without wisckey: "
                         "its table format on LevelDB's own value path)")
    args = ap.parse_args(argv)

    variant = registry.variant(args.variant)
    layers = registry.layers(args.variant)
    for name in args.without:
        if name not in [layer.name for layer in layers]:
            raise InputError(registry.VARIANTS, f"{args.variant}.layers",
                             f"a layer named {name!r} for --without (has {', '.join(x.name for x in layers)})")
    layers = [layer for layer in layers if layer.name not in args.without]
    pin = registry.pin(variant["source"])
    if sha256_of(args.tarball) != pin["sha256"]:
        raise InputError(args.tarball, "sha256", f"expected {pin['sha256']}")
    parser = variant.get("table_format_parser")
    if args.format and not parser:
        raise InputError(registry.VARIANTS, f"{args.variant}.table_format_parser",
                         "a parser function name, for --format")
    work = Path(args.work).resolve()
    src, bld = work / "src", work / "build"
    work.mkdir(parents=True, exist_ok=True)
    with open(work / "build.log", "w") as log:
        build_engine.unpack(args.tarball, pin["top_dir"], src)
        build_engine.apply_overlay(args.variant, src, log, layers)
        use_system_gtest(src / "CMakeLists.txt")
        add_layer_tests(layers, src)
        flags = [a for a in build_engine.cmake_args(variant) if not a.startswith("-DLEVELDB_BUILD_TESTS")]
        if parser:
            flags.append(f"-DLEVELDB_TABLE_FORMAT_PARSER={parser}")
        launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"] \
            if shutil.which("ccache") else []
        env = build_engine.ccache_env(work)
        build_engine.run(["cmake", "-S", src, "-B", bld, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                          "-DLEVELDB_BUILD_TESTS=ON", "-DLEVELDB_BUILD_BENCHMARKS=OFF", *flags,
                          *launcher], log, env=env)
        programs = [t for t in args.tests.split(",") if t]
        build_engine.run(["cmake", "--build", bld, "-j", str(args.jobs), *(
            ["--target", *programs] if programs else [])], log, env=env)

    # A format's skips apply when its tables are in use; a variant without a
    # format parser (wisckey) always runs with its layers' changes.
    skips = skips_of(layers) if args.format or not parser else {}
    for case, why in sorted(skips.items()):
        print(f"skip {case}: {why}")
    if not programs:
        programs = sorted(p.name for p in bld.iterdir()
                          if p.name.endswith("_test") and os.access(p, os.X_OK) and p.is_file())
    env = dict(os.environ, LEVELDB_TABLE_FORMAT=args.format, TEST_TMPDIR=str(work / "tmp"))
    (work / "tmp").mkdir(exist_ok=True)
    regressions = 0
    for prog in programs:
        failed, total, r = run_program(bld / prog, env, skips, work / f"{prog}.json", args.timeout)
        expected = BASELINE.get(prog, set())
        new = failed - expected
        regressions += len(new)
        state = "ok" if not new else "REGRESSION " + ", ".join(sorted(new))
        extra = f" (baseline failures: {', '.join(sorted(failed & expected))})" if failed & expected else ""
        print(f"{prog}: {total} cases, {len(failed)} failed: {state}{extra}")
        if new:
            (work / f"{prog}.out").write_text(r.stdout + r.stderr)
    without = "".join(f" without {name}" for name in args.without)
    print(f"upstream tests of {args.variant}{without} format '{args.format or 'native'}': "
          f"{len(programs)} programs, {regressions} regressions")
    sys.exit(1 if regressions else 0)


if __name__ == "__main__":
    main()

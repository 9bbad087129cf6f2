"""Fuzzes leveldb-learned's table and model readers (issue 54 item 3) with
libFuzzer, under ASan and UBSan, for a bounded time.

The pinned LevelDB tarball is unpacked with leveldb-learned's layers laid
over it (as engines/build_engine.py does), its library compiled by clang
with ASan, UBSan and libFuzzer's coverage (NDEBUG, as the engine is built),
and `fuzz/learned_table_fuzzer.cc` linked against it
(build/fuzz/leveldb-learned/). The target opens a table of each learned
format (learned with a filter, keep_keys, LITS, SLR eq and ea, fp) and
reads every key, a scan and seeks; its seeds are those formats' pristine
tables, in three modes (checked, resealed crcs, unverified reads): see the
target's header for the oracle. The corpus grows in
build/fuzz/leveldb-learned/corpus (kept between runs).

    python -m engines.fuzz --seconds 1800       # the long run (README's longer checks)
    python -m engines.fuzz --seconds 5          # ./run-tests' sample (tests/test_fuzz.py)

Exit 0 and one line (inputs run, corpus size, 0 crashes, 0 hangs, 0 wrong
answers) when libFuzzer stopped at the time limit; else its report, the
input that failed under build/fuzz/leveldb-learned/artifacts/, exit 1.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from base.errors import InputError, cli
from engines import build_engine, registry
from engines.fetch import sha256_of

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
VARIANT = "leveldb-learned"
# -O1 -g for readable reports; NDEBUG as the engine's Release build has it.
SANITIZE = "-g -O1 -DNDEBUG -fsanitize=address,undefined -fno-sanitize-recover=undefined"
TIMEOUT_EXIT, ERROR_EXIT = 77, 78
MEMORY_MB = 2048  # the fuzzer's own resident memory, and any one allocation


def build(build_dir, tarball, log_name="build.log"):
    """The sanitized library and the target; returns the target's path."""
    for tool in ("clang", "clang++"):
        if shutil.which(tool) is None:
            raise InputError("scripts/setup.sh", "PACKAGES", f"{tool} (Debian clang, libclang-rt-14-dev) installed")
    variant = registry.variant(VARIANT)
    pin = registry.pin(variant["source"])
    if sha256_of(tarball) != pin["sha256"]:
        raise InputError(tarball, "sha256", f"expected {pin['sha256']}")
    work = (Path(build_dir) / "fuzz" / VARIANT).resolve()
    src, lib, out = work / "src", work / "lib-build", work / "fuzzer-build"
    work.mkdir(parents=True, exist_ok=True)
    launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"] \
        if shutil.which("ccache") else []
    env = build_engine.ccache_env(work)
    compilers = ["-DCMAKE_C_COMPILER=clang", "-DCMAKE_CXX_COMPILER=clang++"]
    with open(work / log_name, "w") as log:
        build_engine.unpack(tarball, pin["top_dir"], src)
        build_engine.apply_overlay(VARIANT, src, log)
        build_engine.run(["cmake", "-S", src, "-B", lib, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=",
                          f"-DCMAKE_C_FLAGS={SANITIZE} -fsanitize=fuzzer-no-link",
                          f"-DCMAKE_CXX_FLAGS={SANITIZE} -fsanitize=fuzzer-no-link",
                          *compilers, *build_engine.cmake_args(variant), *launcher], log, env=env)
        build_engine.run(["cmake", "--build", lib, "-j", "2", "--target", variant["target"]], log, env=env)
        build_engine.run(["cmake", "-S", HERE / "fuzz", "-B", out, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=",
                          *compilers, f"-DENGINE_SOURCE_DIR={src}",
                          f"-DENGINE_LIBRARY={lib / variant['library']}",
                          f"-DLAYER_INCLUDE_DIRS={REPO / 'indexes' / 'include'}", *launcher], log, env=env)
        build_engine.run(["cmake", "--build", out], log, env=env)
    return out / "learned_table_fuzzer"


def run(target, seconds, corpus, artifacts, extra=()):
    """libFuzzer for `seconds`; returns (exit code, inputs run, corpus files, its output)."""
    seeds = corpus.parent / "seeds"
    for d in (corpus, seeds, artifacts):
        d.mkdir(parents=True, exist_ok=True)
    r = subprocess.run([target], env=dict(os.environ, LEARNED_FUZZ_WRITE_SEEDS=str(seeds)),
                       capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"error: writing the fuzzer's seeds failed:\n{r.stderr[-3000:]}")
    # Memory is limited by ASan's current-RSS check, not libFuzzer's
    # -rss_limit_mb: that one reads the peak (getrusage), which Linux carries
    # across exec from the parent, so a fuzzer started by a 2.5 GB pytest
    # worker stopped on "out-of-memory" in its first second, whatever it ran.
    r = subprocess.run([target, f"-max_total_time={seconds}", "-timeout=10", "-rss_limit_mb=0",
                        f"-malloc_limit_mb={MEMORY_MB}",
                        f"-timeout_exitcode={TIMEOUT_EXIT}", f"-error_exitcode={ERROR_EXIT}",
                        "-print_final_stats=1", f"-artifact_prefix={artifacts}/", *extra, corpus, seeds],
                       env=dict(os.environ, ASAN_OPTIONS=f"detect_leaks=1:abort_on_error=0:hard_rss_limit_mb={MEMORY_MB}",
                                UBSAN_OPTIONS="print_stacktrace=1"),
                       capture_output=True, text=True)
    runs = re.search(r"stat::number_of_executed_units:\s*(\d+)", r.stderr)
    return r.returncode, int(runs.group(1)) if runs else 0, len(list(corpus.iterdir())), r.stderr


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=1800)
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--tarball", default="build/sources/leveldb-1.23.tar.gz")
    ap.add_argument("--corpus", help="corpus folder (default: build/fuzz/leveldb-learned/corpus)")
    args = ap.parse_args(argv)
    target = build(args.build_dir, args.tarball)
    work = target.parent.parent
    corpus = Path(args.corpus) if args.corpus else work / "corpus"
    code, runs, kept, report = run(target, args.seconds, corpus, work / "artifacts")
    if code != 0:
        kind = {TIMEOUT_EXIT: "a hang"}.get(code, "a crash, sanitizer report or wrong answer")
        sys.stderr.write(report[-6000:])
        raise SystemExit(f"fuzz {VARIANT} tables: {kind} after {runs} inputs (exit {code}); "
                         f"the input is under {work / 'artifacts'}")
    print(f"fuzz {VARIANT} tables: {runs} inputs in {args.seconds} s under ASan+UBSan, corpus of {kept}, "
          f"0 crashes, 0 hangs, 0 wrong answers")


if __name__ == "__main__":
    main()

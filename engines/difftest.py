"""Differential test: the same op stream on several built engines must give
identical answers.

Each run is `lsmbench --workload diff` (puts that overwrite, deletes, gets of
present and absent keys, scans from present and absent keys, keys 0 and
2^64-1, flushes in between), verified against lsmbench's own oracle; this
tool then requires every run's answers digest to be the same. Engines are
built beforehand (`./reproduce engines`); nothing is built here.

    python -m engines.difftest --dataset build/data/smoke/logn_uint64 \\
        --run leveldb --run leveldb-learned:index=pgm,position_boundary=16 \\
        --common write_buffer_size=65536

A run is ENGINE or ENGINE:key=value,key=value (engine options, as -o takes
them). --common options go to every run whose engine lists them. Options
written `load.key=value` load the database in its own process with them
(`--phase load`) and run the stream in another (`--phase run`) with the rest:
`leveldb-learned:load.index=pgm,index=lipp,retrain=true`.

Comparison groups can also come from a suite file (engines/difftest.yaml):
`--suite engines/difftest.yaml` runs every group, `--sample` only those
marked `sample: true` (what ./run-tests runs), `--group NAME` one group.
A suite's datasets are synthetic key sets made here (`synthetic: NAME`,
see SYNTHETIC) or files (`dataset: PATH`).
"""
import argparse
import json
import random
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from engines import registry
from base.errors import InputError, cli
from indexes import registry as index_registry

SUITE = Path(__file__).with_name("difftest.yaml")


def _dups(rng, n):
    # Skewed keys with runs of duplicates (long and single), as real SOSD
    # files have them; the store holds each key once.
    keys = [int(rng.lognormvariate(20, 2)) for _ in range(n)]
    for _ in range(n // 200):
        keys += [rng.choice(keys)] * rng.randint(2, 300)
    return keys


def _dense(rng, n):
    # Consecutive integers from 0: no gaps, so every absent probe lies
    # outside the range or at its very ends.
    return list(range(n))


def _edges(rng, n):
    # Keys crowded at both ends of the 64-bit space, where bound arithmetic
    # overflows.
    half = n // 2
    return [rng.randrange(0, 4 * n) for _ in range(half)] + \
           [2**64 - 1 - rng.randrange(0, 4 * n) for _ in range(n - half)]


def _one(rng, n):
    # A single key: one table with one entry.
    return [rng.randrange(1, 2**63)]


SYNTHETIC = {"dups": _dups, "dense": _dense, "edges": _edges, "one": _one}


def write_synthetic(name, n, seed, path):
    if name not in SYNTHETIC:
        raise InputError(SUITE, "synthetic", f"one of {', '.join(SYNTHETIC)}, got '{name}'")
    keys = sorted(SYNTHETIC[name](random.Random(seed), n))
    Path(path).write_bytes(struct.pack("<Q", len(keys)) +
                           b"".join(struct.pack("<Q", k) for k in keys))
    return str(path)


def parse_run(text):
    engine, _, opts = text.partition(":")
    if not engine:
        raise InputError("--run", text, "ENGINE or ENGINE:key=value,...")
    if engine not in registry.engine_ids():
        raise InputError("--run", text, f"an engine of engines.yaml ({', '.join(registry.engine_ids())})")
    options = [o for o in opts.split(",") if o]
    for o in options:
        if "=" not in o or o.startswith("="):
            raise InputError("--run", text, f"option '{o}': expected key=value")
    return engine, options


def engine_options(binary):
    """The option names a binary accepts (`lsmbench --list-options`)."""
    out = subprocess.run([binary, "--list-options"], capture_output=True, text=True, check=True)
    return {line.split()[0] for line in out.stdout.splitlines() if line.strip()}


def check_record(log):
    """The `check` record of a finished log, or None."""
    check = None
    for line in Path(log).read_text().splitlines():
        rec = json.loads(line)
        if rec.get("type") == "check":
            check = rec
    return check


def run_one(binary, options, args, log, db):
    """One run of the stream. Options `load.K=V` make it two processes, as
    the pipeline's loads and runs are: `--phase load` with the common
    options and the `load.` ones, then `--phase run` on that database with
    the rest (e.g. load with one index, retrain another on open)."""
    cmd = [str(binary), "--workload", "diff", "--db", str(db), "--dataset", args.dataset,
           "--ops", str(args.ops), "--seed", str(args.seed), "--value-bytes", str(args.value_bytes),
           "--key-encoding", args.key_encoding, "--load-order", args.load_order,
           "--progress", "never"]
    load = [o[len("load."):] for o in options if o.startswith("load.")]
    phases = [["--log", str(log)]]
    if load:
        common = [o for o in options if o in args.common]
        phases = [["--phase", "load", "--log", f"{log}.load", *[a for o in common + load for a in ("-o", o)]],
                  ["--phase", "run", "--log", str(log)]]
        options = [o for o in options if not o.startswith("load.")]
    for phase in phases:
        run_opts = [] if "load" in phase else options
        r = subprocess.run(cmd + phase + [a for o in run_opts for a in ("-o", o)], capture_output=True, text=True)
        if r.returncode != 0:
            return None, (r.stderr.strip().splitlines() or [f"exit {r.returncode}"])[-1]
    check = check_record(log)
    if check is None or "answers_digest" not in check:
        return None, f"{log}: no answers digest in the check record"
    return check, None


def compare(runs, args, work):
    """Runs each (engine, options) on the same stream; True when all agree."""
    if not Path(args.dataset).is_file():
        raise InputError(args.dataset, None, "no such dataset file")
    if len(runs) < 2:
        raise InputError("--run", None, "at least two runs to compare")
    work.mkdir(parents=True, exist_ok=True)
    results = []
    for i, (engine, options) in enumerate(runs):
        binary = Path(args.build_dir) / "engines" / engine / "bin" / "lsmbench"
        if not binary.is_file():
            raise InputError(binary, None, f"engine '{engine}' is not built (./reproduce engines)")
        known = engine_options(binary)
        common = [o for o in args.common if o.split("=", 1)[0] in known]
        label = engine + (":" + ",".join(options) if options else "")
        check, error = run_one(binary, common + options, args, work / f"run{i}.jsonl",
                               work / f"db{i}")
        results.append((label, check, error))
        state = error or f"digest {check['answers_digest']} ({check['verified']} answers verified)"
        print(f"difftest: {label}: {state}", file=sys.stderr)

    digests = {c["answers_digest"] for _, c, e in results if c}
    failed = [(label, e) for label, _, e in results if e]
    for label, e in failed:
        print(f"FAIL {label}: {e}")
    if failed or len(digests) != 1:
        if len(digests) > 1:
            print("FAIL answers differ: " + "; ".join(f"{label}={c['answers_digest']}"
                                                       for label, c, _ in results if c))
        return False
    print(f"ok: {len(results)} runs, identical answers (digest {digests.pop()}); logs in {work}")
    return True


def expand_runs(runs, path, name):
    """A run `{each_table_index: "leveldb-learned:index={index},...", except:
    [ids]}` stands for one run per table index of lidx's registry
    (indexes/registry.py) but those in `except`, so the suite never lists
    the index ids itself."""
    out = []
    ids = index_registry.table_ids()
    for i, run in enumerate(runs):
        if not isinstance(run, dict):
            out.append(run)
            continue
        template, skip = run.get("each_table_index"), run.get("except", [])
        if not set(run) <= {"each_table_index", "except"} or not isinstance(template, str) \
                or "{index}" not in template or not isinstance(skip, list) or not set(skip) <= set(ids):
            raise InputError(path, f"{name}.runs[{i}]", "a run string or {each_table_index: "
                             "'ENGINE:index={index},...', except: [table index ids]} expected")
        out += [template.replace("{index}", index) for index in ids if index not in skip]
    return out


def load_suite(path):
    try:
        suite = yaml.safe_load(Path(path).read_text())
    except (OSError, yaml.YAMLError) as e:
        raise InputError(path, None, f"a readable YAML suite expected ({e})")
    if not isinstance(suite, dict) or not suite:
        raise InputError(path, None, "a mapping of group name -> group expected")
    for name, g in suite.items():
        if not isinstance(g, dict) or not isinstance(g.get("runs"), list) or len(g["runs"]) < 2:
            raise InputError(path, f"{name}.runs", "a list of at least two runs expected")
        if ("synthetic" in g) == ("dataset" in g):
            raise InputError(path, name, "exactly one of synthetic: NAME or dataset: PATH expected")
        g["runs"] = expand_runs(g["runs"], path, name)
    return suite


def run_suite(args, work):
    suite = load_suite(args.suite)
    if args.group and args.group not in suite:
        raise InputError(args.suite, args.group, f"no such group; known: {', '.join(suite)}")
    ok = True
    for name, g in suite.items():
        if (args.group and name != args.group) or (args.sample and not g.get("sample")):
            continue
        print(f"== {name}", file=sys.stderr)
        gdir = work / name
        gdir.mkdir(parents=True, exist_ok=True)
        gargs = argparse.Namespace(**vars(args))
        for key in ("key_encoding", "value_bytes", "load_order", "ops", "seed"):
            if key in g:
                setattr(gargs, key, g[key])
        gargs.common = args.common + g.get("common", [])
        gargs.dataset = g.get("dataset") or write_synthetic(
            g["synthetic"], g.get("keys", 20000), gargs.seed, gdir / f"{g['synthetic']}_uint64")
        ok &= compare([parse_run(r) for r in g["runs"]], gargs, gdir)
    return ok


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", action="append", default=[], help="ENGINE[:key=value,...]")
    ap.add_argument("--suite", help="YAML file of comparison groups (engines/difftest.yaml)")
    ap.add_argument("--group", help="with --suite: only this group")
    ap.add_argument("--sample", action="store_true", help="with --suite: only groups with sample: true")
    ap.add_argument("--common", action="append", default=[],
                    help="key=value for every run whose engine has the option")
    ap.add_argument("--dataset", help="SOSD key file (without --suite)")
    ap.add_argument("--key-encoding", default="be64")
    ap.add_argument("--value-bytes", type=int, default=64)
    ap.add_argument("--load-order", default="shuffled", choices=["sorted", "shuffled"])
    ap.add_argument("--ops", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--work", help="where logs and databases go (default: a temporary folder)")
    args = ap.parse_args(argv)
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="difftest-"))
    if args.suite:
        ok = run_suite(args, work)
    else:
        if not args.dataset:
            raise InputError("--dataset", None, "a SOSD key file (or --suite) expected")
        ok = compare([parse_run(r) for r in args.run], args, work)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

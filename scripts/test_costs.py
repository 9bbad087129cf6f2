"""What ./run-tests costs, measured from a clean clone: its phases (set-up,
each component's C++ tests, the engine builds, pytest) in wall and CPU
seconds, the slowest test modules, the tests counted, the compiler cache's
hit rate, the machine's load; written into docs/costs.md
between its `test-costs` markers (--write), so the table is never typed.

    .venv/bin/python scripts/test_costs.py [--cold] [--long] [--slurm] [--write]

warm (default): the clone gets this checkout's .venv (an earlier clone's)
and the machine's compiler cache. --cold: an empty compiler cache and a new
.venv installed without pip's cache (the Debian packages are what this
machine has: containers/test.sh starts from none). --long: the long
command, `./run-tests --long`, warm (its own block). --slurm: afterwards the
Slurm integration test alone (tests/test_slurm.py, forced), timed beside.
The Slurm test is kept out of the timed run (LSMREPRO_SLURM_TEST=0)."""
import argparse
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = REPO / "docs" / "costs.md"
BEGIN, END = "<!-- test-costs: begin (scripts/test_costs.py --write) -->", "<!-- test-costs: end -->"
SLOWEST = 8  # test modules listed by name; the rest summed


def loadavg():
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def minutes(seconds):
    seconds = round(seconds)
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"


def timed(cmd, cwd, env, log):
    """Runs cmd; (wall s, user+sys s of its children, exit status)."""
    before, start = os.times(), time.monotonic()
    with open(log, "w") as out:
        status = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT).returncode
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return time.monotonic() - start, cpu, status


def clone(into, cold):
    subprocess.run(["git", "clone", "-q", str(REPO), str(into)], check=True)
    if (REPO / "sources").is_dir():  # the drop folder of upstream tarballs (gitignored)
        shutil.copytree(REPO / "sources", into / "sources")
    if not cold:
        (into / ".venv").symlink_to((REPO / ".venv").resolve())


def phases(path):
    rows = [line.split("\t") for line in path.read_text().splitlines()[1:] if line]
    return [(name, float(wall), float(user) + float(sys_)) for name, wall, user, sys_ in rows]


def outcomes(junit):
    """Counts of passed, skipped and failed tests."""
    counts = Counter()
    for case in ET.parse(junit).getroot().iter("testcase"):
        kinds = {child.tag for child in case}
        counts["failed" if kinds & {"failure", "error"} else "skipped" if "skipped" in kinds else "passed"] += 1
    return counts


def modules(path):
    """{module file: (wall s, CPU s, tests)} from tests/costs.py's rows (a
    module's rows summed: a worker writes a row whenever it is done with it)."""
    out = {}
    for line in path.read_text().splitlines()[1:]:
        if line:
            m, n, wall, cpu, _ = line.split("\t")
            w0, c0, n0 = out.get(m, (0.0, 0.0, 0))
            out[m] = (w0 + float(wall), c0 + float(cpu), n0 + int(n))
    return out


def ccache_rate(statslog):
    """(hits, compilations) of the run's compiler calls, from ccache's stats log."""
    if not statslog.exists():
        return 0, 0
    entries = statslog.read_text().split("# ")[1:]
    hits = sum(1 for e in entries if "direct_cache_hit" in e or "preprocessed_cache_hit" in e)
    return hits, sum(1 for e in entries if "cache_miss" in e.split() or "direct_cache_hit" in e
                     or "preprocessed_cache_hit" in e)


def installed_packages(log):
    """The Debian packages scripts/setup.sh found missing and installed, from its line in the run's log."""
    found = re.search(r"^setup: installing Debian packages: (.*)$", log.read_text(errors="replace"), re.M)
    return found.group(1).split() if found else []


def measure(cold, slurm, long=False):
    work = Path(tempfile.mkdtemp(prefix="lsmrepro-test-costs-", dir=REPO.parent))
    checkout = work / "clone"
    clone(checkout, cold)
    env = dict(os.environ, LSMREPRO_SLURM_TEST="0", CCACHE_STATSLOG=str(work / "ccache.log"))
    if cold:
        env.update(CCACHE_DIR=str(work / "ccache"), PIP_NO_CACHE_DIR="1")
    load_start, started = loadavg(), datetime.datetime.now(datetime.timezone.utc)
    command = ["./run-tests", *(["--long"] if long else []), f"--junitxml={work / 'junit.xml'}"]
    wall, cpu, status = timed(command, checkout, env, work / "run.log")
    result = {"cold": cold, "long": long, "status": status, "wall": wall, "cpu": cpu, "load": (load_start, loadavg()),
              "date": started.strftime("%Y-%m-%d %H:%M UTC"), "log": work / "run.log",
              "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=checkout, text=True,
                                       capture_output=True).stdout.strip(),
              "ccache": ccache_rate(work / "ccache.log"), "cores": os.cpu_count(),
              "installed": installed_packages(work / "run.log")}
    phases_file = checkout / "build" / "tests" / "phases.tsv"
    result["phases"] = phases(phases_file) if phases_file.exists() else []
    if (work / "junit.xml").exists():
        result["outcomes"] = outcomes(work / "junit.xml")
    modules_file = checkout / "build" / "tests" / "modules.tsv"
    if modules_file.exists():
        result["modules"] = modules(modules_file)
    if slurm:
        env["LSMREPRO_SLURM_TEST"] = "1"
        result["slurm"] = timed([".venv/bin/python", "-m", "pytest", "-p", "no:cacheprovider", "tests/test_slurm.py"],
                                checkout, env, work / "slurm.log")
    return result, work


def table(r):
    kind = "cold (empty compiler cache, new .venv)" if r["cold"] else "warm (compiler cache and .venv of an earlier clone)"
    command = "./run-tests --long" if r.get("long") else "./run-tests"
    out = r["outcomes"] if "outcomes" in r else Counter()
    hits, calls = r["ccache"]
    lines = [f"`{command}` from a clean clone, {kind}: **{minutes(r['wall'])}** of wall, "
             f"{minutes(r['cpu'])} of CPU (user + sys of every process it started), "
             f"at `{r['commit']}` on {r['date']}, {r['cores']} cores, load average {r['load'][0]} at the start "
             f"and {r['load'][1]} at the end; exit status {r['status']}; "
             f"{out['passed']} passed, {out['skipped']} skipped, {out['failed']} failed; "
             f"compiler cache: {hits} of {calls} compilations hits"
             + (f"; the Slurm integration test alone: {minutes(r['slurm'][0])} (exit status {r['slurm'][2]})"
                if "slurm" in r else "; the Slurm integration test kept out of the timed run (LSMREPRO_SLURM_TEST=0; --slurm times it alone)")
             + ".", "", "| phase | wall | CPU |", "|---|---|---|"]
    accounted = sum(w for _, w, _ in r["phases"])
    packages = (f"{len(r['installed'])} Debian packages installed" if r.get("installed")
                else "Debian packages checked")
    lines.append(f"| set-up (`scripts/setup.sh`: {packages}, `.venv`) | {minutes(r['wall'] - accounted)} | |")
    lines += [f"| {name} | {minutes(wall)} | {minutes(cpu)} |" for name, wall, cpu in r["phases"]]
    if r.get("modules"):
        # ranked by CPU seconds: on a shared machine they keep their meaning, wall seconds do not
        ranked = sorted(r["modules"].items(), key=lambda kv: -kv[1][1])
        lines += ["", "| test module (its tests' set-up, call and tear-down, on one worker) | tests | wall | CPU |",
                  "|---|---|---|---|"]
        lines += [f"| `{m}` | {n} | {minutes(w)} | {minutes(c)} |" for m, (w, c, n) in ranked[:SLOWEST]]
        rest = ranked[SLOWEST:]
        lines.append(f"| the other {len(rest)} modules | {sum(n for _, (_, _, n) in rest)} | "
                     f"{minutes(sum(w for _, (w, _, _) in rest))} | {minutes(sum(c for _, (_, c, _) in rest))} |")
    return "\n".join(lines)


def write_readme(block, kind):
    """Replaces this kind's block (warm, cold or long) between the markers, keeping the others."""
    text = README.read_text()
    if BEGIN not in text or END not in text:
        sys.exit(f"error: {README}: the markers {BEGIN!r} and {END!r} expected")
    head, rest = text.split(BEGIN, 1)
    body, tail = rest.split(END, 1)
    parts = dict(re.findall(r"<!-- (warm|cold|long) -->\n(.*?)(?=\n<!-- (?:warm|cold|long) -->|\Z)",
                            body.strip("\n") + "\n", re.S))
    parts[kind] = block + "\n"
    body = "".join(f"<!-- {k} -->\n{parts[k]}\n" for k in ("warm", "cold", "long") if k in parts)
    README.write_text(f"{head}{BEGIN}\n{body}{END}{tail}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cold", action="store_true", help="empty compiler cache and a new .venv")
    ap.add_argument("--long", action="store_true", help="time the long command, ./run-tests --long (warm)")
    ap.add_argument("--slurm", action="store_true", help="also time the Slurm integration test alone")
    ap.add_argument("--write", action="store_true", help="write the table into docs/costs.md")
    ap.add_argument("--keep", action="store_true", help="keep the clone and its logs")
    args = ap.parse_args()
    if args.cold and args.long:
        ap.error("--long is timed warm: give --cold or --long")
    result, work = measure(args.cold, args.slurm, args.long)
    block = table(result)
    print(block)
    if args.write and result["status"] != 0:
        # a failed run's times are not the command's cost: the earlier measurement stays
        print(f"error: ./run-tests exited {result['status']}; {README} not written", file=sys.stderr)
    elif args.write:
        write_readme(block, "long" if args.long else "cold" if args.cold else "warm")
    if args.keep or result["status"] != 0:
        print(f"clone and logs kept: {work}", file=sys.stderr)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return result["status"]


if __name__ == "__main__":
    sys.exit(main())

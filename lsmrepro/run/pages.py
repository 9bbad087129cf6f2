"""What sharing pages costs an interleaved job (the tool bench_group_pages of
lsmrepro/plan/tools.py, run by lsmrepro/run/tool.py): lsm-eval fig8's job as
the pipeline runs it (lsmrepro/run/bench_group.py: FP on its own load, the
learned indexes on one load they share), with `--pages shared` (every
member of the shared load on hard links of it: they warm one set of pages)
and `--pages own` (a copy each) in the plan's order, so both modes see the
machine alike. One CSV row per job and member: its mean and p50 get, its
mean over the first member's (FP's) in that job, its lookup steps, the bytes
a lookup read and its index bytes. The loads and copies are removed at the end.

    python -m lsmrepro.run.pages --dataset D --work DIR --lsmbench=leveldb-learned=BIN \\
        --plan JSON --csv OUT.csv

JSON: {loads: {name: lsmbench load arguments}, members: [{point, load,
options}], run: lsmbench run arguments, order: [shared|own, ...], memory,
open_memory, load_memory (the cgroup runner's budgets), allow_unenforced}.
"""
import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

from base.atomic import write_csv
from base.errors import InputError, cli

STEPS = ("index_search", "load_data", "search_data", "load_index")
COLUMNS = ("job", "pages", "member", "get_mean_ns", "get_p50_ns", "mean_to_first", *(f"{s}_ns" for s in STEPS),
           "rchar_per_lookup", "index_bytes")


def read_member(log):
    """One member's numbers from its run log."""
    out = {}
    try:
        records = [json.loads(x) for x in Path(log).read_text().splitlines()]
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(log, "", f"a member's run log expected ({e})") from None
    for r in records:
        if r.get("type") == "latency" and r.get("op") == "get" and r.get("subset") == "all":
            out.update(get_mean_ns=r["mean"], get_p50_ns=r["p50"])
        elif r.get("type") == "breakdown" and r.get("scope") == "lookup":
            out.update({f"{k}_ns": r["per_op"].get(k, "") for k in STEPS})
        elif r.get("type") == "engine":
            out["index_bytes"] = r.get("index_bytes", "")
            out["rchar_per_lookup"] = (r.get("read_io") or {}).get("rchar_per_lookup", "")
    if "get_mean_ns" not in out:
        raise InputError(log, "latency", "a get latency record expected (the member ran no lookups?)")
    return out


def _python(module, *args):
    r = subprocess.run([sys.executable, "-m", module, *map(str, args)], capture_output=True, text=True)
    if r.returncode != 0:
        raise InputError(module, "exit status", f"0 expected, got {r.returncode}:\n{r.stderr[-2000:]}")


def run(plan, binary, dataset, work, out_csv):
    work = Path(work)
    unenforced = ["--allow-unenforced"] if plan.get("allow_unenforced") else []
    rows = []
    try:
        work.mkdir(parents=True, exist_ok=True)
        loads = {}
        for name, args in plan["loads"].items():
            db = work / f"load-{name}"
            _python("lsmrepro.run.bench", "load", "--db", db, "--log", f"{db}.jsonl", "--limits", f"{db}.limits.json",
                    "--memory", plan["load_memory"], *unenforced, "--", binary, "--dataset", dataset, *args)
            loads[name] = db
        members = [{"point": m["point"], "from": str(loads[m["load"]]), "load_log": f"{loads[m['load']]}.jsonl",
                    "manifest": {"factors": {"member": m["point"]}}, "options": m["options"],
                    "meta": [f"point={m['point']}"]} for m in plan["members"]]
        for job, pages in enumerate(plan["order"]):
            out = work / f"job{job}-{pages}"
            _python("lsmrepro.run.bench_group", "run", "--out", out, "--members", json.dumps(members),
                    "--db", work / "runs", "--cache", "warm", "--memory", plan["memory"],
                    "--open-memory", plan["open_memory"], "--pages", pages, *unenforced, "--",
                    binary, "--dataset", dataset, *plan["run"])
            got = {m["point"]: read_member(out / f"{m['point']}.jsonl") for m in members}
            first = got[members[0]["point"]]["get_mean_ns"]
            for m in members:
                row = got[m["point"]]
                rows.append({"job": job, "pages": pages, "member": m["point"], **row,
                             "mean_to_first": row["get_mean_ns"] / first})
            print(f"job {job} ({pages}): " + ", ".join(f"{r['member']} {r['mean_to_first']:.3f}"
                                                     for r in rows[-len(members):]), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    write_csv(out_csv, COLUMNS, rows)


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--work", required=True, help="a folder for the loads and copies (removed at the end)")
    ap.add_argument("--lsmbench", required=True, metavar="ENGINE=BINARY")
    ap.add_argument("--plan", required=True, help="the job's loads, members, run arguments and order, as JSON")
    ap.add_argument("--csv", required=True)
    args = ap.parse_args(argv)
    engine, eq, binary = args.lsmbench.partition("=")
    if not eq or not binary:
        raise InputError("--lsmbench", args.lsmbench, "ENGINE=BINARY expected")
    try:
        plan = json.loads(args.plan)
    except json.JSONDecodeError as e:
        raise InputError("--plan", "", f"JSON expected ({e})") from None
    run(plan, binary, args.dataset, args.work, args.csv)


if __name__ == "__main__":
    main()

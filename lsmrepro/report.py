"""Assembles one self-contained HTML page per scale: every figure (PNG
embedded, PDF linked), its table, each study's claim verdicts, the build ids,
the machine fingerprint and the manifest of every run with a link to its raw
log. It opens offline: no script, no stylesheet, no font from the network.

    python -m lsmrepro.report --scale local --results results --studies '{...}' \
        --hardware results/local/hardware --build-ids B... --logs L... --out results/local/report/index.html
"""
import argparse
import base64
import datetime
import html
import json
import os
import subprocess
from pathlib import Path

import pandas as pd

from lsmrepro import runlog
from lsmrepro.atomic import write_text
from lsmrepro.errors import InputError, cli

STYLE = """
body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:90%}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}
th{background:#f3f3f3} img{max-width:100%} code{background:#f6f6f6}
.reproduced{background:#d9f2d9}.not-reproduced{background:#f8d0d0}.inconclusive{background:#fff2c2}
.note{color:#555;font-size:90%}
"""


def _json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(path, "", f"a JSON file expected ({e})") from None


def _table(df, verdict_column=None):
    cells = ["<table><tr>" + "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns) + "</tr>"]
    for _, row in df.iterrows():
        cls = ""
        if verdict_column:
            cls = f' class="{str(row[verdict_column]).replace(" ", "-")}"'
        tds = "".join(f"<td>{html.escape(_fmt(v))}</td>" for v in row)
        cells.append(f"<tr{cls}>{tds}</tr>")
    return "\n".join(cells) + "</table>"


def _fmt(v):
    if isinstance(v, float):
        return "—" if v != v else f"{v:.4g}"
    return str(v)


def _rel(path, out):
    return os.path.relpath(path, Path(out).parent)


def _git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def study_section(study, spec, results, scale, out):
    parts = [f"<h2>Study <code>{html.escape(study)}</code></h2>"]
    for fig, caption in spec["figures"].items():
        png = Path(results, scale, "figures", study, f"{fig}.png")
        pdf = png.with_suffix(".pdf")
        table = Path(results, scale, "tables", study, f"{fig}.csv")
        data = base64.b64encode(png.read_bytes()).decode()
        parts.append(f"<h3>{html.escape(study)}/{html.escape(fig)}</h3>"
                     f"<p>{html.escape(caption)} <a href='{_rel(pdf, out)}'>PDF</a> · "
                     f"<a href='{_rel(table, out)}'>table CSV</a></p>"
                     f"<img alt='{html.escape(study)}/{html.escape(fig)}' src='data:image/png;base64,{data}'>")
        parts.append(_table(pd.read_csv(table)))
    claims = pd.read_csv(Path(results, scale, "claims", f"{study}.csv"))
    parts.append("<h3>Claims</h3><p class='note'>Verdict: reproduced when the whole 95% interval lies"
                 " inside the expected range, not reproduced when wholly outside, inconclusive otherwise."
                 " Evidence lists the raw log lines each value was read from.</p>")
    parts.append(_table(claims.drop(columns=["evidence"]), verdict_column="verdict"))
    return "\n".join(parts)


def builds_section(paths):
    rows = []
    for p in paths:
        b = _json(p)
        rows.append({"engine": b["engine"], "build id": b["id"],
                     "source": f"{b['source']['name']} {b['source']['version']}",
                     "source sha256": b["source"]["sha256"][:16] + "…",
                     "overlay sha256": b["overlay_sha256"][:16] + "…",
                     "git commit": (b.get("git_commit") or "")[:12] + (" (dirty)" if b.get("git_dirty") else ""),
                     "compiler": b["compiler"], "build s (wall)": b["build_seconds"]["total"],
                     "build s (CPU)": b.get("build_cpu_seconds")})
    return "<h2>Builds</h2>" + _table(pd.DataFrame(rows))


def machine_section(hardware, out):
    hardware = Path(hardware)
    fp = _json(hardware / "fingerprint.json")
    flat = {k: v for k, v in fp.items() if not isinstance(v, (dict, list))}
    for k, v in fp.items():
        if isinstance(v, dict):
            for kk, vv in v.items():
                if not isinstance(vv, (dict, list)):
                    flat[f"{k}.{kk}"] = vv
    df = pd.DataFrame({"field": list(flat), "value": [str(v) for v in flat.values()]})
    png = base64.b64encode((hardware / "calibration.png").read_bytes()).decode()
    return (f"<h2>Machine</h2><p>fingerprint id <code>{html.escape(str(fp.get('id')))}</code>"
            f" (<a href='{_rel(hardware / 'fingerprint.json', out)}'>JSON</a>)</p>"
            + _table(pd.read_csv(hardware / "system.csv"))
            + "<h3>Device calibration (fio)</h3>"
            f"<img alt='calibration' src='data:image/png;base64,{png}'>"
            + _table(pd.read_csv(hardware / "calibration.csv"))
            + "<details><summary>every fingerprint field</summary>" + _table(df) + "</details>")


def runs_section(logs, out):
    rows = []
    for path in logs:
        log = runlog.read(path)
        run, meta = log.run, log.run["meta"]
        check = log.of_type("check")[0].data
        limits_path = Path(path[: -len(".jsonl")] + ".limits.json")
        limits = _json(limits_path) if limits_path.exists() else {}
        rows.append({"log": f"{_rel(path, out)}", "study": meta.get("study"),
                     "experiment": meta.get("experiment"), "engine": run["engine"],
                     "dataset": meta.get("dataset"), "rep": meta.get("repetition"),
                     "seed": run["seed"], "keys": run["dataset"]["distinct"],
                     "verified": check["verified"], "wrong": check["wrong"],
                     "memory limit": limits.get("limit_spec", "—"),
                     "limit enforced": limits.get("enforced", "—") if limits.get("enforced", True)
                     else f"NO: {limits.get('not_enforced_reason')}",
                     "peak MiB": round(limits["peak_bytes"] / 2**20, 1) if limits.get("peak_bytes") else "—",
                     "build": (run.get("build_id") or {}).get("id", ""),
                     "fingerprint": (run["attached"].get("fingerprint") or {}).get("id", "")})
    unenforced = [r["log"] for r in rows if str(r["limit enforced"]).startswith("NO")]
    warning = (f"<p class='not-reproduced'><b>The memory limit was not enforced for {len(unenforced)}"
               f" of {len(rows)} runs</b> (the scale allows unenforced runs); see the column"
               " <i>limit enforced</i>.</p>") if unenforced else ""
    return ("<h2>Runs</h2><p class='note'>Every run's raw log, never edited.</p>" + warning
            + _table(pd.DataFrame(rows)))


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", required=True)
    ap.add_argument("--results", required=True)
    ap.add_argument("--studies", required=True, help="JSON: study -> {figures: {id: caption}}")
    ap.add_argument("--hardware", required=True, help="results/<scale>/hardware")
    ap.add_argument("--build-ids", nargs="+", required=True)
    ap.add_argument("--logs", nargs="+", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    studies = json.loads(args.studies)
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    body = [f"<h1>Learned-index LSM reproduction — scale <code>{html.escape(args.scale)}</code></h1>",
            f"<p class='note'>Generated {now} from commit <code>{_git_commit()}</code>."
            " Every number below is computed from the raw run logs listed at the end.</p>"]
    body += [study_section(s, spec, args.results, args.scale, args.out) for s, spec in studies.items()]
    body += [builds_section(args.build_ids), machine_section(args.hardware, args.out),
             runs_section(args.logs, args.out)]
    page = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>LSM reproduction ({args.scale})</title>"
            f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>\n")
    write_text(args.out, page)


if __name__ == "__main__":
    main()

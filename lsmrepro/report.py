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

from lsmrepro import aggregate, bench, runlog, studies
from base.atomic import write_text
from base.errors import InputError, cli

STYLE = """
body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:90%}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}
th{background:#f3f3f3} img{max-width:100%} code{background:#f6f6f6}
.reproduced{background:#d9f2d9}.not-reproduced{background:#f8d0d0}.inconclusive{background:#fff2c2}
.note{color:#555;font-size:90%} .no-data{background:#e6e6e6}
.fig{display:flex;gap:1em;align-items:flex-start} .fig img{max-width:65%} .claims{font-size:85%}
"""


def _json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(path, "", f"a JSON file expected ({e})") from None


def _table(df, verdict_column=None):
    """DataFrame.to_html; each row of a verdict table classed by its verdict."""
    page = df.to_html(index=False, na_rep="—", float_format=lambda v: f"{v:.4g}", border=0)
    if verdict_column is None or df.empty:
        return page
    head, body = page.split("<tbody>", 1)
    rows = body.split("<tr>")
    classes = [str(v).replace(" ", "-") for v in df[verdict_column]]
    return head + "<tbody>" + rows[0] + "".join(f'<tr class="{c}">{r}' for c, r in zip(classes, rows[1:]))


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


def study_section(study, results, scale, out):
    """One study: each figure with its caption, its table and the verdicts of
    the claims about it beside it."""
    title = studies.registry()[study]["title"]
    parts = [f"<h2 id='{html.escape(study)}'>Study <code>{html.escape(study)}</code>: {html.escape(title)}</h2>"]
    claims = pd.read_csv(Path(results, scale, "claims", f"{study}.csv"), keep_default_na=False, na_values=[""])
    for fig in studies.figures(study):
        png = Path(results, scale, "figures", study, f"{fig}.png")
        pdf = png.with_suffix(".pdf")
        table = Path(results, scale, "tables", study, f"{fig}.csv")
        caption = studies.caption(study, fig)
        frame = pd.read_csv(table)
        failed = "error" in frame.columns and list(frame.columns) == ["study", "figure", "error"]
        parts.append(f"<h3>{html.escape(study)}/{html.escape(fig)}</h3>")
        if failed:
            parts.append(f"<p class='not-reproduced'><b>This figure failed:</b> {html.escape(str(frame['error'][0]))}</p>")
        parts.append(f"<p>{html.escape(caption)} <a href='{_rel(pdf, out)}'>PDF</a> · "
                     f"<a href='{_rel(table, out)}'>table CSV</a></p>"
                     f"<div class='fig'><img alt='{html.escape(study)}/{html.escape(fig)}' "
                     f"src='data:image/png;base64,{base64.b64encode(png.read_bytes()).decode()}'>")
        mine = claims[claims["figure"].astype(str).str.split(" ").str[0] == fig]
        if len(mine):
            side = pd.DataFrame({"claim": mine["claim"], "expected": mine["expected"],
                                 "measured (95% CI)": [f"{_fmt(r.measured)} [{_fmt(r.ci_low)}, {_fmt(r.ci_high)}]"
                                                       for r in mine.itertuples()],
                                 "n": mine["n"], "verdict": mine["verdict"]})
            parts.append("<div class='claims'><b>Claims</b>" + _table(side, verdict_column="verdict") + "</div>")
        parts.append("</div>")
        parts.append(_table(frame))
    parts.append("<h3>All claims</h3><p class='note'>Verdict: reproduced when the whole 95% interval lies"
                 " inside the expected range, not reproduced when wholly outside, inconclusive otherwise,"
                 " no data when the claim selected no rows. <i>runs</i> lists the runs each verdict used.</p>")
    shown = claims.drop(columns=["evidence", "runs"]).assign(
        runs=[len(str(r).split(";")) if isinstance(r, str) and r else 0 for r in claims["runs"]])
    parts.append(_table(shown, verdict_column="verdict"))
    parts.append(_runs_behind(study, claims, results, scale, out))
    return "\n".join(parts)


def _runs_behind(study, claims, results, scale, out):
    """Each verdict's runs, each linked to its raw log."""
    items = []
    for r in claims.itertuples():
        runs = [x for x in str(r.runs).split(";") if x and x != "nan"]
        links = ", ".join(f"<a href='{_rel(Path(results, scale, 'raw', study, run + '.jsonl'), out)}'>"
                          f"{html.escape(run)}</a>" for run in runs)
        items.append(f"<li><b>{html.escape(r.claim)}</b> ({html.escape(r.verdict)}): {links or 'no runs'}</li>")
    return "<details><summary>the runs behind each verdict</summary><ul>" + "".join(items) + "</ul></details>"


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


def _run_row(path, out):
    failure = bench.read_failure(path)
    limits_path = Path(path[: -len(".jsonl")] + ".limits.json")
    limits = _json(limits_path) if limits_path.exists() else {}
    if failure:
        meta = failure.get("meta", {})
        return {"log": _rel(path, out), "status": f"FAILED: {failure['reason']}", "phase": failure.get("phase"),
                "study": meta.get("study"), "figure": meta.get("experiment"), "point": meta.get("point"),
                "rep": meta.get("repetition"), "fingerprint": "unknown (failed)"}
    log = runlog.read(path)
    run, meta = log.run, log.run["meta"]
    checks = log.of_type("check")
    return {"log": _rel(path, out), "status": "ok", "phase": meta.get("phase", "all"),
            "study": meta.get("study"), "figure": meta.get("experiment"), "point": meta.get("point"),
            "rep": meta.get("repetition"), "engine": aggregate.engine_of(run),
            "dataset": meta.get("dataset"), "seed": run["seed"], "keys": run["dataset"]["distinct"],
            "verified": checks[0].data["verified"] if checks else "—",
            "wrong": checks[0].data["wrong"] if checks else "—",
            "db copy": meta.get("db_copy", "—"), "cache": meta.get("cache", "—"),
            "memory limit": limits.get("limit_spec", "—"),
            "limit enforced": limits.get("enforced", "—") if limits.get("enforced", True)
            else f"NO: {limits.get('not_enforced_reason')}",
            "peak MiB": round(limits["peak_bytes"] / 2**20, 1) if limits.get("peak_bytes") else "—",
            "build": (run.get("build_id") or {}).get("id", ""),
            "fingerprint": (run["attached"].get("fingerprint") or {}).get("id", "")}


def runs_section(logs, out):
    """Every run and load, one table per machine fingerprint: numbers of two
    machines are never mixed."""
    rows = [_run_row(p, out) for p in logs]
    unenforced = [r["log"] for r in rows if str(r.get("limit enforced")).startswith("NO")]
    warning = (f"<p class='not-reproduced'><b>The memory limit was not enforced for {len(unenforced)}"
               f" of {len(rows)} runs</b> (the scale allows unenforced runs); see the column"
               " <i>limit enforced</i>.</p>") if unenforced else ""
    frame = pd.DataFrame(rows)
    parts = ["<h2>Runs</h2><p class='note'>Every run's and load's raw log, never edited, grouped by the"
             " fingerprint of the machine that made it.</p>", warning]
    for fp, group in frame.groupby("fingerprint", sort=True):
        parts.append(f"<h3>Machine fingerprint <code>{html.escape(str(fp))}</code> ({len(group)} logs)</h3>")
        parts.append(_table(group.drop(columns=["fingerprint"]).dropna(axis=1, how="all")))
    return "".join(parts)


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", required=True)
    ap.add_argument("--results", required=True)
    ap.add_argument("--studies", nargs="+", required=True, help="study ids (paper/studies.yaml)")
    ap.add_argument("--hardware", required=True, help="results/<scale>/hardware")
    ap.add_argument("--build-ids", nargs="+", required=True)
    ap.add_argument("--logs", nargs="+", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    body = [f"<h1>Learned-index LSM reproduction — scale <code>{html.escape(args.scale)}</code></h1>",
            f"<p class='note'>Generated {now} from commit <code>{_git_commit()}</code>."
            " Every number below is computed from the raw run logs listed at the end.</p>"]
    body.append("<p>Studies: " + " · ".join(f"<a href='#{html.escape(s)}'>{html.escape(s)}</a>" for s in args.studies) + "</p>")
    body += [study_section(s, args.results, args.scale, args.out) for s in args.studies]
    body += [builds_section(args.build_ids), machine_section(args.hardware, args.out),
             runs_section(args.logs, args.out)]
    page = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>LSM reproduction ({args.scale})</title>"
            f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>\n")
    write_text(args.out, page)


if __name__ == "__main__":
    main()

"""Assembles one self-contained HTML page per scale: a summary per study
(its paper, verdict counts, figures drawn, regime reached), every figure (PNG
embedded, PDF linked), its table, each study's claim verdicts, the build ids,
the machine fingerprint and the manifest of every run with a link to its raw
log. It opens offline: no script, no stylesheet, no font from the network.

    python -m lsmrepro.publish.report --scale local --results results --studies '{...}' \
        --hardware results/local/hardware --build-ids B... --logs L... --out results/local/report/index.html
"""
import argparse
import base64
import datetime
import html
import json
import os
import re
import subprocess
from pathlib import Path

import pandas as pd
from PIL import Image

from lsmrepro.tidy import aggregate
from lsmrepro.run import bench
from lsmrepro.tidy import runlog
from lsmrepro.plan import studies
from lsmrepro.claims import verdict_text as vt
from lsmrepro.publish import aa
from base.atomic import write_text
from base.errors import InputError, cli

STYLE = """
body{font-family:sans-serif;max-width:1280px;margin:1.5em auto;padding:0 1em;color:#222;line-height:1.4}
table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:90%}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3} code{background:#f6f6f6}
.scroll{overflow-x:auto;max-width:100%} .scroll table{margin:0}
figure{margin:.5em 0 1em} figure img{display:block;max-width:100%;height:auto}
.note{color:#555;font-size:90%} .num{text-align:right;font-variant-numeric:tabular-nums}
.v{font-weight:bold;padding:1px 6px;border-radius:3px;white-space:nowrap}
.reproduced{background:#cde3f5}.not-reproduced{background:#f9d1b0}.inconclusive{background:#f1eec0}
.no-data{background:#e6e6e6}
.claims td:nth-child(2){min-width:18em} details>summary{cursor:pointer}
.regime-yes{background:#cde3f5}.regime-no{background:#f9d1b0}
"""
# Okabe-Ito-derived backgrounds (blue, orange, yellow, grey) stay apart for the
# common colour-vision deficiencies; every verdict also says its name and a mark.
MARKS = {"reproduced": "✓", "not reproduced": "✗", "inconclusive": "?", "no data": "–"}
SHORT = 110  # characters of a statement shown in a claims table; the rest in its details


def _json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(path, "", f"a JSON file expected ({e})") from None


def _scroll(page):
    """Wide tables scroll inside the page instead of widening it."""
    return f"<div class='scroll'>{page}</div>"


def _table(df, verdict_column=None, escape=True):
    """DataFrame.to_html in a scrolling container, numbers to four significant
    digits; each row of a verdict table classed by its verdict."""
    page = df.to_html(index=False, na_rep="—", float_format=lambda v: f"{v:.4g}", border=0, escape=escape)
    if verdict_column is None or df.empty:
        return _scroll(page)
    head, body = page.split("<tbody>", 1)
    rows = body.split("<tr>")
    classes = [_slug(v) for v in df[verdict_column]]
    return _scroll(head + "<tbody>" + rows[0] + "".join(f'<tr class="{c}">{r}' for c, r in zip(classes, rows[1:])))


def _slug(verdict):
    return str(verdict).replace(" ", "-")


def badge(verdict):
    """A verdict as text, a mark and a colour."""
    v = str(verdict)
    return f"<span class='v {_slug(v)}'>{MARKS.get(v, '')} {html.escape(v)}</span>"


def _rel(path, out):
    return os.path.relpath(path, Path(out).parent)


def _git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _image(png, alt):
    """A PNG embedded at its natural size (its pixels at the DPI it was saved
    with, as 96 CSS px an inch), shrunk only when wider than the page."""
    with Image.open(png) as im:
        dpi = float((im.info.get("dpi") or (96, 96))[0]) or 96.0
        width = round(im.size[0] * 96 / dpi)
    data = base64.b64encode(png.read_bytes()).decode()
    return f"<figure><img alt='{html.escape(alt)}' style='width:{width}px' src='data:image/png;base64,{data}'></figure>"


def _anchor(*parts):
    return "-".join(str(p) for p in parts)


def _claims(results, scale, study):
    """The study's verdicts, each with its rerun command and price where
    tables/rerun.csv has them (lsmrepro/publish/rerun.py)."""
    claims = pd.read_csv(Path(results, scale, "claims", f"{study}.csv"), keep_default_na=False, na_values=[""])
    rerun = Path(results, scale, "tables", "rerun.csv")
    if not rerun.is_file():
        return claims
    prices = pd.read_csv(rerun, keep_default_na=False, na_values=[""])
    return claims.merge(prices.drop(columns=["study"]), on="claim", how="left")


def _rerun_text(r):
    """"./reproduce lsm-eval/fig8 (about 2 minutes and 2 seconds, 503.54 MiB of loads)"."""
    cmd = _text(r, "rerun")
    if not cmd:
        return ""
    unmeasured = int(float(_text(r, "rerun_unmeasured_jobs") or 0))
    gaps = f", {unmeasured} of its jobs not yet timed" if unmeasured else ""
    return f"{cmd} (about {_text(r, 'rerun_wall')}, {_text(r, 'rerun_disk')} of loads{gaps})"


def _regime(results, scale, study):
    """tables/<study>/regime.csv, or None where the study has none."""
    path = Path(results, scale, "tables", study, "regime.csv")
    return pd.read_csv(path, keep_default_na=False, na_values=[""]) if path.is_file() else None


def _text(r, column):
    value = getattr(r, column, "")
    return "" if value is None or (isinstance(value, float) and value != value) else str(value)


def _short(statement):
    s = " ".join(str(statement).split())
    return s if len(s) <= SHORT else s[:SHORT].rsplit(" ", 1)[0] + " …"


def _claim_details(r):
    """What a reader opens: the whole statement, the paper's source, the rule,
    each member, the raw detail."""
    items = [("statement", _text(r, "statement")), ("where in the paper", _text(r, "section")),
             ("the paper's source", _source(_text(r, "paper_source"))),
             ("rule", _text(r, "rule") or _text(r, "expected")),
             ("members", _members_text(_text(r, "members"))), ("detail", _text(r, "detail")),
             ("rerun", _rerun_text(r))]
    body = "".join(f"<li><b>{k}</b>: {html.escape(v)}</li>" for k, v in items if v)
    return f"<details><summary>{html.escape(_short(_text(r, 'statement')))}</summary><ul>{body}</ul></details>"


def _source(text):
    """A claim's source as a reader sees it: the seed id it starts with (the
    repository's id of the paper's text) said as what it is."""
    m = re.match(r"(00[0-4])\b\s*", text)
    if not m:
        return text
    return ("the technical report, " if m.group(1) == "001" else "the paper, ") + text[m.end():]


def _members_text(raw):
    if not raw:
        return ""
    try:
        members = json.loads(raw)
    except json.JSONDecodeError:
        return raw
    if isinstance(members, dict):
        members = [{"member": k, **(v if isinstance(v, dict) else {"value": v})} for k, v in members.items()]
    return "; ".join(", ".join(f"{k} {vt.num(v)}" for k, v in m.items()) for m in members if isinstance(m, dict))


def claims_table(claims):
    """One row per claim: statement (whole in its details), the paper's number,
    ours with interval and n, the verdict and the context metrics measured
    beside it."""
    rows = []
    for r, d in zip(claims.itertuples(), claims.to_dict("records")):
        rows.append({"claim": f"<code>{html.escape(r.claim)}</code>", "statement": _claim_details(r),
                     "paper": html.escape(vt.paper(d)), "ours": html.escape(vt.ours(d)),
                     "verdict": badge(r.verdict) + html.escape(vt.flag(d)),
                     "context": "<br>".join(html.escape(c) for c in vt.context(d)),
                     "regime reached": html.escape(_regime_cell(d))})
    frame = pd.DataFrame(rows, columns=["claim", "statement", "paper", "ours", "verdict", "context", "regime reached"])
    if not frame["regime reached"].astype(bool).any():
        frame = frame.drop(columns=["regime reached"])
    if not frame["context"].astype(bool).any():
        frame = frame.drop(columns=["context"])
    return "<div class='claims'>" + _table(frame, escape=False) + "</div>"


def counts(claims):
    return {v: int((claims["verdict"] == v).sum()) for v in MARKS}


def _counts_html(claims):
    return _tally_html(counts(claims))


def _tally_html(tally):
    """Verdict counts (verdict -> n) as badges, the verdicts with none left out."""
    return " ".join(f"<span class='v {_slug(v)}'>{MARKS[v]} {n} {html.escape(v)}</span>"
                    for v, n in tally.items() if n)


def _regime_cell(d):
    """"no (tree_depth)": whether the claim's regime (the claims CSV's regime
    columns) was reached, and which conditions it names."""
    reached, names = d.get("regime_reached"), d.get("regime")
    if not isinstance(reached, str) or not reached:
        return ""
    return f"{reached} ({names})" if isinstance(names, str) and names else reached


def regime_counts(claims):
    """Verdict counts in the paper's regime (regime_reached yes) apart from
    those outside it (no) and not measured (n.a. or no column)."""
    said = claims["regime_reached"].astype(str) if "regime_reached" in claims.columns else pd.Series("n.a.", index=claims.index)
    return {side: counts(claims[said == key] if key else claims[~said.isin(["yes", "no"])])
            for side, key in (("in the paper's regime", "yes"), ("outside it", "no"), ("regime not measured", None))}


def _regime_counts_html(claims):
    parts = [f"{side}: {_tally_html(c) if any(c.values()) else 'none'}" for side, c in regime_counts(claims).items()]
    return "<br>".join(parts)


def _reached(regime):
    """'k of m figures' where the regime column says yes/no."""
    if regime is None or "reached" not in regime.columns or regime.empty:
        return "—"
    said = regime["reached"].astype(str).str.lower()
    judged = said.isin(["yes", "no"])
    return f"{int((said == 'yes').sum())} of {int(judged.sum())} figures" if judged.any() else "n.a."


def _compare(results, scale):
    """results/<scale>/compare/ (./reproduce --compare), or None."""
    folder = Path(results, scale, "compare")
    if not (folder / "claims.csv").is_file():
        return None
    read = lambda name: pd.read_csv(folder / name, keep_default_na=False, na_values=[""])  # noqa: E731
    return {name: read(f"{name}.csv") for name in ("claims", "figures", "machines") if (folder / f"{name}.csv").is_file()}


def compare_section(compared):
    """This run beside the reference run: verdicts that differ first, then
    each figure's ratio of main metrics, then the two machines."""
    if compared is None:
        return ""
    cl = compared["claims"]
    differs = cl["differs"].astype(str).str.lower() == "true" if "differs" in cl.columns else pd.Series(False, index=cl.index)
    iv = cl["intervals"] if "intervals" in cl.columns else pd.Series("", index=cl.index)
    disjoint, both = int((iv == "disjoint").sum()), int(iv.isin(["disjoint", "overlap"]).sum())
    parts = ["<h2 id='compare'>Beside the reference run</h2>",
             f"<p>{int(differs.sum())} of {len(cl)} verdicts differ from the reference run's; they come first, "
             f"then the other claims whose two 90% intervals are disjoint. Disjoint intervals: {disjoint} of the "
             f"{both} claims both runs measured (a run's interval holds its repetitions' noise over one load, "
             "not the load's own).</p>"]
    shown = cl.copy()
    for side in ("ours", "reference"):
        if f"verdict_{side}" in shown.columns:
            shown[f"verdict_{side}"] = [badge(v) for v in shown[f"verdict_{side}"]]
    parts.append(_table(shown, escape=False))
    for name, title in (("figures", "Figures: ours / reference, per main metric"), ("machines", "The two machines")):
        if name in compared:
            parts.append(f"<h3>{title}</h3>" + _table(compared[name]))
    return "\n".join(parts)


def _differ_text(compared, study):
    if compared is None:
        return "—"
    cl = compared["claims"]
    mine = cl[cl["study"] == study] if "study" in cl.columns else cl.iloc[0:0]
    n = int((mine["differs"].astype(str).str.lower() == "true").sum()) if "differs" in mine.columns else 0
    return f"<a href='#compare'>{n} of {len(mine)} verdicts differ</a>"


def aa_section(study_ids, results, scale):
    """The A/A coverage at the top of the report: how often the 90% interval
    of a comparison whose truth is 1 holds 1 (>= 85% wanted) and how often
    such a comparison was judged not reproduced (the test's 5% level)."""
    found = aa.total(aa.coverage(_claims(results, scale, s)) for s in study_ids)
    if not found:
        return ("<section id='aa'><h2>The checker on itself (A/A)</h2><p class='note'>No A/A claim (ids "
                f"<code>{aa.AA_PREFIX}...</code>) was judged at this scale: the intervals' coverage is unmeasured.</p></section>")
    return ("<section id='aa'><h2>The checker on itself (A/A)</h2>"
            f"<p>{aa.sentence(found)}"
            ".</p><p class='note'>A/A claims compare replica 1 of a point with replica 0: the same engine, options"
            " and data on independent loads (config/scales/&lt;scale&gt;.yaml replicas), judged by the same rule as"
            " the paper claims, so their coverage is the checker's own calibration.</p></section>")


def summary_section(study_ids, results, scale, compared=None):
    """One row per study, each cell linking to its section."""
    rows = []
    for study in study_ids:
        entry = studies.registry()[study]
        claims = _claims(results, scale, study)
        figs = list(studies.figures(study))
        failed = [f for f in figs if _figure_failed(Path(results, scale, "tables", study, f"{f}.csv"))]
        drawn = f"<a href='#{_anchor(study, 'figures')}'>{len(figs) - len(failed)} of {len(figs)}</a>"
        if failed:
            drawn += " (failed: " + ", ".join(f"<a href='#{_anchor(study, f)}'>{html.escape(f)}</a>" for f in failed) + ")"
        regime = _regime(results, scale, study)
        rows.append({"study": f"<a href='#{html.escape(study)}'><code>{html.escape(study)}</code></a>",
                     "paper": html.escape(entry["paper"]),
                     "claims": f"<a href='#{_anchor(study, 'claims')}'>{_counts_html(claims) or 'none'}</a>",
                     "claims by regime": _regime_counts_html(claims),
                     "figures drawn": drawn,
                     "paper's regime reached": (f"<a href='#{_anchor(study, 'regime')}'>{_reached(regime)}</a>"
                                                if regime is not None else "—"),
                     "beside the reference run": _differ_text(compared, study)})
    frame = pd.DataFrame(rows)
    if compared is None:
        frame = frame.drop(columns=["beside the reference run"])
    return ("<section id='summary'><h2>Summary</h2><p class='note'>Per study: the paper, how many of its claims this run"
            " reproduced (and of those in the paper's regime, outside it, or not measured: the claims CSV's"
            " regime_reached, decided by lsmrepro/tidy/regime.py's rule before the run), the figures drawn, and in how many figures the paper's regime (cached fraction,"
            " device reads, settled tree) was reached. A verdict is decided by the rule in paper/README.md"
            " (\"Claims\"): reproduced, not reproduced, inconclusive or no data.</p>"
            + _table(frame, escape=False) + "</section>")


def _figure_failed(table):
    try:
        frame = pd.read_csv(table, nrows=1)
    except (OSError, pd.errors.EmptyDataError):
        return True
    return list(frame.columns) == ["study", "figure", "error"]


def _regime_line(regime, fig):
    """The figure's regime row as one sentence, or nothing."""
    if regime is None or "figure" not in regime.columns:
        return ""
    mine = regime[regime["figure"].astype(str) == fig]
    if mine.empty:
        return ""
    r = mine.iloc[0]
    reached = str(r.get("reached", "")).lower()
    cls = f" regime-{reached}" if reached in ("yes", "no") else ""
    why = html.escape(str(r.get("why", "")))
    return f"<p class='note{cls}'><b>Paper's regime reached: {html.escape(reached or '—')}</b>. {why}</p>"


def figure_section(study, fig, claims, regime, results, scale, out):
    """A figure (full width; a table-only target shows its table only), its
    caption, the regime it ran in, its claims below it, then its data."""
    png = Path(results, scale, "figures", study, f"{fig}.png")
    pdf = png.with_suffix(".pdf")
    table = Path(results, scale, "tables", study, f"{fig}.csv")
    spec = studies.figures(study)[fig]
    frame = pd.read_csv(table)
    parts = [f"<h3 id='{_anchor(study, fig)}'>{html.escape(study)}/{html.escape(fig)}"
             f" <span class='note'>({html.escape(str(spec.get('paper_figure', '—')))})</span></h3>"]
    if _figure_failed(table):
        parts.append(f"<p class='not-reproduced'><b>This figure failed:</b> {html.escape(str(frame['error'][0]))}</p>")
    is_table = spec.get("output") == "table"
    links = [] if is_table else [f"<a href='{_rel(pdf, out)}'>PDF</a>"]
    links.append(f"<a href='{_rel(table, out)}'>table CSV</a>")
    parts.append(f"<p>{html.escape(studies.caption(study, fig))} " + " · ".join(links) + "</p>")
    parts.append(_regime_line(regime, fig))
    if not is_table and png.is_file():
        parts.append(_image(png, f"{study}/{fig}"))
    mine = claims[claims["figure"].astype(str).str.split(" ").str[0] == fig]
    if len(mine):
        parts.append(f"<p><b>Claims</b> {_counts_html(mine)}</p>" + claims_table(mine))
    parts.append(("" if is_table else "<details><summary>the figure's data</summary>")
                 + _table(frame) + ("" if is_table else "</details>"))
    return "\n".join(parts)


def study_section(study, results, scale, out):
    """One study: its paper, its regime table, each figure with its claims,
    every claim of the study, and the runs behind each verdict."""
    entry = studies.registry()[study]
    claims = _claims(results, scale, study)
    regime = _regime(results, scale, study)
    parts = [f"<h2 id='{html.escape(study)}'>Study <code>{html.escape(study)}</code>: {html.escape(entry['title'])}</h2>",
             f"<p>Paper: {html.escape(entry['paper'])}</p>"]
    if regime is not None:
        parts.append(f"<h3 id='{_anchor(study, 'regime')}'>The papers' regime beside ours</h3>"
                     "<p class='note'>Per figure with runs: what the paper ran in (database against memory, device,"
                     " threads, settled tree) beside what this run measured.</p>" + _table(regime))
    parts.append(f"<div id='{_anchor(study, 'figures')}'></div>")
    parts += [figure_section(study, fig, claims, regime, results, scale, out) for fig in studies.figures(study)]
    parts.append(f"<h3 id='{_anchor(study, 'claims')}'>All claims of {html.escape(study)}</h3>"
                 f"<p>{_counts_html(claims) or 'none'}</p><p class='note'>Open a statement for the paper's"
                 " source, the rule, each member and the runs' detail. <i>runs</i> below lists the runs each"
                 " verdict used.</p>" + claims_table(claims))
    parts.append(_runs_behind(study, claims, results, scale, out))
    return "\n".join(parts)


def _raw_log(results, scale, study, run):
    """A run's raw log: lsmbench's JSON lines, or a tool run's CSV (rule tool_run)."""
    base = Path(results, scale, "raw", study, run)
    tool = base.with_name(base.name + ".csv")
    return tool if tool.is_file() else base.with_name(base.name + ".jsonl")


def _runs_behind(study, claims, results, scale, out):
    """Each verdict's runs, each linked to its raw log."""
    items = []
    for r in claims.itertuples():
        runs = [x for x in str(r.runs).split(";") if x and x != "nan"]
        links = ", ".join(f"<a href='{_rel(_raw_log(results, scale, study, run), out)}'>"
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
    return (f"<h2>Machine</h2><p>fingerprint id <code>{html.escape(str(fp.get('id')))}</code>"
            f" (<a href='{_rel(hardware / 'fingerprint.json', out)}'>JSON</a>)</p>"
            + _table(pd.read_csv(hardware / "system.csv"))
            + "<h3>Device calibration (fio)</h3>"
            + _image(hardware / "calibration.png", "calibration")
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
    compared = _compare(args.results, args.scale)
    body.append(aa_section(args.studies, args.results, args.scale))
    body.append(summary_section(args.studies, args.results, args.scale, compared))
    body.append(compare_section(compared))
    body += [study_section(s, args.results, args.scale, args.out) for s in args.studies]
    body += [builds_section(args.build_ids), machine_section(args.hardware, args.out),
             runs_section(args.logs, args.out)]
    page = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>LSM reproduction ({args.scale})</title>"
            f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>\n")
    write_text(args.out, page)


if __name__ == "__main__":
    main()

"""Each study README's verdicts, generated from the shipped reference run.

    python -m lsmrepro.publish.readme_verdicts [--check] [--reference results/reference/local] [--study S ...]
    ./reproduce --readmes [--check]          (the same; no Snakemake)

Rewrites, in paper/<study>/README.md, the lines from
    <!-- verdicts:begin reference=local -->
to
    <!-- verdicts:end -->
and nothing else: the causes measured stay as prose beside the block. The
block is read from the reference folder (the layout of results/<scale>/):
  claims/<study>.csv           verdicts (lsmrepro.claims)
  tables/<study>/regime.csv    whether each figure reached its paper's regime (lsmrepro.tidy.regime)
  run.json                     the run: {"commit", "started", "wall_seconds", "jobs",
                               "host_load": the load its runs saw} (lsmrepro.publish.ship)
  hardware/fingerprint.json    the machine, and its load average when the run started
A header line (commit, date, wall time, jobs, machine, load), the counts
per verdict, then one row per claim: figure, the paper's number, ours with
its 90% interval, the verdict, the regime reached (yes / no and why, for
the experiments whose runs the claim read) and the context metrics.
Without a shipped reference (no claims/<study>.csv) the block is one line
saying so. --check writes nothing and exits 1 naming the README and its
first line that differs from what the reference gives.

In paper/README.md it rewrites, likewise, the lines from `<!-- aa:begin -->`
to `<!-- aa:end -->`: the A/A claims' coverage (lsmrepro/publish/aa.py) in
every run shipped beside the reference (results/reference/*/claims/).
"""
import argparse
import json
import re
import sys
from pathlib import Path

import humanfriendly
import pandas as pd

from lsmrepro.plan import studies
from lsmrepro.claims import verdict_text as vt
from lsmrepro.claims.evaluate import VERDICTS
from lsmrepro.publish import aa, compare
from base.atomic import write_text
from base.errors import InputError, cli

REPO = Path(__file__).resolve().parents[2]
BEGIN, END = "<!-- verdicts:begin", "<!-- verdicts:end -->"
AA_BEGIN, AA_END = "<!-- aa:begin -->", "<!-- aa:end -->"
RUN_FIELDS = ("commit", "started", "wall_seconds", "jobs", "host_load")
COLUMNS = ["claim", "figure", "paper", "ours [90% CI]", "verdict", "regime reached", "context"]


def _shown(path):
    """A path as the README prints it: relative to the repository when inside it."""
    p = Path(path).resolve()
    return str(p.relative_to(REPO)) if p.is_relative_to(REPO) else str(path)


def _csv(path, columns, expected):
    try:
        t = pd.read_csv(path, keep_default_na=False, na_values=[""])
    except (OSError, ValueError) as e:
        raise InputError(path, None, f"{expected} ({e})")
    missing = [c for c in columns if c not in t.columns]
    if missing:
        raise InputError(path, ", ".join(missing), f"the columns of {expected}")
    return t


def run_manifest(ref):
    path = Path(ref, "run.json")
    try:
        run = json.loads(path.read_text())
    except FileNotFoundError:
        raise InputError(path, None, "missing: the reference run's manifest (" + ", ".join(RUN_FIELDS) + ")")
    except (OSError, ValueError) as e:
        raise InputError(path, None, f"a JSON object expected ({e})")
    missing = [f for f in RUN_FIELDS if not isinstance(run, dict) or f not in run]
    if missing:
        raise InputError(path, ", ".join(missing), "the fields of a run manifest (lsmrepro.publish.readme_verdicts)")
    load = run["host_load"].get("host_loadavg_start") if isinstance(run["host_load"], dict) else None
    if not (isinstance(load, dict) and {"median", "max"} <= set(load)):
        raise InputError(path, "host_load.host_loadavg_start", "the median and max load average at the runs' starts")
    return run


def machine(ref):
    """The CPU and its threads, from the fingerprint."""
    path = Path(ref, "hardware", "fingerprint.json")
    try:
        cpu = json.loads(path.read_text())["stable"]["cpu"]
        return f"{cpu['threads']} threads of {cpu['model']}"
    except FileNotFoundError:
        raise InputError(path, None, "missing: the reference machine's fingerprint (hardware.fingerprint)")
    except (OSError, ValueError, KeyError, TypeError):
        raise InputError(path, "stable.cpu", "a fingerprint written by hardware.fingerprint")


def _load(run):
    """The load the runs saw, as the runner sampled it (lsmrepro.publish.ship)."""
    h = run["host_load"]
    text = (f"load average at the runs' starts {h['host_loadavg_start']['median']:.2f} median,"
            f" {h['host_loadavg_start']['max']:.2f} max")
    other = h.get("host_other_cpu_share")
    if isinstance(other, dict):
        text += f"; other processes' CPU share while they ran {other['median']:.2f} median, {other['max']:.2f} max"
    return text


def header(ref, claims_path, claims):
    run = run_manifest(ref)
    commits = set(claims["commit"].astype(str)) if "commit" in claims.columns else set()
    # A run shipped in parts: the study's claims carry its own part's commit.
    study = Path(claims_path).stem
    mine = [str(p["commit"]) for p in run.get("parts", []) if study in p["studies"]] or [str(run["commit"])]
    # a short hash of the same commit agrees
    if any(not any(m.startswith(c) or c.startswith(m) for m in mine) for c in commits):
        raise InputError(claims_path, "commit", f"the commit of {study}'s part in {_shown(Path(ref, 'run.json'))}"
                                                f" ({', '.join(mine)}), not {', '.join(sorted(commits))}")
    wall = humanfriendly.format_timespan(round(float(run["wall_seconds"])), max_units=2)
    return (f"Reference run of commit `{str(run['commit'])[:12]}`, started {run['started']}: {wall} of wall time"
            f" for {run['jobs']} jobs on {machine(ref)}; {_load(run)}.")


def regime_rows(ref, study):
    """experiment -> (reached, why), from the study's regime table; empty when none."""
    path = Path(ref, "tables", study, "regime.csv")
    if not path.is_file():
        return {}
    t = _csv(path, ["figure", "reached", "why"], "a regime table of lsmrepro.tidy.regime")
    return {r["figure"]: (vt.text(r, "reached"), vt.text(r, "why")) for r in t.to_dict("records")}


def _experiments(r):
    """The experiments whose runs the claim read (its `runs`, each
    <experiment>/<point>/r<rep>); without runs, those its figure reads."""
    runs = [x.split("/")[0] for x in vt.text(r, "runs").split(";") if "/" in x]
    if runs:
        return sorted(set(runs))
    study, fig = vt.text(r, "study"), vt.figure_id(r)
    known = study in studies.registry() and studies.spec_path(study).is_file() and fig in studies.figures(study)
    return studies.figure_experiments(study, fig) if known else [fig]


def regime_cell(r, regime):
    """yes / no / n.a. and why, over the experiments the claim read: no if
    any of them missed its regime, yes if none did and one reached it."""
    found = [(e, *regime[e]) for e in _experiments(r) if e in regime]
    own, names = vt.text(r, "regime_reached"), vt.text(r, "regime")
    if own in ("yes", "no", "n.a.") and names:  # the claim's own conditions (claims CSV), the figures' numbers beside
        return f"{own} ({names})" + (": " + "; ".join(why for _, _, why in found) if found else "")
    if not found:
        return "—"
    said = [x[1] for x in found]
    overall = "no" if "no" in said else "yes" if "yes" in said else said[0]
    if len(found) == 1:
        return f"{overall}: {found[0][2]}"
    return f"{overall}: " + "; ".join(f"{e} {reached} ({why})" for e, reached, why in found)


def _cell(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


# A verdict table written before issue 52 made a listed claim inconclusive
# whatever its data, its detail "underpowered at scale S (...): <the power
# check's reason>; ...; the data alone: <verdict> (<the data's detail>)"
# (the reference run of 89cef94 is such a table). Its rows are shown as
# what the data gave and that the list overrode it.
LISTED = re.compile(r"^underpowered at scale .*?; the data alone: (" + "|".join(sorted(VERDICTS, key=len, reverse=True))
                    + r")(?: \((.*)\))?$")


def listed_then(r):
    """(the data's verdict, the data's detail) of a row the list made
    inconclusive before issue 52, else None."""
    m = LISTED.match(vt.text(r, "detail"))
    return (m.group(1), m.group(2) or "") if m else None


def claims_table(claims, regime):
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for r in claims.to_dict("records"):
        listed = listed_then(r)
        if listed:
            r = {**r, "detail": listed[1]}
        said = f"**{vt.verdict(r)}**" + (f" (listed underpowered; the data alone: {listed[0]})" if listed else "")
        cells = [f"`{r['claim']}`", vt.text(r, "figure"), vt.paper(r), vt.ours(r), said,
                 regime_cell(r, regime), "<br>".join(vt.context(r))]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return lines


def _split(verdicts):
    """'2 reproduced, 1 inconclusive' of a series of verdicts."""
    said = pd.Series(list(verdicts), dtype=object).value_counts()
    return ", ".join(f"{int(said[v])} {v}" for v in VERDICTS if v in said)


def counts_line(claims, claims_path):
    said = claims["verdict"].value_counts()
    parts = [f"{int(said.get(v, 0))} {v}" for v in VERDICTS if said.get(v, 0)]
    measured = f"config/scales/{Path(claims_path).parent.parent.name}.measured.yaml"
    flagged = claims.loc[claims.get("underpowered", pd.Series("", index=claims.index)).astype(str) == "yes", "verdict"]
    under = ""
    if len(flagged):
        under = (f" {len(flagged)} are flagged underpowered at this scale (the power check's claims_underpowered,"
                 f" tool-written in {measured}; a flag, the verdict is the data's): {_split(flagged)}.")
    listed = [x for x in (listed_then(r) for r in claims.to_dict("records")) if x]
    if listed:
        under += (f" {len(listed)} were made inconclusive by the run's list of underpowered claims, as the rule was"
                  " before issue 52 (the list then hand-set in the scale's config/scales/<scale>.yaml); the data"
                  f" alone: {_split(v for v, _ in listed)}. The list is now tool-written in {measured}"
                  " (lsmrepro/plan/scale_measured.py) and only flags a verdict.")
    own = aa.coverage(claims) if "claim" in claims.columns else None
    checker = f" The checker on itself (paper/README.md, \"A/A\"): {aa.sentence(own)}." if own else ""
    return (f"**{', '.join(parts) or 'no claims'}** of {len(claims)} claims (`{_shown(claims_path)}`;"
            " the rule that decides a verdict: paper/README.md, \"The statistical rule\")." + under + _by_regime(claims)
            + checker)


def _by_regime(claims):
    """The verdict counts of claims in the paper's regime apart from those outside it."""
    if "regime_reached" not in claims.columns:
        return ""
    said = claims["regime_reached"].astype(str)
    parts = []
    for name, key in (("in the paper's regime", "yes"), ("outside it", "no")):
        c = claims.loc[said == key, "verdict"].value_counts()
        parts.append(f"{name}: " + (", ".join(f"{int(c[v])} {v}" for v in VERDICTS if v in c) or "none"))
    return " By regime (lsmrepro/tidy/regime.py, decided before the run): " + "; ".join(parts) + "."


def block(study, ref):
    """The generated lines, markers included."""
    ref = Path(ref)
    begin = f"{BEGIN} reference={ref.name} -->"
    note = f"<!-- generated by `python -m lsmrepro.publish.readme_verdicts` from {_shown(ref)}: do not edit by hand -->"
    claims_path = ref / "claims" / f"{study}.csv"
    if not claims_path.is_file():
        return [begin, note, f"No reference run is shipped yet (`{_shown(claims_path)}` does not exist):"
                f" `./reproduce {study}` judges these claims on your machine (`results/{ref.name}/claims/{study}.md`).",
                END]
    claims = _csv(claims_path, ["claim", "figure", "verdict", "measured", "ci_low", "ci_high", "n"],
                  "a verdict table of lsmrepro.claims")
    return [begin, note, header(ref, claims_path, claims), "", counts_line(claims, claims_path), "",
            *claims_table(claims, regime_rows(ref, study)), END]


def readme_path(study, paper_dir):
    return Path(paper_dir, study, "README.md")


def rewritten(readme, lines, begin=BEGIN, end=END, name="verdicts block"):
    """The README's lines with its block (from a line starting `begin` to
    the line `end`) replaced by `lines`."""
    try:
        old = readme.read_text().splitlines()
    except FileNotFoundError:
        raise InputError(readme, None, f"missing: a README with a {name}")
    begins = [i for i, s in enumerate(old) if s.startswith(begin)]
    ends = [i for i, s in enumerate(old) if s.strip() == end]
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise InputError(readme, name,
                         f"one line starting `{begin}` and one `{end}` after it (found {len(begins)} and {len(ends)})")
    return old, old[:begins[0]] + lines + old[ends[0] + 1:]


def shipped_runs(ref):
    """The runs shipped beside the reference (its sibling folders with
    claims/), the reference first."""
    ref = Path(ref)
    others = sorted(d for d in ref.parent.iterdir() if d != ref and (d / "claims").is_dir())
    return [ref, *others] if (ref / "claims").is_dir() else others


def aa_block(ref):
    """paper/README.md's A/A lines: per shipped run and over all of them."""
    note = (f"<!-- generated by `python -m lsmrepro.publish.readme_verdicts` from {_shown(Path(ref).parent)}/*/claims:"
            " do not edit by hand -->")
    rows, found = [], []
    for run_dir in shipped_runs(ref):
        claims = compare.claims(run_dir)  # a study's verdicts, or its figure targets'
        c = aa.coverage(claims)
        if c:
            run = run_manifest(run_dir)
            # a run shipped in parts names each part's commit
            commits = dict.fromkeys(str(x["commit"])[:12] for x in run.get("parts", [])) or [str(run["commit"])[:12]]
            rows.append(f"| `{_shown(run_dir)}` | {', '.join(f'`{x}`' for x in commits)} | "
                        f"{', '.join(sorted(set(claims['file'])))} | {aa.sentence(c)} |")
            found.append(c)
    if not found:
        return [AA_BEGIN, note, "No shipped run has A/A claims yet.", AA_END]
    both = aa.total(found)
    return [AA_BEGIN, note, "| shipped run | commits | verdicts of | A/A claims |", "|---|---|---|---|", *rows, "",
            f"All shipped runs together ({len(found)}): {aa.sentence(both)}.", AA_END]


def first_difference(old, new):
    """(1-based line number, README's line, generated line) of the first difference, or None."""
    for i in range(max(len(old), len(new))):
        a = old[i] if i < len(old) else "(end of file)"
        b = new[i] if i < len(new) else "(end of file)"
        if a != b:
            return i + 1, a, b
    return None


def run(studies_ids, ref, paper_dir, check):
    """Rewrites (or with check, compares) each study's verdicts block and,
    where paper_dir has a README, its A/A block; returns the messages of
    READMEs that differ (check) or were rewritten."""
    out = []
    blocks = [(readme_path(study, paper_dir), "verdicts", lambda study=study: block(study, ref), BEGIN, END)
              for study in studies_ids]
    top = Path(paper_dir, "README.md")
    if top.is_file():
        blocks.append((top, "A/A", lambda: aa_block(ref), AA_BEGIN, AA_END))
    for readme, name, lines, begin, end in blocks:
        old, new = rewritten(readme, lines(), begin, end, f"{name} block")
        diff = first_difference(old, new)
        if diff is None:
            continue
        if check:
            line, a, b = diff
            out.append(f"{_shown(readme)}:{line}: differs from {_shown(ref)}: the README has\n    {a}\n"
                       f"  where the reference gives\n    {b}\n"
                       f"  (`python -m lsmrepro.publish.readme_verdicts --reference {_shown(ref)}` rewrites it)")
        else:
            write_text(readme, "\n".join(new) + "\n")
            out.append(f"{_shown(readme)}: {name} rewritten from {_shown(ref)}")
    return out


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 when a README differs")
    ap.add_argument("--reference", default=str(REPO / "results" / "reference" / "local"),
                    help="the reference run's folder (default results/reference/local)")
    ap.add_argument("--study", nargs="+", help="default: every study of paper/studies.yaml")
    ap.add_argument("--paper-dir", default=str(REPO / "paper"), help="where <study>/README.md are (default paper/)")
    a = ap.parse_args(argv)
    known = list(studies.registry())
    unknown = [s for s in a.study or [] if s not in known]
    if unknown:
        raise InputError("paper/studies.yaml", None, f"a registered study expected, not {', '.join(unknown)}")
    messages = run(a.study or known, a.reference, a.paper_dir, a.check)
    for m in messages:
        print(m, file=sys.stderr)
    if a.check and messages:
        sys.exit(1)


if __name__ == "__main__":
    main()

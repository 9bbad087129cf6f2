"""The regime a run measured, beside the one its paper measured in.

Per run (tidy rows, added by lsmrepro/tidy/aggregate.py), from what the logs hold:

  regime_cached_fraction       share of the database's bytes in the page cache when the
                               run phase starts: the runner's `cache_bytes_at_run` over
                               `db_bytes` where it set the limit after the open; else 0 for a
                               cold run (evicted) and 1 for a warm run from a plain copy (its
                               pages cached, charged outside the run's limit)
  regime_read_bytes_per_op     bytes the engine read from the device during the run phase
                               (/proc/self/io read_bytes since settling, the engine record's
                               read_io) per operation of the run phase
  regime_reads_per_op          the same in 4 KiB pages: device reads per operation
  regime_compactions_in_phase  compactions (and flushes) the engine ran from its open to the
                               end of the run phase (the hooks' compaction_totals.count)
  regime_learning_share        the engine's learning_seconds in the run log (training inside
                               compactions or Bourbon's learner; not a retrain at open, and
                               Bourbon's learning in its open taken off) over the run phase's
                               seconds
  regime_index_share           the index steps of a get (find the file, load and search the
                               index / model) over the mean get latency, where step timers ran
  regime_tree_levels           levels of the tree the run read: the deepest level with a
                               table, plus one (the engine record's files_per_level)
  regime_background_bytes_in_phase  RocksDB: bytes its flushes and compactions wrote from
                               the open to the end of the run phase (compaction_bytes_written);
                               LevelDB forks count them in regime_compactions_in_phase
  regime_data_hardness_ratio   per epsilon (subset `eps=<e>`): the dataset's PLA segments at
                               epsilon e over the published real set's at k*e (the run
                               record's dataset manifest, `hardness`, written by the dataset
                               rule through workloads/hardness.py); 1 for the real file.
                               The regime table's data_segments shows both counts
  learned_slr_kept_share       SLR runs: of the tables the run's load built, the share whose
                               error-aware model was kept (1 - slr_abandoned / tables_built)

Per figure (`python -m lsmrepro.tidy.regime`): tables/<study>/regime.csv, one row per
figure with runs: the paper's `regime:` (paper/<study>/experiments.yaml) beside the
medians of ours, `reached` (yes / no / n.a.) for what the figure's claims depend
on (`depends_on`), and `why` with the measured numbers.
"""
import argparse
import json
import math
import sys
from pathlib import Path

from lsmrepro.plan import studies
from base.atomic import write_csv, write_text
from base.errors import InputError, cli

PAGE = 4096
# Index steps of a get, by the step timers' tidy metric (per-op ns): LevelDB's
# learned tables (lsm-eval Fig. 8), Bourbon's lookup paths (its Fig. 2).
INDEX_STEPS_PER_OP = (
    "lookup_find_files_per_op", "lookup_find_table_per_op", "lookup_load_index_per_op",
    "lookup_index_search_per_op", "lookup_paths_baseline.load_index_per_op",
    "lookup_paths_baseline.search_index_per_op", "lookup_paths_file_model.model_lookup_per_op",
    "lookup_paths_level_model.model_lookup_per_op")
# RocksDB's perf_steps totals (ns over the run): find the table, seek in the
# index (the block-based table times the index and data-block seeks together;
# DobLIX Fig. 1 counts both as its "index lookup").
INDEX_STEPS_TOTAL = ("steps_s_file_ns", "steps_s_block_ns", "steps_s_block_plus_s_kv_ns", "steps_s_kv_ns")
# `reached` tolerances: an absolute difference of shares.
SHARE_TOLERANCE = 0.10
# settled: no compaction in the phase and learning at most this share of it
SETTLED_LEARNING_SHARE = 0.05
# data_hardness: each chosen epsilon's segments within this factor of the real set's
HARDNESS_FACTOR = 2.0
METRICS = ("regime_cached_fraction", "regime_read_bytes_per_op", "regime_reads_per_op",
           "regime_compactions_in_phase", "regime_learning_share", "regime_index_share",
           "regime_tree_levels", "regime_background_bytes_in_phase", "regime_data_hardness_ratio")
# Conditions a claim's `regime:` (or its figure's `regime.depends_on`) may name; the rule
# that decides each is `condition` below, fixed before any run is judged.
CONDITIONS = ("cached_fraction", "device_reads", "settled", "index_share", "data_hardness",
              "tree_depth", "flushes_in_phase", "index_share_needed", "failure_memory")


def _num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def run_rows(log, base, report_path=None):
    """The regime_* rows of one run log (runlog.Log) with its factors `base`."""
    out = []

    def row(rec, metric, value, unit, note=""):
        out.append({**base, "metric": metric, "op": "", "subset": "", "value": value, "unit": unit,
                    "source": f"{log.path}:{rec.line}" if rec else f"{report_path}#{note}", "note": note})

    phase = next((r for r in log.records if r.data["type"] == "phase" and r.data["phase"] == "run"), None)
    engine = next((r for r in log.records if r.data["type"] == "engine"), None)
    ops = phase.data["ops"] if phase else 0
    seconds = phase.data["seconds"] if phase else 0
    e = engine.data if engine else {}
    read_io = e.get("read_io") or {}
    if ops and _num(read_io.get("read_bytes_after_settle")):
        b = read_io["read_bytes_after_settle"]
        row(engine, "regime_read_bytes_per_op", b / ops, "bytes")
        row(engine, "regime_reads_per_op", b / PAGE / ops, "pages")
    totals = (e.get("hooks") or {}).get("compaction_totals") or {}
    if _num(totals.get("count")):
        row(engine, "regime_compactions_in_phase", totals["count"], "compactions")
    if seconds and _num(e.get("learning_seconds")):
        row(engine, "regime_learning_share", _phase_learning(log, e) / seconds, "")
    share = _index_share(log, e)
    if share is not None:
        row(engine, "regime_index_share", share, "")
    files = e.get("files_per_level")
    if isinstance(files, list) and files:
        row(engine, "regime_tree_levels", max((i + 1 for i, n in enumerate(files) if n), default=0), "levels")
    if _num(e.get("compaction_bytes_written")):
        row(engine, "regime_background_bytes_in_phase", e["compaction_bytes_written"], "bytes")
    out += _hardness_rows(log, base)
    out += _slr_kept_rows(log, base)
    cached = _cached_fraction(log, report_path)
    if cached is not None:
        value, note = cached
        if note.startswith("#"):
            out.append({**base, "metric": "regime_cached_fraction", "op": "", "subset": "", "value": value,
                        "unit": "", "source": f"{report_path}{note}", "note": ""})
        else:
            row(log.records[0], "regime_cached_fraction", value, "", note)
    return out


def _hardness_rows(log, base):
    """regime_data_hardness_ratio per epsilon from the run record's dataset
    manifest: 1 for the real file; else the stand-in's segments over the
    published real set's (workloads/hardness.py wrote both)."""
    manifest = (log.run.get("dataset") or {}).get("manifest") or {}
    source = f"{log.path}:{log.records[0].line}"
    if manifest.get("source") == "real":
        return [{**base, "metric": "regime_data_hardness_ratio", "op": "", "subset": "real", "value": 1.0,
                 "unit": "", "source": source, "note": "the real file"}]
    out = []
    for eps, h in sorted(((manifest.get("hardness") or {}).get("epsilons") or {}).items(), key=lambda kv: float(kv[0])):
        if _num(h.get("segments")) and _num(h.get("published_segments")) and h["published_segments"] > 0:
            out.append({**base, "metric": "regime_data_hardness_ratio", "op": "", "subset": f"eps={eps}",
                        "value": h["segments"] / h["published_segments"], "unit": "", "source": source,
                        "note": f"{h['segments']} segments at eps {eps} vs {h['published_segments']} "
                                f"of the real set at eps {h.get('published_eps')}"})
    return out


def _phase_learning(log, engine):
    """The engine's learning seconds less what it learned in its open
    (Bourbon's learning=offline or learn_at_open learn every table there):
    at most the open's seconds are taken off (the end record's driver_seconds)."""
    learning = engine["learning_seconds"]
    options = log.run.get("options") or {}
    if engine.get("bourbon") and (options.get("learning") == "offline"
                                  or str(options.get("learn_at_open")).lower() == "true"):
        end = next((r.data for r in log.records if r.data["type"] == "end"), {})
        learning = max(0.0, learning - ((end.get("driver_seconds") or {}).get("open") or 0.0))
    return learning


def _slr_kept_rows(log, base):
    """learned_slr_kept_share: of the SLR tables the run's load built, the
    share whose error-aware model was kept (not abandoned for binary search),
    from the load log's engine record (a run of a settled load builds none)."""
    from lsmrepro.tidy import runlog
    if (log.run.get("options") or {}).get("slr") != "ea":
        return []
    load_log = (log.run.get("meta") or {}).get("load_log")
    if not load_log or not Path(load_log).exists():
        return []
    load = runlog.read(load_log)
    rec = next((r for r in load.records if r.data["type"] == "engine"), None)
    learned = (rec.data.get("learned") or {}) if rec else {}
    built, abandoned = learned.get("tables_built"), learned.get("slr_abandoned")
    if not built or not _num(abandoned):
        return []
    return [{**base, "metric": "learned_slr_kept_share", "op": "", "subset": "", "value": 1 - abandoned / built,
             "unit": "", "source": f"{load_log}:{rec.line}", "note": f"{abandoned} of {built} tables abandoned"}]


def _index_share(log, engine):
    """Index steps over the mean get latency, where step timers ran."""
    mean = next((r.data["mean"] for r in log.records if r.data["type"] == "latency"
                 and r.data["op"] == "get" and r.data["subset"] == "all" and r.data["count"]), None)
    if not mean:
        return None
    per_op = {}
    for r in log.records:
        if r.data["type"] == "breakdown":
            for step, v in r.data["per_op"].items():
                per_op[f"{r.data['scope']}_{step}_per_op"] = v
    index = [per_op[m] for m in INDEX_STEPS_PER_OP if m in per_op]
    if index:
        return min(1.0, sum(index) / mean)
    steps = engine.get("steps") or {}
    gets = next((r.data["count"] for r in log.records if r.data["type"] == "latency"
                 and r.data["op"] == "get" and r.data["subset"] == "all"), 0)
    names = [n[len("steps_"):] for n in INDEX_STEPS_TOTAL]
    if "s_block_plus_s_kv_ns" in steps:  # the block-based table: index + data-block seeks in one
        names = ["s_file_ns", "s_block_plus_s_kv_ns"]
    index = [steps[n] for n in names if _num(steps.get(n))]
    if index and gets and any(index):
        return min(1.0, sum(index) / gets / mean)
    return None


def _cached_fraction(log, report_path):
    """(value, note or '#field'): measured by the runner where it set the
    limit after the open; else what the cache mode implies."""
    report = {}
    if report_path and Path(report_path).exists():
        report = json.loads(Path(report_path).read_text())
    if _num(report.get("cache_bytes_at_run")) and report.get("db_bytes"):
        return min(1.0, report["cache_bytes_at_run"] / report["db_bytes"]), "#cache_bytes_at_run"
    meta = log.run.get("meta") or {}
    if meta.get("phase") != "run":
        return None
    if meta.get("cache") == "cold":
        return 0.0, "cold run: the database's pages evicted before the run phase"
    if meta.get("memory_limit_rule") or meta.get("db_copy") not in ("copy", "link"):
        return None  # not measured by the runner; a reflink copy starts uncached
    return 1.0, "warm run: the copy's pages cached before the job (written, or read once), under no limit of the database's size"


# --- the paper's regime per figure -------------------------------------------------------------

def figure_regime(study, figure, figs, path):
    """The figure's `regime:`, or that of a figure it `uses`; else one error."""
    fig = figs[figure]
    if "regime" in fig:
        return fig["regime"]
    for other in fig.get("uses", []):
        if "regime" in figs.get(other, {}):
            return figs[other]["regime"]
    raise InputError(path, f"figures.{figure}.regime",
                     "the paper's regime expected on every figure with runs (paper/README.md, regime)")


def paper_cached_fraction(regime, label=None):
    """min(1, memory / database) of the paper, per dataset label where the sizes are."""
    def pick(v):
        if isinstance(v, dict):
            return v.get(label) if label is not None else min(v.values())
        return v
    db, mem = pick(regime["database_bytes"]), pick(regime["memory_bytes"])
    if db is None or mem is None:
        return None
    return min(1.0, mem / db)


def _median(values):
    values = sorted(v for v in values if v is not None and not math.isnan(v))
    if not values:
        return None
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def _fmt(v, digits=3):
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.{digits}g}"
    return str(v)


def ours_of(rows):
    """Medians of our regime metrics over a figure's (or a claim's) tidy rows;
    data hardness as the ratio farthest from 1, per run's dataset."""
    ours = {m: _median([float(r["value"]) for r in rows if r["metric"] == m]) for m in METRICS + ("dataset_keys",)}
    ratios = [float(r["value"]) for r in rows if r["metric"] == "regime_data_hardness_ratio"]
    ours["regime_data_hardness_ratio"] = max(ratios, key=lambda v: abs(math.log(v)) if v > 0 else math.inf) if ratios else None
    return ours


def gain_of(claim):
    """The largest gain a claim's paper reports (a ratio above 1, or its
    inverse below 1): what its index share must allow; None for no ratio."""
    paper = claim.get("paper") or {}
    values = ([paper["value"]] if _num(paper.get("value")) else []) + \
        [v for v in (paper.get("members") or {}).values() if _num(v)] + [v for v in paper.get("range") or [] if _num(v)]
    gains = [max(v, 1 / v) for v in values if v > 0]
    return max(gains) if gains else None


def condition(need, regime, ours, gain=None):
    """(reached: True / False / None for not measured, why): the one rule for
    each regime condition, applied alike to every claim and verdict."""
    paper_cached = paper_cached_fraction(regime)
    if need == "cached_fraction":
        v = ours["regime_cached_fraction"]
        ok = None if v is None or paper_cached is None else abs(v - paper_cached) <= SHARE_TOLERANCE
        return ok, f"cached fraction {_fmt(v)} (paper {_fmt(paper_cached)}, ±{SHARE_TOLERANCE})"
    if need == "device_reads":
        v = ours["regime_read_bytes_per_op"]
        device = paper_cached is not None and paper_cached < 1
        return (None if v is None else (v > 0) == device,
                f"{_fmt(v)} device bytes/op (paper's lookups {'reach' if device else 'do not reach'} the device)")
    if need == "settled":
        c, learn = ours["regime_compactions_in_phase"], ours["regime_learning_share"]
        ok = None if c is None and learn is None else (
            (c or 0) == 0 and (learn or 0) <= SETTLED_LEARNING_SHARE) == regime["settled"]
        return ok, (f"{_fmt(c)} compactions in the phase, learning {_fmt(learn)} of it"
                    f" (paper settled: {str(regime['settled']).lower()}; settled = 0 and <= {SETTLED_LEARNING_SHARE})")
    if need == "index_share":
        v, p = ours["regime_index_share"], (regime.get("steps") or {}).get("index")
        ok = None if v is None or p is None else abs(v - p) <= SHARE_TOLERANCE
        return ok, f"index share {_fmt(v)} of a get (paper {_fmt(p)}, ±{SHARE_TOLERANCE})"
    if need == "index_share_needed":
        v, g = ours["regime_index_share"], gain if gain is not None else regime.get("gain")
        need_share = None if g is None else 1 - 1 / g
        ok = None if v is None or need_share is None else v >= need_share
        return ok, (f"index share {_fmt(v)} of a get, at least {_fmt(need_share)} needed for a {_fmt(g)}x gain"
                    f" (a free index gives at most {_fmt(1 / (1 - v)) if v is not None and v < 1 else '∞'}x)")
    if need == "tree_depth":
        v, p = ours["regime_tree_levels"], regime.get("levels")
        ok = None if v is None or p is None else v >= p
        return ok, f"{_fmt(v)} levels (paper {_fmt(p)}, at least that many)"
    if need == "flushes_in_phase":
        c, b = ours["regime_compactions_in_phase"], ours["regime_background_bytes_in_phase"]
        ok = None if c is None and b is None else (c or 0) > 0 or (b or 0) > 0
        return ok, f"{_fmt(c)} flushes/compactions, {_fmt(b)} bytes written by them in the phase (paper: > 0)"
    if need == "data_hardness":
        v = ours["regime_data_hardness_ratio"]
        ok = None if v is None else 1 / HARDNESS_FACTOR <= v <= HARDNESS_FACTOR
        return ok, f"PLA segments {_fmt(v)}x the real set's at the mapped epsilon (within {HARDNESS_FACTOR:g}x)"
    if need == "failure_memory":
        v, p = ours["dataset_keys"], regime.get("failure_keys")
        ok = None if v is None or p is None else v >= p
        return ok, f"{_fmt(v)} keys (the paper's failure at {_fmt(p)})"
    raise ValueError(f"unknown regime condition {need!r} (expected one of {', '.join(CONDITIONS)})")


def reached_of(checks):
    """yes when no condition failed and one was measured; n.a. when none was."""
    if not checks or all(c is None for c in checks):
        return "n.a."
    return "yes" if all(c is not False for c in checks) else "no"


def figure_row(study, figure, fig_spec, regime, rows):
    """One regime row: paper beside ours (medians over the figure's runs)."""
    ours = ours_of(rows)
    runs = len({r["run"] for r in rows if r["metric"] != "failed"})
    labels = sorted({r["dataset"] for r in rows})
    fractions = {lab: paper_cached_fraction(regime, lab) for lab in labels} if isinstance(
        regime["database_bytes"], dict) or isinstance(regime["memory_bytes"], dict) else {}
    paper_cached = paper_cached_fraction(regime)
    checks, why = [], []
    for need in regime["depends_on"]:
        ok, text = condition(need, regime, ours)
        checks.append(ok)
        why.append(text)
    reached = reached_of(checks) if runs else "n.a."
    return {
        "study": study, "figure": figure, "paper_figure": fig_spec["paper_figure"], "runs": runs,
        "paper_database_bytes": json.dumps(regime["database_bytes"]), "paper_memory_bytes": json.dumps(regime["memory_bytes"]),
        "paper_cached_fraction": _fmt(paper_cached) if not fractions else
        "; ".join(f"{k}: {_fmt(v)}" for k, v in fractions.items()),
        "ours_cached_fraction": _fmt(ours["regime_cached_fraction"]),
        "paper_device": regime["device"], "ours_read_bytes_per_op": _fmt(ours["regime_read_bytes_per_op"]),
        "ours_reads_per_op": _fmt(ours["regime_reads_per_op"]),
        "paper_settled": str(regime["settled"]).lower(),
        "ours_compactions_in_phase": _fmt(ours["regime_compactions_in_phase"]),
        "ours_learning_share": _fmt(ours["regime_learning_share"]),
        "paper_index_share": _fmt((regime.get("steps") or {}).get("index")),
        "ours_index_share": _fmt(ours["regime_index_share"]),
        "paper_levels": _fmt(regime.get("levels")), "ours_levels": _fmt(ours["regime_tree_levels"]),
        "ours_background_bytes_in_phase": _fmt(ours["regime_background_bytes_in_phase"]),
        "ours_data_hardness_ratio": _fmt(ours["regime_data_hardness_ratio"]),
        "data_segments": _segments_text(rows),
        "threads": regime["threads"], "depends_on": " ".join(regime["depends_on"]),
        "reached": reached,
        "why": ("; ".join(why) or "the claims depend on no regime") if runs else "no runs at this scale",
        "source": regime["source"],
    }


# Selector keys that pick a metric of a run, not the run: every other key of a
# claim's selector is a factor (workload, dataset, engine option) of its runs.
NOT_FACTORS = ("experiment", "metric", "op", "subset")


def _text(v):
    return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)


def _segments_text(rows):
    """Per dataset and epsilon, our PLA segments beside the real set's (the
    hardness rows' notes; one per dataset and epsilon, the runs share a file)."""
    seen = {}
    for r in rows:
        if r["metric"] == "regime_data_hardness_ratio":
            seen.setdefault((r["dataset"], r.get("subset", "")), (float(r["value"]), r.get("note", "")))
    return "; ".join(f"{d} {s}: {v:.2f}x ({note})" for (d, s), (v, note) in sorted(seen.items()))


def claim_runs(claim, rows):
    """The regime rows of the runs a claim measures: those whose factors match
    one of its measure's selectors (e.g. fig9's write_heavy runs for a
    write-heavy claim, not the figure's read-only ones). A factor a row does
    not carry does not exclude it; a claim with no selector keeps every row."""
    measure = claim.get("measure") or {}
    selectors = [measure[k] for k in ("where", "numerator", "denominator", "part", "whole")
                 if isinstance(measure.get(k), dict)]
    if not selectors:
        return rows

    def hit(row, sel):
        if "experiment" in sel and row["experiment"] != sel["experiment"]:
            return False
        for key, wanted in sel.items():
            if key in NOT_FACTORS or key not in row or row[key] is None or row[key] != row[key]:
                continue
            if _text(row[key]) not in {_text(w) for w in (wanted if isinstance(wanted, list) else [wanted])}:
                return False
        return True
    return [r for r in rows if any(hit(r, sel) for sel in selectors)]


def claim_regime(claim, figs, tidy_rows, path=None):
    """(names, reached, why) of one claim: the conditions it depends on (its
    own `regime:`, else its figure's `regime.depends_on`) decided by
    `condition` on the tidy rows of the runs it measures (claim_runs) in its
    figure and the figures it uses, with the claim's own gain for
    index_share_needed."""
    fig = figs.get(claim["figure"], {})
    if "engines" not in fig and "uses" not in fig:
        return claim.get("regime", []), "n.a.", "the figure has no runs"
    regime = figure_regime(claim["study"], claim["figure"], figs, path or "experiments.yaml")
    names = claim.get("regime", regime["depends_on"])
    experiments = {claim["figure"], *fig.get("uses", [])}
    rows = claim_runs(claim, [r for r in tidy_rows if r["experiment"] in experiments])
    if not rows:
        return names, "n.a.", "no runs at this scale"
    ours = ours_of(rows)
    checks, why = [], []
    for need in names:
        ok, text = condition(need, regime, ours, gain_of(claim))
        checks.append(ok)
        why.append(text)
    return names, reached_of(checks), "; ".join(why)


COLUMNS = ["study", "figure", "paper_figure", "runs", "paper_database_bytes", "paper_memory_bytes",
           "paper_cached_fraction", "ours_cached_fraction", "paper_device", "ours_read_bytes_per_op",
           "ours_reads_per_op", "paper_settled", "ours_compactions_in_phase", "ours_learning_share",
           "paper_index_share", "ours_index_share", "paper_levels", "ours_levels",
           "ours_background_bytes_in_phase", "ours_data_hardness_ratio", "data_segments",
           "threads", "depends_on", "reached", "why", "source"]


def table(study, tidy_rows, figs, path):
    """Regime rows of a study: one per figure with runs, in spec order."""
    out = []
    for figure, fig in figs.items():
        if "engines" not in fig:
            continue
        regime = figure_regime(study, figure, figs, path)
        rows = [r for r in tidy_rows if r["experiment"] == figure]
        out.append(figure_row(study, figure, fig, regime, rows))
    return out


def _read_tidy(path):
    import csv
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r["metric"] in METRICS + ("failed", "dataset_keys")]


def write(rows, out_csv, out_md):
    write_csv(out_csv, COLUMNS, rows)
    shown = ["figure", "paper_figure", "runs", "paper_cached_fraction", "ours_cached_fraction",
             "ours_read_bytes_per_op", "paper_settled", "ours_compactions_in_phase", "ours_learning_share",
             "paper_index_share", "ours_index_share", "paper_levels", "ours_levels",
             "ours_data_hardness_ratio", "data_segments", "reached", "why"]
    lines = ["| " + " | ".join(shown) + " |", "|" + "---|" * len(shown)]
    lines += ["| " + " | ".join(str(r[c]).replace("|", "/") for c in shown) + " |" for r in rows]
    write_text(out_md, "\n".join(lines) + "\n")


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", required=True)
    ap.add_argument("--tidy", required=True, help="results/<scale>/tidy/<study>.csv")
    ap.add_argument("--out-csv", required=True)
    ap.add_argument("--out-md", required=True)
    args = ap.parse_args(argv)
    path = studies.spec_path(args.study)
    rows = table(args.study, _read_tidy(args.tidy), studies.figures(args.study), path)
    write(rows, args.out_csv, args.out_md)
    print(f"regime: {len(rows)} figures -> {args.out_csv}", file=sys.stderr)


if __name__ == "__main__":
    main()

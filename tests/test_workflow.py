"""The workflow itself: lint-clean, and a dry run of every target resolves."""
from pathlib import Path
import re
import subprocess
import sys

import pytest

REPO = Path(__file__).resolve().parent.parent  # the repository root


def _snakemake(*args):
    return subprocess.run([sys.executable, "-m", "snakemake", *args], cwd=REPO,
                          capture_output=True, text=True)


def test_lint_is_clean():
    r = _snakemake("--lint")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Congratulations, your workflow is in a good condition!" in r.stdout + r.stderr


def _dry_run(tmp_path, targets, scale):
    """A dry run of targets at the scale. The paper scale requires real files;
    those with no public download (workloads/datasets.yaml: no md5) must be
    placed by hand in data_dir. A dry run needs them to exist, not to be
    real: empty files stand in."""
    import yaml
    catalogue = yaml.safe_load((REPO / "workloads" / "datasets.yaml").read_text())["datasets"]
    placed = tmp_path / "data"
    placed.mkdir(exist_ok=True)
    for d in catalogue.values():
        if d.get("kind") == "real" and not (d.get("real") or {}).get("md5"):
            (placed / d["real"]["file"]).touch()
    r = _snakemake("-n", *targets, "--config", f"scale={scale}", f"results_dir={tmp_path}", f"data_dir={placed}")
    assert r.returncode == 0, (targets, scale, r.stderr[-2000:])


def test_every_scale_and_target_resolves(tmp_path):
    """A dry run of everything at the smoke scale, and at the default scale of
    everything and each narrower target in one (a Snakemake start reads every
    study's runs: one per target would grow with the studies)."""
    from lsmrepro.plan import studies
    _dry_run(tmp_path, ["all"], "smoke")
    _dry_run(tmp_path, ["all", "engines", "hardware",
                        *sorted({studies.module_name(s) for s, _, _ in studies.all_figures()}
                                | {studies.module_name(f"{s}_{f}") for s, f, _ in studies.all_figures()})], "local")


@pytest.mark.long
def test_the_paper_scale_resolves(tmp_path):
    """Every job of the papers' sizes (a DAG of thousands of runs, a minute
    or more: a longer check, `pytest --long`). Every Snakemake start already
    expands and validates the paper scale's runs; this resolves their files."""
    _dry_run(tmp_path, ["all"], "paper")


def _dry_run_jobs(tmp_path, target, scale):
    """(rule, wildcards dict, priority) of every job a dry run plans."""
    r = _snakemake("-n", target, "--config", f"scale={scale}", f"results_dir={tmp_path}")
    assert r.returncode == 0, r.stderr[-2000:]
    jobs = []
    for block in re.split(r"\n(?=(?:local)?rule )", r.stdout):
        rule = re.match(r"(?:local)?rule (\w+):", block)
        if not rule:
            continue
        wc = re.search(r"^    wildcards: (.*)$", block, re.M)
        prio = re.search(r"^    priority: (-?\d+)$", block, re.M)
        wildcards = dict(kv.split("=", 1) for kv in wc.group(1).split(", ")) if wc else {}
        jobs.append((rule.group(1), wildcards, int(prio.group(1)) if prio else 0))
    return jobs


def test_benchmarks_run_figure_by_figure_then_repetition_by_repetition(tmp_path):
    """Snakemake starts the ready job of highest priority: every run of a
    figure before any of the next figure's, within a figure every point's
    repetition r before any point's r+1, and within a repetition the points
    of one dataset one after the other (paper/README.md, "Run order"); a
    load takes the priority of the first run that starts from it."""
    from lsmrepro.plan import studies
    rank = {(s, f): i for i, (s, f, _) in enumerate(studies.all_figures())}
    jobs = _dry_run_jobs(tmp_path, "slr", "smoke")
    runs = [(rank[(w["study"], w["figure"])], int(w["rep"]), p, re.search(r"dataset=([^+]+)", w["point"]).group(1))
            for r, w, p in jobs if r == "bench_run"]
    assert len({(f, rep) for f, rep, _, _ in runs}) >= 4, runs  # two figures and two repetitions at least
    assert len({p for _, _, p, _ in runs}) == len(runs)  # one place each: no order left to chance
    for f, rep, p, _ in runs:
        for g, rep2, q, _ in runs:
            if (f, rep) < (g, rep2):
                assert p > q, ((f, rep, p), (g, rep2, q))
    for key in {(f, rep) for f, rep, _, _ in runs}:
        datasets = [d for f, rep, _, d in sorted(runs, key=lambda r: -r[2]) if (f, rep) == key]
        blocks = [d for i, d in enumerate(datasets) if i == 0 or d != datasets[i - 1]]
        assert len(blocks) == len(set(blocks)), (key, datasets)  # each dataset's runs in one block
    assert any(len({d for f, rep, _, d in runs if (f, rep) == key}) > 1 for key in {(f, rep) for f, rep, _, _ in runs})
    run_priorities = {p for _, _, p, _ in runs}
    loads = [p for r, _, p in jobs if r == "bench_load"]
    assert loads and set(loads) <= run_priorities, (loads, sorted(run_priorities))


def test_every_figure_has_its_target_rule_and_function():
    from lsmrepro.plan import studies
    r = _snakemake("--list-target-rules")
    rules = set(r.stdout.split())
    for study, fig, _ in studies.all_figures():
        assert studies.module_name(f"{study}_{fig}") in rules and studies.module_name(study) in rules
        assert (studies.PAPER / study / f"{fig}.py").is_file()


def test_list_and_estimate_say_what_is_missing(tmp_path):
    r = subprocess.run([sys.executable, "-m", "lsmrepro.plan.targets", "list", "--scale", "smoke",
                        "--results", str(tmp_path)], cwd=REPO, capture_output=True, text=True)
    # column widths follow the longest target name of every study
    assert r.returncode == 0 and re.search(r"\| baseline/point +\| — +\| missing +\|", r.stdout), r.stdout + r.stderr
    assert re.search(r"\| bourbon/tab2 +\| Table 2 +\| missing +\|", r.stdout), r.stdout
    r = subprocess.run([sys.executable, "-m", "lsmrepro.plan.targets", "estimate", "--scale", "paper",
                        "--results", str(tmp_path)], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0 and "no measurement yet for some jobs of: baseline/point" in r.stdout, r.stdout


def test_list_says_done_then_stale_when_a_raw_log_is_newer(tmp_path):
    import os
    from lsmrepro.plan import studies
    from lsmrepro.plan import targets
    runs = studies.runs(studies.load_scale("smoke"), "baseline", "point")
    for r in runs.itertuples():
        stem = tmp_path / "smoke" / "raw" / "baseline" / "point" / r.point / f"r{r.rep}"
        stem.parent.mkdir(parents=True, exist_ok=True)
        stem.with_suffix(".jsonl").write_text("{}\n")
        stem.with_suffix(".limits.json").write_text('{"wall_seconds": 1.5}')
        os.utime(stem.with_suffix(".jsonl"), (1, 1))
    png = tmp_path / "smoke" / "figures" / "baseline" / "point.png"
    png.parent.mkdir(parents=True)
    png.write_bytes(b"png")
    state = targets.state(tmp_path, "smoke").set_index("target").loc["baseline/point"]
    assert state["state"] == "done" and state["last run time"] == f"{1.5 * len(runs):g} seconds"
    assert state["paper"] == "—"  # the paper's number (a control of our own here)
    listed = targets.state(tmp_path, "smoke").set_index("target")
    assert listed.loc["bourbon/tab2", "paper"] == "Table 2" and listed.loc["lsm-eval/fig7", "paper"] == "Figure 7"
    newest = next((tmp_path / "smoke" / "raw").rglob("r0.jsonl"))
    os.utime(newest, (png.stat().st_mtime + 10,) * 2)
    assert targets.state(tmp_path, "smoke").set_index("target").loc["baseline/point", "state"] == "stale"


def test_estimate_counts_a_shared_load_once_for_the_study(tmp_path):
    """doblix's fig1 reads fig9's WIKI read-only load: each figure alone pays
    for it, the study once. Every job measured at 10 s with no phase records,
    so every job is estimated at 10 s; an interleaved job (never measured:
    its runs apart less the start-ups it shares, 10 s here too) is one."""
    from lsmrepro.plan import studies
    from lsmrepro.plan import targets
    runs = studies.runs(studies.load_scale("smoke"), "doblix")
    groups = studies.interleave_groups(runs)
    jobs = (runs["group"] == "").sum() + len(groups)
    assert len(groups) > 0 and jobs < len(runs)
    bench = tmp_path / "smoke" / "benchmarks"
    paths = [bench / "loads" / f"{load}.tsv" for load in runs["load"].unique()]
    paths += [bench / r.study / r.figure / r.point / f"r{r.rep}.tsv" for r in runs.itertuples()]
    for p in paths:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("s\n10.0\n")
    figures, by_study = targets.estimate(tmp_path, "smoke")
    doblix = by_study.set_index("study").loc["doblix"]
    assert doblix["seconds"] == 10.0 * (jobs + runs["load"].nunique())
    assert doblix["loads"] == runs["load"].nunique() and doblix["unmeasured jobs"] == 0
    per_figure = figures[figures["target"].str.startswith("doblix/")]["seconds"].sum()
    shared = runs.groupby("figure")["load"].nunique().sum() - runs["load"].nunique()
    assert shared > 0 and per_figure == 10.0 * (jobs + runs["load"].nunique() + shared)


def test_a_figure_is_made_again_when_a_helper_it_imports_changes(tmp_path):
    """bourbon/fig16's outputs and inputs made long ago: every file of ours it
    reads is newer, so the dry run plans the figure again and names them,
    its study's helper (through fig14) and the catalogue among them."""
    import os
    from lsmrepro.plan import studies
    results = tmp_path / "results"
    made = [results / "smoke" / "hardware" / "fingerprint.json"]
    made += [results / "smoke" / "tidy" / "bourbon" / f"{e}.csv" for e in studies.figure_experiments("bourbon", "fig16")]
    made += [results / "smoke" / kind / "bourbon" / f"fig16.{ext}"
             for kind, exts in (("figures", ("pdf", "png")), ("tables", ("csv", "md"))) for ext in exts]
    for f in made:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("")
        os.utime(f, (1, 1))
    r = _snakemake("-n", str(results / "smoke" / "figures" / "bourbon" / "fig16.pdf"), "--allowed-rules",
                   "study_figure", "--config", "scale=smoke", f"results_dir={results}")
    out = r.stdout + r.stderr
    assert r.returncode == 0 and "rule study_figure" in out, out[-3000:]
    reason = out[out.index("reason:"):].splitlines()[0]
    for helper in ("paper/bourbon/common.py", "paper/bourbon/fig14.py", "paper/plotting.py",
                   "workloads/datasets.yaml"):
        assert helper in reason, (helper, reason)

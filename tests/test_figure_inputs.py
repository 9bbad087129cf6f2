"""A figure rule's inputs hold every file of ours its code runs or reads
(lsmrepro.plan.studies.figure_code): an edit to one remakes exactly the
figures that use it. Code loaded by file path, or a data file opened by
path, is invisible to the import graph, so figure code does neither."""
import ast
import os
from pathlib import Path

from lsmrepro.plan import studies
from tests import checkout_snakemake

REPO = studies.REPO
# paper/figure.py loads each figure's module by path on purpose: that path
# is the rule's `code` input (figure_code).
RUNNER = Path("paper/figure.py")


def figure_sources():
    return sorted(p.relative_to(REPO) for p in (REPO / "paper").rglob("*.py") if p.relative_to(REPO) != RUNNER)


def test_figure_code_loads_no_module_by_path():
    wrong = []
    for rel in figure_sources():
        for node in ast.walk(ast.parse((REPO / rel).read_text())):
            names = ([a.name for a in node.names] if isinstance(node, (ast.Import, ast.ImportFrom)) else [])
            mod = node.module if isinstance(node, ast.ImportFrom) else ""
            if any(n.startswith("importlib") for n in names) or (mod or "").startswith("importlib"):
                wrong.append(str(rel))
    assert not wrong, f"figure code importing by path (use an import statement): {wrong}"


def test_figure_code_builds_no_repository_path():
    """studies.REPO / ... in figure code opens a file no rule lists."""
    wrong = [str(rel) for rel in figure_sources() if "REPO" in (REPO / rel).read_text()]
    assert not wrong, wrong


def test_shared_panels_are_inputs_of_every_figure_drawing_them():
    for figure in ("fig7", "tr-fig10", "tr-fig11"):
        assert "paper/lsm_eval_skew.py" in studies.figure_code("lsm-eval", figure), figure


def test_data_a_figure_reads_through_a_module_is_its_input():
    code = studies.figure_code("slr", "tab3")
    assert "engines/registry.py" in code and "engines/sources.yaml" in code


def _made_long_ago(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("")
    os.utime(path, (1, 1))


def _jobs_planned_after_an_edit(tmp_path, studies_drawn):
    """{(study, figure): the files Snakemake names as newer} for every figure
    and table of these studies, their outputs and data made long ago: every
    file of ours a job reads counts as edited since, and the dry run says
    which, job by job. A file is in a job's list exactly when an edit to it
    alone would make that job again."""
    results, scale = tmp_path / "results", "smoke"
    _made_long_ago(results / scale / "hardware" / "fingerprint.json")
    targets = []
    for study in studies_drawn:
        for fig in studies.figures(study):
            for e in studies.figure_experiments(study, fig):
                _made_long_ago(results / scale / "tidy" / study / f"{e}.csv")
            for d in studies.figure_datasets(study, fig):
                _made_long_ago(results / scale / "datasets" / f"{d}_uint64")
            outs = [results / scale / "tables" / study / f"{fig}.{ext}" for ext in ("csv", "md")]
            if not studies.is_table(study, fig):
                outs += [results / scale / "figures" / study / f"{fig}.{ext}" for ext in ("pdf", "png")]
            for out in outs:
                _made_long_ago(out)
            targets.append(outs[0])
    r = checkout_snakemake.run("-n", *targets, "--allowed-rules", "study_figure", "study_table",
                               "--config", f"scale={scale}", f"results_dir={results}")
    assert r.returncode == 0, (r.stdout + r.stderr)[-3000:]
    planned = {}
    for block in r.stdout.split("\nrule ")[1:]:
        fields = dict(line.strip().split(": ", 1) for line in block.splitlines()[1:] if ": " in line)
        wildcards = dict(w.split("=", 1) for w in fields["wildcards"].split(", "))
        assert fields["reason"].startswith("Updated input files: "), fields["reason"]
        newer = set(fields["reason"].removeprefix("Updated input files: ").split(", "))
        planned[(wildcards["study"], wildcards["figure"])] = newer
    assert len(planned) == len(targets), sorted(planned)
    return planned


def test_an_edit_remakes_exactly_the_figures_that_read_the_file(tmp_path):
    planned = _jobs_planned_after_an_edit(tmp_path, ("lsm-eval", "slr"))

    def remade_by(path):
        return {f"{study}/{figure}" for (study, figure), newer in planned.items() if path in newer}

    # Figure 7's panels, drawn again by the technical report's Figures 10 and 11.
    assert remade_by("paper/lsm_eval_skew.py") == {"lsm-eval/fig7", "lsm-eval/tr-fig10", "lsm-eval/tr-fig11"}
    assert remade_by("paper/lsm-eval/fig7.py") == {"lsm-eval/fig7"}
    # The LevelDB pin that Table 3 names, read through engines.registry.
    assert remade_by("engines/sources.yaml") == {"slr/tab3"}
    assert remade_by("paper/slr/tab3.py") == {"slr/tab3"}

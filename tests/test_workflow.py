"""The workflow itself: lint-clean, and a dry run of every target resolves."""
from pathlib import Path
import subprocess
import sys

REPO = Path(__file__).resolve().parent.parent  # the repository root


def _snakemake(*args):
    return subprocess.run([sys.executable, "-m", "snakemake", *args], cwd=REPO,
                          capture_output=True, text=True)


def test_lint_is_clean():
    r = _snakemake("--lint")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Congratulations, your workflow is in a good condition!" in r.stdout + r.stderr


def test_every_scale_and_target_resolves(tmp_path):
    """A dry run per scale of everything, and of each narrower target."""
    runs = [("all", s) for s in ("smoke", "local", "paper")]
    runs += [(t, "local") for t in ("baseline", "baseline_point", "engines", "hardware")]
    from lsmrepro import studies
    runs += [(studies.module_name(f"{s}_{f}"), "smoke") for s, f, _ in studies.all_figures()]
    for target, scale in runs:
        r = _snakemake("-n", target, "--config", f"scale={scale}", f"results_dir={tmp_path}")
        assert r.returncode == 0, (target, scale, r.stderr[-2000:])


def test_every_figure_has_its_target_rule_and_function():
    from lsmrepro import studies
    r = _snakemake("--list-target-rules")
    rules = set(r.stdout.split())
    for study, fig, _ in studies.all_figures():
        assert studies.module_name(f"{study}_{fig}") in rules and studies.module_name(study) in rules
        assert (studies.PAPER / study / f"{fig}.py").is_file()


def test_list_and_estimate_say_what_is_missing(tmp_path):
    r = subprocess.run([sys.executable, "-m", "lsmrepro.targets", "list", "--scale", "smoke",
                        "--results", str(tmp_path)], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0 and "| baseline/point | missing |" in r.stdout, r.stdout + r.stderr
    r = subprocess.run([sys.executable, "-m", "lsmrepro.targets", "estimate", "--scale", "paper",
                        "--results", str(tmp_path)], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0 and "no measurement yet for some jobs of: baseline/point" in r.stdout, r.stdout

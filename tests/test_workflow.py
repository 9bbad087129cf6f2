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
    for target, scale in runs:
        r = _snakemake("-n", target, "--config", f"scale={scale}", f"results_dir={tmp_path}")
        assert r.returncode == 0, (target, scale, r.stderr[-2000:])

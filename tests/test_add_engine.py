"""Follows engines/README.md's "Adding an engine variant" with a throwaway
variant in a copy of the repository: an entry in engines.yaml (step 1) and
its id in a study's `engines:` (step 7) are all a variant over an existing
adapter needs to reach a figure. Snakemake's dry run then plans its build,
its loads, its runs and the figure that reads them."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
VARIANT = "leveldb-throwaway"


def tracked_copy(dest):
    files = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True,
                           text=True).stdout.split("\0")
    for f in filter(None, files):
        src = REPO / f
        if src.is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / f)


def planned(repo, target):
    """{"rule", "input", "output"} of every job a forced dry run of `target` plans."""
    r = subprocess.run([str(Path(sys.executable).parent / "snakemake"), "-n", "--forceall", "--config",
                        "scale=smoke", "--directory", str(repo), "-s", str(repo / "Snakefile"), "--", target],
                       capture_output=True, text=True, cwd=repo)
    assert r.returncode == 0, r.stderr[-3000:]
    jobs = []
    for line in r.stdout.splitlines():
        m = re.match(r"^(?:local)?rule (\w+):", line)
        if m:
            jobs.append({"rule": m.group(1), "input": "", "output": ""})
        m = re.match(r"^\s+(input|output): (.*)$", line)
        if m and jobs:
            jobs[-1][m.group(1)] = m.group(2)
    return jobs


@pytest.mark.e2e
def test_a_new_variant_reaches_its_build_loads_runs_and_figure(tmp_path):
    repo = tmp_path / "repo"
    tracked_copy(repo)
    engines = yaml.safe_load((repo / "engines/engines.yaml").read_text())
    engines[VARIANT] = dict(engines["leveldb"])
    (repo / "engines/engines.yaml").write_text(yaml.safe_dump(engines, sort_keys=False))
    spec_path = repo / "paper/baseline/experiments.yaml"
    spec = yaml.safe_load(spec_path.read_text())
    spec["figures"]["point"]["engines"].append(VARIANT)
    spec_path.write_text(yaml.safe_dump(spec, sort_keys=False))

    jobs = planned(repo, "baseline_point")
    made = lambda rule: [j for j in jobs if j["rule"] == rule]  # noqa: E731
    assert any(f"build/engines/{VARIANT}/bin/lsmbench" in j["output"] for j in made("build_engine"))
    assert any(f"engine={VARIANT}+" in j["output"] for j in made("bench_load"))
    runs = [j for j in jobs if f"raw/baseline/point/engine={VARIANT}+" in j["output"]]
    assert runs, "no run of the new variant planned"
    # the figure's table reads the variant's logs
    tidy = [j for j in jobs if j["output"].endswith("tidy/baseline/point.csv")]
    assert tidy and f"engine={VARIANT}+" in tidy[0]["input"], tidy
    assert any("figures/baseline/point.png" in j["output"] for j in jobs), "the figure is not planned"

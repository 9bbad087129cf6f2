"""Snakemake's Slurm executor: every benchmark rule asks for a whole node,
the one its scale was fingerprinted on; and the integration test
(tests/slurm/run.sh, a real single-node cluster, minutes) when a file it
covers changed.

The integration test runs here when `git diff --name-only HEAD~1` (the last
commit, or a merge's first parent, plus uncommitted and untracked files)
touches one of COVERED; LSMREPRO_SLURM_TEST=1 forces it, =0 skips it.
Otherwise, or without root, it is skipped and the reason
is printed in the summary. tests/slurm/run.sh installs slurm-wlm and munge
when they are missing."""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent  # the repository root


# What the Slurm run depends on beyond the workflow's own tests: the profile,
# the node keying, and how benchmark jobs and their wildcards are made (the
# executor passes a job's wildcards as name=value,name=value).
COVERED = ("profiles/slurm/", "tests/slurm/", "tests/test_slurm.py", "hardware/common.smk",
           "hardware/fingerprint.py", "requirements.lock", "paper/paper.smk", "workflow/rules/",
           "lsmrepro/plan/studies.py", "lsmrepro/run/bench.py")


def rule_blocks():
    """(file, rule name, text of the rule) of every rule of the workflow."""
    for smk in sorted(REPO.glob("**/*.smk")):
        if ".snakemake" in smk.parts or ".venv" in smk.parts:
            continue
        parts = re.split(r"^rule (\w+):", smk.read_text(), flags=re.M)
        for name, body in zip(parts[1::2], parts[2::2]):
            yield smk.relative_to(REPO), name, body


def test_benchmark_rules_get_their_fingerprinted_node_to_themselves():
    bench = [(f, n, b) for f, n, b in rule_blocks() if re.search(r"\bbench_lock\s*=", b)]
    assert bench, "no rule takes bench_lock"
    for f, name, body in bench:
        assert "slurm_extra=hardware_slurm_extra" in body, (
            f"{f}: rule {name} takes bench_lock but not `slurm_extra=hardware_slurm_extra` "
            "(hardware/common.smk): on Slurm it would share a node, or run on one that "
            "was not fingerprinted")
        assert re.search(r"^\s+fingerprint=", body, re.M), (
            f"{f}: rule {name} needs the input `fingerprint=` (hardware_slurm_extra reads it)")


def changed_files():
    """Files changed since the previous commit, or None when a fresh clone
    cannot tell (a shallow clone without HEAD~1)."""
    def git(*args):
        r = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True)
        return r.stdout.split("\n") if r.returncode == 0 else None
    if git("rev-parse", "--verify", "-q", "HEAD~1") is None:
        return None
    return {f for f in (git("diff", "--name-only", "HEAD~1") or []) +
            (git("ls-files", "--others", "--exclude-standard") or []) if f}


def skip_reason():
    force = os.environ.get("LSMREPRO_SLURM_TEST")
    if force == "0":
        return "LSMREPRO_SLURM_TEST=0"
    if os.geteuid() != 0:
        return "needs root to start a Slurm cluster"
    if not shutil.which("dpkg-query"):
        return "needs Debian's slurm-wlm and munge (no dpkg here)"
    if Path("/etc/slurm/slurm.conf").exists():
        return "this machine has its own Slurm configuration"
    if force == "1":
        return None
    changed = changed_files()
    if changed is None:
        return "cannot tell what changed (no HEAD~1); LSMREPRO_SLURM_TEST=1 runs it"
    if not any(f.startswith(COVERED) for f in changed):
        return "no file it covers changed since HEAD~1; tests/slurm/run.sh runs it"
    return None


@pytest.mark.e2e
def test_slurm_integration():
    reason = skip_reason()
    if reason:
        pytest.skip(f"Slurm integration test: {reason}")
    r = subprocess.run([str(REPO / "tests/slurm/run.sh")], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-6000:]

"""The top README stays an entry point (issue 51 step 4): at most 150 lines,
and every relative link of every tracked Markdown file names a file that exists."""
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _tracked_markdown():
    out = subprocess.run(["git", "ls-files", "*.md"], cwd=REPO, capture_output=True, text=True, check=True)
    return [REPO / p for p in out.stdout.split() if not p.startswith("results/")]


def test_top_readme_is_at_most_150_lines():
    lines = (REPO / "README.md").read_text().splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines; move detail to docs/ and link it"


def test_every_relative_link_resolves():
    broken = []
    for md in _tracked_markdown():
        for target in LINK.findall(md.read_text()):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (md.parent / target).exists():
                broken.append(f"{md.relative_to(REPO)}: {target}")
    assert not broken, "links to missing files:\n" + "\n".join(broken)

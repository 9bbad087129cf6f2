"""A figure rule's inputs hold every file of ours its code runs or reads
(lsmrepro.plan.studies.figure_code): an edit to one remakes exactly the
figures that use it. Code loaded by file path, or a data file opened by
path, is invisible to the import graph, so figure code does neither."""
import ast
from pathlib import Path

from lsmrepro.plan import studies

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

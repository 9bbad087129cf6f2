"""The import graph, drawn from the source (ast): folders import one way
(docs/design.md) and no module reaches itself through imports.
Imports inside functions count: a lazy import is still a dependency."""
from pathlib import Path

import pytest

from base import pyimports

REPO = Path(__file__).resolve().parent.parent

# A folder may import its own modules and those of lower layers only.
LAYERS = {"base": 0, "indexes": 1, "workloads": 1, "hardware": 1, "engines": 2, "lsmrepro": 3, "paper": 4}

# lsmrepro's stages in pipeline order (lsmrepro/__init__.py): a stage may
# import its own modules and those of earlier stages only.
STAGES = ("plan", "run", "tidy", "claims", "publish")

# Files that are tools run by hand above the study layer, like the Snakefile:
# nothing imports them. Each with why it sits in a lower folder.
TOOLS = set()


def sources():
    """Every Python file of the repository that is not a test."""
    for path in sorted(REPO.rglob("*.py")):
        rel = path.relative_to(REPO)
        if rel.parts[0] in LAYERS and "tests" not in rel.parts:
            yield rel


def module_of(rel):
    parts = list(rel.with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def graph():
    return {module_of(rel): (rel, pyimports.imported(REPO / rel, REPO, LAYERS)) for rel in sources()}


def test_folders_import_downwards():
    wrong = []
    for module, (rel, deps) in graph().items():
        if str(rel) in TOOLS:
            continue
        here = module.split(".")[0]
        for dep in deps:
            there = dep.split(".")[0]
            if there != here and LAYERS[there] >= LAYERS[here]:
                wrong.append(f"{rel} imports {dep} ({there} is not below {here})")
    assert not wrong, "\n".join(wrong)


def stage_of(module):
    parts = module.split(".")
    return parts[1] if parts[0] == "lsmrepro" and len(parts) > 1 else None


def test_lsmrepro_is_its_stages():
    """Every module of lsmrepro sits in a stage package, none beside them."""
    loose = [m for m, _ in graph().items() if m.startswith("lsmrepro.") and stage_of(m) not in STAGES]
    assert not loose, loose


def test_stages_import_earlier_stages():
    wrong = []
    for module, (rel, deps) in graph().items():
        here = stage_of(module)
        if here is None:
            continue
        for dep in deps:
            there = stage_of(dep)
            if dep.split(".")[0] == "lsmrepro" and (there is None or STAGES.index(there) > STAGES.index(here)):
                wrong.append(f"{rel} imports {dep} ({there or 'no stage'} is not before {here})")
    assert not wrong, "\n".join(wrong)


def test_no_private_name_crosses_a_module():
    """A module uses another's public surface: no `from x import _name`
    and no `module._name` of a module of ours."""
    import ast
    wrong = []
    for module, (rel, _) in graph().items():
        tree = ast.parse((REPO / rel).read_text())
        ours = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 0
                and n.module and n.module.split(".")[0] in LAYERS for a in n.names}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in LAYERS:
                wrong += [f"{rel}: from {node.module} import {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
            elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ours
                  and node.attr.startswith("_") and not node.attr.startswith("__")):
                wrong.append(f"{rel}: {node.value.id}.{node.attr}")
    assert not wrong, "\n".join(wrong)


def test_tools_are_not_imported():
    tools = {module_of(Path(t)) for t in TOOLS}
    users = [f"{rel} imports {d}" for rel, deps in graph().values() for d in deps if d in tools]
    assert not users, "\n".join(users)


def cycles(edges):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in edges.get(v, ()):
                out.append(sorted(comp))

    for v in list(edges):
        if v not in index:
            visit(v)
    return out


def test_no_file_circles():
    g = graph()
    edges = {m: {d for d in deps if d in g and d != m} for m, (_, deps) in g.items()}
    assert cycles(edges) == []


@pytest.mark.parametrize("edges, expected", [
    ({"a": {"b"}, "b": {"a"}, "c": {"a"}}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
])
def test_cycle_finder_finds_circles(edges, expected):
    assert cycles(edges) == expected


def test_graph_sees_lazy_and_from_imports():
    deps = graph()["lsmrepro.plan.config"][1]
    assert "lsmrepro.plan.studies" in deps and "base.yamlio" in deps

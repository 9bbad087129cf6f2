"""The import graph, drawn from the source (ast): folders import one way
(README.md, "DESIGN: layers") and no module reaches itself through imports.
Imports inside functions count: a lazy import is still a dependency."""
from pathlib import Path

import pytest

from base import pyimports

REPO = Path(__file__).resolve().parent.parent

# A folder may import its own modules and those of lower layers only.
LAYERS = {"base": 0, "indexes": 1, "workloads": 1, "hardware": 1, "engines": 2, "lsmrepro": 3, "paper": 4}

# Files that are tools run by hand above the study layer, like the Snakefile:
# nothing imports them. Each with why it sits in a lower folder.
TOOLS = {
    # DobLIX's A/B benchmark expands the doblix study's runs (lsmrepro.studies)
    # and judges them (lsmrepro.claims); it lives beside the plugin it tunes.
    "engines/rocksdb-doblix/bench.py",
}


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
    deps = graph()["lsmrepro.config"][1]
    assert "lsmrepro.studies" in deps and "base.yamlio" in deps

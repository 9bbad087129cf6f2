"""The imports of Python files, read from their source (ast), within one
repository: which of its modules a file imports (imports inside functions
too), and the files a file reaches through them. tests/test_imports.py draws
the layer graph with it; a figure's rule lists the files its code reaches."""
import ast
from pathlib import Path


def module_file(name, repo):
    """The file of module `name` in `repo` (a package: its __init__.py), or None."""
    path = Path(repo).joinpath(*name.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imported(path, repo, roots):
    """The modules of `repo` under the top-level names `roots` that file
    `path` imports: `from a import b` is module a.b when that is a file,
    else a."""
    tree = ast.parse(Path(path).read_text(), str(path))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [f"{node.module}.{a.name}" if module_file(f"{node.module}.{a.name}", repo) else node.module
                     for a in node.names]
        else:
            continue
        out |= {n for n in names if n.split(".")[0] in roots}
    return out


def reached(path, repo, roots):
    """`path` and every file of `repo` it reaches through imports, sorted."""
    seen, todo = set(), [Path(path)]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo += [f for f in (module_file(m, repo) for m in imported(p, repo, roots)) if f]
    return sorted(seen)

"""The fields a variant adds to lsmbench's `engine` record, declared beside
its code: engines/<folder>/log.yaml (schema engines/log_fields.schema.yaml)
gives each field's JSON Schema and the tidy rows it becomes. This module
reads every fragment, checks that no field is declared twice (by two
folders, or by a folder and the driver's own record), and gives

- `log_schema()`: engines/driver/log_schema.yaml with the fragments' fields
  merged into its `engine` record (what lsmrepro/tidy/runlog.py validates with);
- `fields()`: field name -> its row mappings, each a dict with `numbers`,
  `metric`, `units` or with `python`/`field` resolved to the functions of
  the folder's Python file (what lsmrepro/tidy/engine_rows.py flattens with).
"""
import copy
import importlib.util
from functools import lru_cache
from pathlib import Path

from base.errors import InputError
from base.yamlio import load_yaml, validate

HERE = Path(__file__).resolve().parent
LOG_SCHEMA = HERE / "driver" / "log_schema.yaml"
FRAGMENT_SCHEMA = HERE / "log_fields.schema.yaml"


def fragment_paths(root=HERE):
    return sorted(Path(root).glob("*/log.yaml"))


@lru_cache(maxsize=None)
def _fragments(root=HERE):
    """field -> (fragment path, its entry), every fragment validated."""
    out = {}
    for path in fragment_paths(root):
        data = load_yaml(path)
        validate(data, FRAGMENT_SCHEMA, path)
        for name, entry in data.items():
            if name in out:
                raise InputError(path, name, f"a field no other folder declares expected; "
                                             f"{out[name][0].relative_to(root.parent)} declares it too")
            out[name] = (path, entry)
    return out


@lru_cache(maxsize=None)
def log_schema(root=HERE):
    """The run log's JSON Schema with every fragment's fields in the engine record."""
    schema = copy.deepcopy(load_yaml(root / "driver" / "log_schema.yaml"))
    props = schema["$defs"]["engine"]["properties"]
    for name, (path, entry) in _fragments(root).items():
        if name in props:
            raise InputError(path, name, "a field the driver's engine record (engines/driver/log_schema.yaml) "
                                         "does not declare expected")
        props[name] = entry["schema"]
    return schema


def _function(folder, ref, path, field):
    """`rows.py:name` -> the function `name` of folder/rows.py."""
    file, _, name = ref.partition(":")
    source = folder / file
    if not source.is_file():
        raise InputError(path, field, f"an existing Python file beside it expected, got {file!r}")
    spec = importlib.util.spec_from_file_location(f"engine_rows_{folder.name.replace('-', '_')}_{source.stem}",
                                                  source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not callable(getattr(module, name, None)):
        raise InputError(path, field, f"a function {name} in {file} expected")
    return getattr(module, name)


@lru_cache(maxsize=None)
def fields(root=HERE):
    """field -> [row mapping, ...] of every declared field (empty: no rows)."""
    out = {}
    for name, (path, entry) in _fragments(root).items():
        mappings = []
        for i, m in enumerate(entry.get("rows", [])):
            m = dict(m)
            for key in ("python", "field"):
                if key in m:
                    m[key] = _function(path.parent, m[key], path, f"{name}.rows.{i}.{key}")
            mappings.append(m)
        out[name] = mappings
    return out

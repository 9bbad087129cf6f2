"""YAML files as data: load one (a missing file or bad YAML is one
InputError) and validate it against a JSON Schema written in YAML (the first
violation, deepest path first, becomes one InputError naming the file, the
dotted field and what was expected)."""
from functools import lru_cache
from pathlib import Path

import jsonschema
import yaml
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from base.errors import InputError

# libyaml's parser (PyYAML's C binding) when built with it: the specs are
# read by every figure job, and the pure-Python parser took seconds of each.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(path):
    try:
        with open(path) as f:
            return yaml.load(f, Loader=_SAFE_LOADER)  # noqa: S506 (a safe loader)
    except FileNotFoundError:
        raise InputError(path, "", "file not found") from None
    except yaml.YAMLError as e:
        raise InputError(path, "", f"valid YAML expected ({e})") from None


def _field(error):
    return ".".join(str(p) for p in error.absolute_path) or "(top level)"


def _expected(error):
    v = error.validator
    # One of several forms: what the form of the value's own type lacks
    # (an index family's unknown field, not "not a list").
    fitting = [e for e in error.context or () if e.validator != "type"]
    if v in ("anyOf", "oneOf") and fitting:
        e = max(fitting, key=lambda e: len(e.relative_path))
        where = ".".join(str(p) for p in e.relative_path)
        return f"{where + ': ' if where else ''}{_expected(e)}"
    if v == "enum":
        return f"expected one of {', '.join(map(str, error.validator_value))}, got {error.instance!r}"
    if v == "type":
        return f"expected {error.validator_value}, got {type(error.instance).__name__} {error.instance!r}"
    if v == "additionalProperties":
        return f"unknown field ({error.message})"
    if v == "required":
        return error.message
    return f"{error.message}"


def _schema_files(folder):
    """Resolves a `$ref` to another schema file, named relative to the
    folder of the schema that refers to it (a definition two schemas share,
    e.g. paper/index_family.schema.yaml, written once)."""
    return Registry(retrieve=lambda uri: _schema_resource(str(Path(folder) / uri)))


@lru_cache(maxsize=None)
def _schema_resource(path):
    """A referred schema file, read once per process: the registry asks for
    it at every `$ref` it meets (hundreds of times in one scale's check)."""
    return Resource.from_contents(load_yaml(path), default_specification=DRAFT202012)


def validate(data, schema_path, origin):
    """Raises InputError for the first (deepest-path-first) violation."""
    schema = load_yaml(schema_path)
    validator = jsonschema.Draft202012Validator(schema, registry=_schema_files(Path(schema_path).parent))
    errors = sorted(validator.iter_errors(data), key=lambda e: (-len(e.absolute_path), str(e.absolute_path)))
    if errors:
        e = errors[0]
        raise InputError(origin, _field(e), _expected(e))

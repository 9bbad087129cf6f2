"""Loads and validates the configuration: the top level against
config/schema.yaml, then the chosen scale file against
config/scale.schema.yaml (then against the study specs it names). Every
violation becomes one InputError naming the file, the dotted field and what
was expected."""
from pathlib import Path

import jsonschema
import yaml

from lsmrepro.errors import InputError

CONFIG_DIR = Path(__file__).resolve().parent.parent / "config"


# libyaml's parser (PyYAML's C binding) when built with it: the specs are
# read by every figure job, and the pure-Python parser took seconds of each.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _load_yaml(path):
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
    if v == "enum":
        return f"expected one of {', '.join(map(str, error.validator_value))}, got {error.instance!r}"
    if v == "type":
        return f"expected {error.validator_value}, got {type(error.instance).__name__} {error.instance!r}"
    if v == "additionalProperties":
        return f"unknown field ({error.message})"
    if v == "required":
        return error.message
    return f"{error.message}"


def validate(data, schema_path, origin):
    """Raises InputError for the first (deepest-path-first) violation."""
    schema = _load_yaml(schema_path)
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(data), key=lambda e: (-len(e.absolute_path), str(e.absolute_path)))
    if errors:
        e = errors[0]
        raise InputError(origin, _field(e), _expected(e))


def load_scale(name, config_dir=CONFIG_DIR):
    path = Path(config_dir) / "scales" / f"{name}.yaml"
    data = _load_yaml(path)
    validate(data, Path(config_dir) / "scale.schema.yaml", path)
    from lsmrepro import studies  # it reads this module's YAML helpers
    studies.check_scale(data, path)
    return data


def check(config, config_dir=CONFIG_DIR):
    """Validates a merged Snakemake config dict and returns its scale dict."""
    validate(config, Path(config_dir) / "schema.yaml", Path(config_dir) / "config.yaml (with --config overrides)")
    return load_scale(config["scale"], config_dir)

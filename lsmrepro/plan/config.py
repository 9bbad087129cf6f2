"""Checks Snakemake's merged configuration: the top level against
config/schema.yaml, then the chosen scale (lsmrepro.plan.studies.load_scale:
config/scale.schema.yaml, then the study specs it names). Every violation
becomes one InputError naming the file, the dotted field and what was
expected."""
from pathlib import Path

from base.yamlio import validate
from lsmrepro.plan import studies


def check(config, config_dir=studies.CONFIG_DIR):
    """Validates a merged Snakemake config dict and returns its scale dict."""
    validate(config, Path(config_dir) / "schema.yaml", Path(config_dir) / "config.yaml (with --config overrides)")
    return studies.load_scale(config["scale"], config_dir)

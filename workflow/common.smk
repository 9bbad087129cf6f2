# Helpers every rule file uses: validated configuration, paths, the Python
# of the pipeline's own tools.
import sys

sys.path.insert(0, workflow.basedir)

from lsmrepro import config as lsm_config
from lsmrepro.errors import InputError

try:
    lsm_config.check(config)
    SCALES = {name: lsm_config.load_scale(name) for name in ("smoke", "local", "paper")}
except InputError as e:
    # One line naming the file, the field and what was expected.
    sys.stderr.write(f"error: {e}\n")
    sys.exit(2)

BUILD = config["build_dir"]
RESULTS = config["results_dir"]
PY = f"{sys.executable} -m"


wildcard_constraints:
    scale="smoke|local|paper",
    engine="[a-z0-9-]+",
    rep=r"\d+",


def scale_cfg(wildcards):
    """The scale file of the job's {scale} wildcard (the path decides the
    scale, so `smoke` and `local` results live side by side)."""
    return SCALES[wildcards.scale]


def engine_binary(engine):
    return f"{BUILD}/engines/{engine}/bin/lsmbench"


def engine_build_id(engine):
    return f"{BUILD}/engines/{engine}/build_id.json"


def dataset_file(scale, name):
    return f"{RESULTS}/{scale}/datasets/{name}_uint64"


def report_for(scale):
    return f"{RESULTS}/{scale}/report/index.html"

# Helpers shared by every .smk file: validated configuration, paths, the
# Python of the pipeline's own tools. Functions only; each folder keeps its
# own steps beside the code they run.
import sys
from pathlib import Path

import yaml

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
# The environment's own interpreter by one name (python or python3 started
# Snakemake: the same), so a job's params do not change with how it was run.
PY = f"{Path(sys.prefix) / 'bin' / 'python'} -m"
# The software of every rule (see the file for when it is used).
CONDA_ENV = f"{workflow.basedir}/workflow/envs/pipeline.yaml"

with open(f"{workflow.basedir}/engines/sources.yaml") as _f:
    SOURCES = yaml.safe_load(_f)
with open(f"{workflow.basedir}/engines/engines.yaml") as _f:
    ENGINES = yaml.safe_load(_f)


def engine_binary(engine):
    return f"{BUILD}/engines/{engine}/bin/lsmbench"


def engine_build_id(engine):
    return f"{BUILD}/engines/{engine}/build_id.json"


def source_tarball(name):
    return f"{BUILD}/sources/{SOURCES[name]['file']}"


def engine_inputs(wildcards):
    """What an engine build depends on: its verified tarball, our variant
    folder, the driver and the headers it compiles in."""
    variant = ENGINES[wildcards.engine]
    files = [source_tarball(variant["source"]), "engines/engines.yaml", "engines/build_engine.py"]
    files += sorted(str(p) for p in Path("engines/driver").rglob("*")
                    if p.is_file() and "tests" not in p.parts)
    files += sorted(str(p) for p in Path(f"engines/{wildcards.engine}").rglob("*") if p.is_file())
    files += ["workloads/sosd/sosd_format.h"] + sorted(
        str(p) for p in Path("workloads/ycsb").glob("*") if p.suffix in (".h", ".cc"))
    return files


def dataset_file(scale, name):
    return f"{RESULTS}/{scale}/datasets/{name}_uint64"


wildcard_constraints:
    scale="smoke|local|paper",
    rep=r"\d+",


def report_for(scale):
    return f"{RESULTS}/{scale}/report/index.html"

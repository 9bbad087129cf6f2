# Helpers shared by every .smk file: validated configuration, paths, the
# Python of the pipeline's own tools. Functions only; each folder keeps its
# own steps beside the code they run.
import sys

sys.path.insert(0, workflow.basedir)

from engines import registry
from lsmrepro.plan import config as lsm_config
from lsmrepro.plan import studies as lsm_studies
from base.errors import InputError

try:
    lsm_config.check(config)
    SCALES = {name: lsm_studies.load_scale(name) for name in ("smoke", "local", "paper")}
    SOURCES = registry.load_sources()
    ENGINES = registry.load_variants()  # engine id -> variant: every engine id comes from here
except InputError as e:
    # One line naming the file, the field and what was expected.
    sys.stderr.write(f"error: {e}\n")
    sys.exit(2)

BUILD = config["build_dir"]
RESULTS = config["results_dir"]
# Jobs run `python -m module`, which is this environment's interpreter, first
# on PATH, unless a software deployment method (conda, apptainer) brings its
# own. Not in params: params are a rerun trigger, and this path moves with
# the checkout (a moved clone, a worktree), which would rebuild every engine
# and rerun every job. A cluster job re-reads this file in its environment.
if not workflow.deployment_settings.deployment_method:
    shell.prefix(f'set -euo pipefail; export PATH="{Path(sys.prefix) / "bin"}:$PATH"; ')  # keeps bash's default strict mode
# The software of every rule (see the file for when it is used).
CONDA_ENV = f"{workflow.basedir}/workflow/envs/pipeline.yaml"


# Engine builds before any benchmark job: both take every core, and a build
# ready while benchmarks are (Snakemake starts the ready job of highest
# priority, workflow/rules/plan.smk "Run order") would wait for all of them.
BUILD_PRIORITY = 10 ** 9


def engine_binary(engine):
    return f"{BUILD}/engines/{engine}/bin/lsmbench"


def engine_build_id(engine):
    return f"{BUILD}/engines/{engine}/build_id.json"


def source_tarball(name):
    return f"{BUILD}/sources/{SOURCES[name]['file']}"


def engine_inputs(wildcards):
    """What an engine build depends on: its verified tarball and every file
    hashed into its build id (engines/registry.py, one list for both)."""
    variant = ENGINES[wildcards.engine]
    files = [source_tarball(variant["source"])] + [
        str(p.relative_to(registry.REPO)) for p in registry.build_inputs(wildcards.engine, ENGINES)]
    if "library_from" in variant:  # links that variant's library build
        files.append(engine_build_id(variant["library_from"]))
    return files


def dataset_file(scale, name):
    return f"{RESULTS}/{scale}/datasets/{name}_uint64"


wildcard_constraints:
    scale="smoke|local|paper",
    rep=r"\d+",


def report_for(scale):
    return f"{RESULTS}/{scale}/report/index.html"

# One command from pinned upstream sources to checked figures.
#   ./reproduce                      everything at the configured scale (local)
#   ./reproduce smoke                everything at the smoke scale
#   ./reproduce baseline/point       one figure (rule baseline_point); `./reproduce --list` lists them with their state
# Rules live beside the code they run: each folder's *.smk is included here,
# the pipeline's stages from workflow/rules/;
# every figure's rules come from its data, paper/<study>/experiments.yaml (paper/README.md).
import os

from snakemake.utils import min_version

from base.jobguard import OWNER_ENV

min_version("9.0")

# Benchmark jobs stop when this process is gone (a Snakemake killed with
# SIGKILL leaves its jobs running): base/jobguard.py.
os.environ[OWNER_ENV] = str(os.getpid())


configfile: "config/config.yaml"


# With --software-deployment-method apptainer every job runs in the
# pipeline's image (containers/README.md); without it this is ignored.
container: os.environ.get("LSMREPRO_IMAGE", "containers/lsmrepro.sif")


include: "workflow/common.smk"
include: "engines/engines.smk"
include: "workloads/workloads.smk"
include: "indexes/indexes.smk"
include: "hardware/hardware.smk"
# The pipeline's stages (lsmrepro/<stage>/), then the figures and targets.
include: "workflow/rules/plan.smk"
include: "workflow/rules/run.smk"
include: "workflow/rules/tidy.smk"
include: "workflow/rules/claims.smk"
include: "workflow/rules/publish.smk"
include: "paper/paper.smk"


rule all:
    default_target: True
    input:
        report_for(config["scale"]),
        study_raw(config["scale"]),


rule smoke:
    input:
        report_for("smoke"),
        study_raw("smoke"),

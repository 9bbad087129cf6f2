# Functions of hardware/hardware.smk (kept apart: one file per kind).
import glob
import json

HARDWARE_FIO_JOBS = sorted(glob.glob("hardware/fio/*.fio"))
HARDWARE_CODE = ["hardware/__init__.py", "hardware/limits.py", "hardware/cgroups.py",
                 "hardware/fingerprint.py"]


def hardware_cfg(scale):
    return SCALES[scale]["hardware"]


def hardware_memory_limit(wildcards):
    """The scale's default memory limit (LIMIT syntax of hardware.cgroup_run)."""
    return hardware_cfg(wildcards.scale)["memory_limit"]


def hardware_unenforced_flag(wildcards):
    return "--allow-unenforced" if hardware_cfg(wildcards.scale)["allow_unenforced"] else ""


def hardware_db_dir(scale):
    """Where the databases of a scale live: the filesystem fio calibrates."""
    return f"{RESULTS}/{scale}/db"


def hardware_products(scale):
    """Everything the report shows from this stage."""
    base = f"{RESULTS}/{scale}/hardware"
    return [f"{base}/fingerprint.json", f"{base}/calibration.json",
            f"{base}/calibration.png", f"{base}/calibration.csv", f"{base}/calibration.md",
            f"{base}/system.csv", f"{base}/system.md"]


def hardware_slurm_extra(wildcards, input):
    """sbatch options of a job that measures the machine (Slurm executor; the
    local one ignores them): the whole node (--exclusive), and the node the
    scale's fingerprint was taken on (--nodelist), so every benchmark and the
    calibration of a scale run on the one node they are keyed to. Before the
    fingerprint exists (a dry run) only --exclusive; nothing for a job
    without a fingerprint input, which measures nothing (an interleaved
    run's own job, which copies its log)."""
    if not getattr(input, "fingerprint", None):
        return ""
    try:
        with open(input.fingerprint) as f:
            node = json.load(f).get("node") or {}
    except (OSError, ValueError, AttributeError):
        node = {}
    if node.get("slurm_node"):
        return f"--exclusive --nodelist={node['slurm_node']}"
    return "--exclusive"

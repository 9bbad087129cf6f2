# Hardware: the host fingerprint, the device calibration (fio) and its figure
# and table, and the "experimental system" table. Outputs under
# results/<scale>/hardware/. Uses RESULTS, PY, SCALES from workflow/common.smk.
#
# Benchmark rules run their job under the memory limit of the scale with
#   {PY} hardware.cgroup_run --memory {hardware_memory_limit(w)} {hardware_unenforced_flag(w)}
#       --report <run>.limits.json -- <benchmark command>
# and pass <run>.limits.json to the aggregation beside the run's log.
import glob

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


rule hardware_fingerprint:
    input:
        HARDWARE_CODE,
    output:
        f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
    params:
        db=lambda w: hardware_db_dir(w.scale),
    log:
        f"{RESULTS}/{{scale}}/logs/hardware/fingerprint.log",
    shell:
        "mkdir -p {params.db} && {PY} hardware.fingerprint --dir {params.db} --out {output} 2> {log}"


# Once per host and scale; it measures the device, so it takes the bench lock
# and the whole machine, like a benchmark.
rule hardware_calibration:
    input:
        jobs=HARDWARE_FIO_JOBS,
        code="hardware/fio_profile.py",
        fingerprint=f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
    output:
        f"{RESULTS}/{{scale}}/hardware/calibration.json",
    params:
        c=lambda w: hardware_cfg(w.scale)["calibration"],
        dir=lambda w: f"{hardware_db_dir(w.scale)}/fio-calibration",
    threads: workflow.cores
    resources:
        bench_lock=1,
    log:
        f"{RESULTS}/{{scale}}/logs/hardware/calibration.log",
    shell:
        "mkdir -p {params.dir} && {PY} hardware.fio_profile --jobs-dir hardware/fio"
        " --dir {params.dir} --ramp {params.c[ramp_s]} --runtime {params.c[runtime_s]}"
        " --size {params.c[size]} --out {output} 2> {log}"


rule hardware_calibration_figure:
    input:
        profile=f"{RESULTS}/{{scale}}/hardware/calibration.json",
        code="hardware/calibration_plot.py",
    output:
        pdf=f"{RESULTS}/{{scale}}/hardware/calibration.pdf",
        png=report(f"{RESULTS}/{{scale}}/hardware/calibration.png",
                   caption="calibration.rst", category="hardware"),
        csv=f"{RESULTS}/{{scale}}/hardware/calibration.csv",
        md=f"{RESULTS}/{{scale}}/hardware/calibration.md",
    log:
        f"{RESULTS}/{{scale}}/logs/hardware/calibration_figure.log",
    shell:
        "{PY} hardware.calibration_plot --profile {input.profile} --out-pdf {output.pdf}"
        " --out-png {output.png} --out-csv {output.csv} --out-md {output.md} 2> {log}"


# Table 3 of the `slr` study (the experimental system) and every study's
# hardware manifest.
rule hardware_system_table:
    input:
        fingerprint=f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
        profile=f"{RESULTS}/{{scale}}/hardware/calibration.json",
        code="hardware/system_table.py",
    output:
        csv=f"{RESULTS}/{{scale}}/hardware/system.csv",
        md=f"{RESULTS}/{{scale}}/hardware/system.md",
    log:
        f"{RESULTS}/{{scale}}/logs/hardware/system_table.log",
    shell:
        "{PY} hardware.system_table --fingerprint {input.fingerprint} --profile {input.profile}"
        " --out-csv {output.csv} --out-md {output.md} 2> {log}"


rule hardware:
    input:
        lambda w: hardware_products(config["scale"]),

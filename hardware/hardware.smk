# Hardware: the host fingerprint, the device calibration (fio) and its figure
# and table, and the "experimental system" table. Outputs under
# results/<scale>/hardware/. Uses RESULTS, PY, SCALES from workflow/common.smk.
#
# Benchmark rules run their job under the memory limit of the scale with
#   python -m hardware.cgroup_run --memory {hardware_memory_limit(w)} {hardware_unenforced_flag(w)}
#       --report <run>.limits.json -- <benchmark command>
# and pass <run>.limits.json to the aggregation beside the run's log.


include: "common.smk"


rule hardware_fingerprint:
    input:
        HARDWARE_CODE,
    output:
        f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
    params:
        db=lambda w: hardware_db_dir(w.scale),
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/hardware/fingerprint.log",
    shell:
        "mkdir -p {params.db} && python -m hardware.fingerprint --dir {params.db} --out {output} 2> {log}"


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
        slurm_extra=hardware_slurm_extra,
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/hardware/calibration.log",
    shell:
        "mkdir -p {params.dir} && python -m hardware.fio_profile --jobs-dir hardware/fio"
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
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/hardware/calibration_figure.log",
    shell:
        "python -m hardware.calibration_plot --profile {input.profile} --out-pdf {output.pdf}"
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
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/hardware/system_table.log",
    shell:
        "python -m hardware.system_table --fingerprint {input.fingerprint} --profile {input.profile}"
        " --out-csv {output.csv} --out-md {output.md} 2> {log}"


rule hardware:
    input:
        lambda w: hardware_products(config["scale"]),

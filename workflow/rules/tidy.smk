# Stage tidy: raw logs into tidy tables and regime tables (lsmrepro/tidy/).
# Each rule lists the Python it runs as inputs (lsmrepro.plan.studies.code_of):
# an edit to it remakes the tables, and no benchmark reruns.
TIDY_CODE = lsm_studies.code_of("lsmrepro/tidy/aggregate.py")
REGIME_CODE = lsm_studies.code_of("lsmrepro/tidy/regime.py")


# One tidy table per experiment (a figure with runs): a row per (run,
# metric), each with its source. A figure reads its own and its `uses`', so
# a figure target runs only what it draws.
rule experiment_tidy:
    input:
        raw=lambda w: run_raw(w.scale, figure_runs(w.scale, w.study, w.figure))
        + tool_raw(w.scale, figure_tool_runs(w.scale, w.study, w.figure)),
        code=TIDY_CODE,
    output:
        f"{RESULTS}/{{scale}}/tidy/{{study}}/{{figure}}.csv",
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/{{study}}/{{figure}}_tidy.log",
    shell:
        "python -m lsmrepro.tidy.aggregate --out {output} {input.raw} 2> {log}"


# The study's table: its experiments' joined.
rule study_tidy:
    input:
        tidy=lambda w: [experiment_tidy(w.scale, w.study, f) for f in lsm_studies.study_experiments(w.study)],
        code=TIDY_CODE,
    output:
        f"{RESULTS}/{{scale}}/tidy/{{study}}.csv",
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/{{study}}/tidy.log",
    shell:
        "python -m lsmrepro.tidy.aggregate --concat --out {output} {input.tidy} 2> {log}"


# The regime each figure was measured in, beside its paper's (lsmrepro/tidy/regime.py).
rule study_regime:
    input:
        tidy=f"{RESULTS}/{{scale}}/tidy/{{study}}.csv",
        spec="paper/{study}/experiments.yaml",
        code=REGIME_CODE,
    output:
        csv=f"{RESULTS}/{{scale}}/tables/{{study}}/regime.csv",
        md=f"{RESULTS}/{{scale}}/tables/{{study}}/regime.md",
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/{{study}}/regime.log",
    shell:
        "python -m lsmrepro.tidy.regime --study {wildcards.study} --tidy {input.tidy}"
        " --out-csv {output.csv} --out-md {output.md} 2> {log}"

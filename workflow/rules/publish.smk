# Stage publish: this run beside the shipped reference run, and the report
# (lsmrepro/publish/).
import os

REFERENCE = "results/reference/local"  # the shipped reference run, if any
COMPARE_CODE = lsm_studies.code_of("lsmrepro/publish/compare.py")
REPORT_CODE = lsm_studies.code_of("lsmrepro/publish/report.py")
RERUN_CODE = lsm_studies.code_of("lsmrepro/publish/rerun.py")


# This run beside the shipped reference run (results/reference/local/,
# lsmrepro/publish/compare.py), made for the report when the reference is there.
rule compare:
    input:
        products=lambda w: study_products(w.scale),
        reference=f"{REFERENCE}/claims",
        fingerprint=f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
        code=COMPARE_CODE,
    output:
        claims=f"{RESULTS}/{{scale}}/compare/claims.csv",
        figures=f"{RESULTS}/{{scale}}/compare/figures.csv",
        machines=f"{RESULTS}/{{scale}}/compare/machines.csv",
        md=f"{RESULTS}/{{scale}}/compare/index.md",
    params:
        results=lambda w, output: os.path.dirname(os.path.dirname(os.path.dirname(output.md))),
        reference=lambda w, input: os.path.dirname(input.reference),  # results/reference/local
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/compare.log",
    shell:
        "python -m lsmrepro.publish.compare --scale {wildcards.scale} --reference {params.reference}"
        " --results {params.results} > /dev/null 2> {log}"


# Per claim, the ./reproduce command that reruns its runs and its price from
# this run's job times (lsmrepro/publish/rerun.py); shipped with tables/.
rule claims_rerun:
    input:
        products=lambda w: study_products(w.scale),
        code=RERUN_CODE,
    output:
        f"{RESULTS}/{{scale}}/tables/rerun.csv",
    params:
        # results/<scale>/tables/rerun.csv -> results
        results=lambda w, output: os.path.dirname(os.path.dirname(os.path.dirname(output[0]))),
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/claims_rerun.log",
    shell:
        "python -m lsmrepro.publish.rerun --scale {wildcards.scale} --results {params.results}"
        " --out {output} 2> {log}"


rule report:
    input:
        products=lambda w: study_products(w.scale),
        compared=lambda w: [f"{RESULTS}/{w.scale}/compare/claims.csv"] if os.path.isdir(f"{REFERENCE}/claims") else [],
        rerun=f"{RESULTS}/{{scale}}/tables/rerun.csv",
        fingerprint=f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
        builds=[engine_build_id(e) for e in ENGINES],
        logs=lambda w: study_logs(w.scale),
        hardware=lambda w: hardware_products(w.scale),
        code=REPORT_CODE,
    output:
        f"{RESULTS}/{{scale}}/report/index.html",
    params:
        # results/<scale>/report/index.html -> results
        results=lambda w, output: os.path.dirname(os.path.dirname(os.path.dirname(output[0]))),
        studies=" ".join(STUDIES),
        hardware=lambda w, input: os.path.dirname(input.fingerprint),
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/report.log",
    shell:
        "python -m lsmrepro.publish.report --scale {wildcards.scale} --results {params.results}"
        " --studies {params.studies} --hardware {params.hardware} --build-ids {input.builds}"
        " --logs {input.logs} --out {output} 2> {log}"

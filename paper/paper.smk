# Figures, tables, claims and the report. Each study's rules are in
# paper/<study>/<study>.smk and register their products in STUDY_OUTPUTS
# (paper/common.smk).


import os


include: "common.smk"
include: "baseline/baseline.smk"


rule report:
    input:
        products=lambda w: study_products(w.scale),
        fingerprint=f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
        builds=[engine_build_id(e) for e in ENGINES],
        logs=lambda w: study_logs(w.scale),
        hardware=lambda w: hardware_products(w.scale),
    output:
        f"{RESULTS}/{{scale}}/report/index.html",
    params:
        py=PY,
        # results/<scale>/report/index.html -> results
        results=lambda w, output: os.path.dirname(os.path.dirname(os.path.dirname(output[0]))),
        studies=studies_json(),
        hardware=lambda w, input: os.path.dirname(input.fingerprint),
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/report.log",
    shell:
        "{params.py} lsmrepro.report --scale {wildcards.scale} --results {params.results}"
        " --studies '{params.studies}'"
        " --hardware {params.hardware} --build-ids {input.builds} --logs {input.logs} --out {output} 2> {log}"

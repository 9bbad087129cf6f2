# Figures, tables, claims and the report. Each study's rules are in
# paper/<study>/<study>.smk; each registers its figures in STUDY_OUTPUTS.
import json

# study -> {"figures": {figure id: caption}, "logs": scale -> raw log paths}
STUDY_OUTPUTS = {}


include: "baseline/baseline.smk"


def study_products(scale):
    files = []
    for study, spec in STUDY_OUTPUTS.items():
        for fig in spec["figures"]:
            files += [f"{RESULTS}/{scale}/figures/{study}/{fig}.png",
                      f"{RESULTS}/{scale}/tables/{study}/{fig}.csv"]
        files.append(f"{RESULTS}/{scale}/claims/{study}.csv")
    return files


rule report:
    input:
        products=lambda w: study_products(w.scale),
        fingerprint=f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
        builds=[engine_build_id(e) for e in ENGINES if e in ("leveldb", "rocksdb")],
        logs=lambda w: [p for spec in STUDY_OUTPUTS.values() for p in spec["logs"](w.scale)],
    output:
        f"{RESULTS}/{{scale}}/report/index.html",
    params:
        studies=lambda w: json.dumps({s: {"figures": v["figures"]} for s, v in STUDY_OUTPUTS.items()}),
    log:
        f"{RESULTS}/{{scale}}/logs/report.log",
    shell:
        "{PY} lsmrepro.report --scale {wildcards.scale} --results {RESULTS}"
        " --studies '{params.studies}' --fingerprint {input.fingerprint}"
        " --build-ids {input.builds} --logs {input.logs} --out {output} 2> {log}"

# Stage claims: tidy tables into verdicts (lsmrepro/claims/), per study and
# per figure, with the scale's settings as a digest (scale_digest).
CLAIMS_CODE = lsm_studies.code_of("lsmrepro/claims/__main__.py")


rule study_claims:
    input:
        tidy=f"{RESULTS}/{{scale}}/tidy/{{study}}.csv",
        claims="paper/{study}/claims.yaml",
        code=CLAIMS_CODE,
    output:
        csv=f"{RESULTS}/{{scale}}/claims/{{study}}.csv",
        md=f"{RESULTS}/{{scale}}/claims/{{study}}.md",
    params:
        scale_settings=lambda w: scale_digest(w.scale),
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/{{study}}/claims.log",
    shell:
        "python -m lsmrepro.claims --study {wildcards.study} --tidy {input.tidy} --claims {input.claims}"
        " --scale {wildcards.scale} --out-csv {output.csv} --out-md {output.md} 2> {log}"


# A figure's own claims, from the experiments they read: a figure target
# checks them without running the rest of its study.
rule figure_claims:
    input:
        tidy=lambda w: [experiment_tidy(w.scale, w.study, e) for e in claimed_experiments(w.study, w.figure)],
        claims="paper/{study}/claims.yaml",
        code=CLAIMS_CODE,
    output:
        csv=f"{RESULTS}/{{scale}}/claims/{{study}}/{{figure}}.csv",
        md=f"{RESULTS}/{{scale}}/claims/{{study}}/{{figure}}.md",
    params:
        scale_settings=lambda w: scale_digest(w.scale),
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/{{study}}/{{figure}}_claims.log",
    shell:
        "python -m lsmrepro.claims --study {wildcards.study} --figure {wildcards.figure} --tidy {input.tidy}"
        " --claims {input.claims} --scale {wildcards.scale} --out-csv {output.csv} --out-md {output.md} 2> {log}"

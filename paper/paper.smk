# Figures and tables of every study, from their tidy rows by
# paper/<study>/<figure>.py (paper/figure.py runs them), and a target per
# study and per figure named <study>_<figure> ('-' -> '_'). The stages that
# make their inputs are workflow/rules/*.smk.


# Any figure: paper/<study>/<figure>.py applied to its experiments' tidy rows.
rule study_figure:
    wildcard_constraints:
        figure=NOT_A_TABLE,  # tables/<study>/regime.csv is rule study_regime's, tables study_table's
    input:
        unpack(figure_inputs),
    output:
        pdf=f"{RESULTS}/{{scale}}/figures/{{study}}/{{figure}}.pdf",
        png=report(f"{RESULTS}/{{scale}}/figures/{{study}}/{{figure}}.png",
                   caption="caption.rst", category="{study}", subcategory="{figure}"),
        csv=f"{RESULTS}/{{scale}}/tables/{{study}}/{{figure}}.csv",
        md=f"{RESULTS}/{{scale}}/tables/{{study}}/{{figure}}.md",
    params:
        caption=lambda w: lsm_studies.caption(w.study, w.figure),
        datasets=lambda w, input: " ".join(input.datasets),
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/{{study}}/{{figure}}_figure.log",
    shell:
        "python -m paper.figure --study {wildcards.study} --figure {wildcards.figure}"
        " --tidy {input.tidy} --datasets {params.datasets} --fingerprint {input.fingerprint}"
        " --out-csv {output.csv} --out-md {output.md} --out-pdf {output.pdf} --out-png {output.png} 2> {log}"


# A table-only target (`output: table`): its CSV and Markdown, no picture of it.
rule study_table:
    wildcard_constraints:
        figure=TABLES,
    input:
        unpack(figure_inputs),
    output:
        csv=f"{RESULTS}/{{scale}}/tables/{{study}}/{{figure}}.csv",
        md=f"{RESULTS}/{{scale}}/tables/{{study}}/{{figure}}.md",
    params:
        datasets=lambda w, input: " ".join(input.datasets),
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/{{study}}/{{figure}}_table.log",
    shell:
        "python -m paper.figure --study {wildcards.study} --figure {wildcards.figure}"
        " --tidy {input.tidy} --datasets {params.datasets} --fingerprint {input.fingerprint}"
        " --out-csv {output.csv} --out-md {output.md} 2> {log}"


# Targets: `<study>_<figure>` (./reproduce <study>/<figure>: the runs the
# figure reads, the figure and its own claims) and `<study>` (./reproduce
# <study>), at config["scale"], with what `select` keeps.
for _study, _figure in STUDY_FIGURES:

    rule:
        name:
            lsm_studies.module_name(f"{_study}_{_figure}")
        input:
            [run_raw(config["scale"], figure_runs(config["scale"], _study, e))
             + tool_raw(config["scale"], figure_tool_runs(config["scale"], _study, e))
             for e in lsm_studies.figure_experiments(_study, _figure)],
            figure_products(config["scale"], _study, _figure),
            figure_claims_products(config["scale"], _study, _figure),


for _study in STUDIES:

    rule:
        name:
            lsm_studies.module_name(_study)
        input:
            run_raw(config["scale"], figure_runs(config["scale"], _study)),
            tool_raw(config["scale"], figure_tool_runs(config["scale"], _study)),
            study_products(config["scale"], _study),

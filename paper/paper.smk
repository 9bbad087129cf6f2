# Figures, tables, claims and the report of every study, all from the specs
# paper/<study>/experiments.yaml (paper/README.md): one load rule, one run
# rule, one aggregation, figure and claims rule (a job per study or figure),
# and a target per study and per figure named <study>_<figure> ('-' -> '_').
import os


include: "common.smk"


REFERENCE = "results/reference/local"  # the shipped reference run (issue 33), if any


wildcard_constraints:
    study="|".join(STUDIES) or "none",
    figure=r"[a-zA-Z0-9-]+",
    point=r"[^/]+",
    load=r"[^/]+",
    group=r"[^/]+",


_load_inputs = bench_inputs(lambda w: load_rows(w)[0])
_group_inputs = bench_inputs(lambda w: group_rows(w)[0])
_run_inputs = [own_input(f) for f in bench_inputs(run_row)]


# A database loaded and settled once, shared by every run that starts from it
# (temp: removed when its last run is done).
rule bench_load:
    input:
        binary=_load_inputs[0],
        build_id=_load_inputs[1],
        dataset=_load_inputs[2],
        manifest=_load_inputs[3],
        fingerprint=f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
        calibration=f"{RESULTS}/{{scale}}/hardware/calibration.json",
        peers=lambda w: _peers(w.scale, load_rows(w)),
        key_lengths=lambda w: key_lengths_file(w.scale, load_rows(w)[0]),
    output:
        db=temp(directory(f"{RESULTS}/{{scale}}/db/loads/{{load}}")),
        log=f"{RESULTS}/{{scale}}/raw/loads/{{load}}.jsonl",
        limits=f"{RESULTS}/{{scale}}/raw/loads/{{load}}.limits.json",
    # Job times ./reproduce --estimate scales to other sizes.
    benchmark:
        f"{RESULTS}/{{scale}}/benchmarks/loads/{{load}}.tsv"
    params:
        limit=lambda w: bench_memory_limit(load_rows(w)[0], "load") or hardware_memory_limit(w),
        unenforced=hardware_unenforced_flag,
        args=lambda w: " ".join(load_rows(w)[0].load_args),
        key_lengths=key_lengths_arg,
        fsync=lambda w: "" if any(r.timed_loads for r in load_rows(w)) else "--defer-fsync",
    # The machine to itself: no build or generator competes for its cores.
    threads: workflow.cores
    resources:
        bench_lock=1,
        slurm_extra=hardware_slurm_extra,
    priority: lambda w: load_priority(w.scale, w.load)
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/loads/{{load}}.log",
    shell:
        "python -m lsmrepro.bench load --db {output.db} --log {output.log} --limits {output.limits}"
        " --memory {params.limit} {params.unenforced} {params.fsync} --"
        " {input.binary} --dataset {input.dataset} --dataset-manifest {input.manifest}"
        " --attach fingerprint={input.fingerprint} --attach calibration={input.calibration}"
        " --build-id {input.build_id} {params.args} {params.key_lengths}"
        " --meta scale={wildcards.scale} --meta load={wildcards.load} 2> {log}"


# The runs of a figure's `interleave` options, one repetition and condition:
# one lsmbench taking turns between their databases (each a copy of its
# load), one log each in the job's folder.
rule bench_group:
    input:
        binary=_group_inputs[0],
        build_id=_group_inputs[1],
        dataset=_group_inputs[2],
        manifest=_group_inputs[3],
        fingerprint=f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
        calibration=f"{RESULTS}/{{scale}}/hardware/calibration.json",
        load_dbs=lambda w: sorted({load_db(w.scale, r.load) for r in group_rows(w)}),
        load_logs=lambda w: sorted({f"{load_stem(w.scale, r.load)}.jsonl" for r in group_rows(w)}),
        peers=lambda w: _peers(w.scale, group_rows(w)),
        key_lengths=lambda w: key_lengths_file(w.scale, group_rows(w)[0]),
    output:
        out=directory(f"{RESULTS}/{{scale}}/raw/{{study}}/{{figure}}/interleaved/{{group}}/r{{rep}}"),
    benchmark:
        f"{RESULTS}/{{scale}}/benchmarks/{{study}}/{{figure}}/interleaved/{{group}}/r{{rep}}.tsv"
    params:
        limit=lambda w: bench_memory_limit(group_rows(w)[0]) or hardware_memory_limit(w),
        unenforced=hardware_unenforced_flag,
        args=group_args,
        members=group_members,
        key_lengths=key_lengths_arg,
        cache=lambda w: group_rows(w)[0].cache,
        workdb=lambda w: f"{hardware_db_dir(w.scale)}/runs/{w.study}/{w.figure}/interleaved/{w.group}/r{w.rep}",
    threads: workflow.cores
    resources:
        bench_lock=1,
        slurm_extra=hardware_slurm_extra,
    priority: lambda w: run_priority(w.scale, w.study, w.figure, group_rows(w)[0].point, w.rep)
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/{{study}}/{{figure}}/interleaved/{{group}}/r{{rep}}.log",
    shell:
        "python -m lsmrepro.bench_group run --out {output.out} --members {params.members:q}"
        " --db {params.workdb} --cache {params.cache} --memory {params.limit} {params.unenforced} --"
        " {input.binary} --dataset {input.dataset} --dataset-manifest {input.manifest}"
        " --attach fingerprint={input.fingerprint} --attach calibration={input.calibration}"
        " --build-id {input.build_id} {params.args} {params.key_lengths}"
        " --meta study={wildcards.study} --meta experiment={wildcards.figure}"
        " --meta scale={wildcards.scale} --meta repetition={wildcards.rep} 2> {log}"


# Any point of any study: a copy of its load's database, the run phase under
# the memory limit, one log; or, for a run of an interleaved job, its log
# and limits report copied from the job's folder.
rule bench_run:
    input:
        binary=_run_inputs[0],
        build_id=_run_inputs[1],
        dataset=_run_inputs[2],
        manifest=_run_inputs[3],
        fingerprint=own_input(lambda w: f"{RESULTS}/{w.scale}/hardware/fingerprint.json"),
        calibration=own_input(lambda w: f"{RESULTS}/{w.scale}/hardware/calibration.json"),
        load_db=own_input(lambda w: load_db(w.scale, run_row(w).load)),
        load_log=own_input(lambda w: f"{load_stem(w.scale, run_row(w).load)}.jsonl"),
        peers=own_input(lambda w: _peers(w.scale, [run_row(w)])),
        key_lengths=own_input(lambda w: key_lengths_file(w.scale, run_row(w))),
        interleaved=lambda w: group_dir(w.scale, run_row(w)) if run_row(w).group else [],
    output:
        log=f"{RESULTS}/{{scale}}/raw/{{study}}/{{figure}}/{{point}}/r{{rep}}.jsonl",
        limits=f"{RESULTS}/{{scale}}/raw/{{study}}/{{figure}}/{{point}}/r{{rep}}.limits.json",
    benchmark:
        f"{RESULTS}/{{scale}}/benchmarks/{{study}}/{{figure}}/{{point}}/r{{rep}}.tsv"
    params:
        limit=lambda w: bench_memory_limit(run_row(w)) or hardware_memory_limit(w),
        unenforced=hardware_unenforced_flag,
        args=lambda w: " ".join(run_row(w).run_args),
        key_lengths=key_lengths_arg,
        cache=lambda w: run_row(w).cache,
        workdb=lambda w: f"{hardware_db_dir(w.scale)}/runs/{w.study}/{w.figure}/{w.point}/r{w.rep}",
        dataset=lambda w: run_row(w).dataset,
        load=lambda w: run_row(w).load,
        manifest=lambda w: lsm_studies.run_manifest(run_row(w)),
        interleaved=lambda w: "yes" if run_row(w).group else "",
    threads: lambda w: 1 if run_row(w).group else workflow.cores
    resources:
        bench_lock=lambda w: 0 if run_row(w).group else 1,
        slurm_extra=hardware_slurm_extra,
    priority: lambda w: run_priority(w.scale, w.study, w.figure, w.point, w.rep)
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/{{study}}/{{figure}}/{{point}}/r{{rep}}.log",
    shell:
        "if [ -n '{params.interleaved}' ]; then"
        " python -m lsmrepro.bench_group member --from {input.interleaved} --point {wildcards.point:q}"
        " --log {output.log} --limits {output.limits} 2> {log}; else"
        " python -m lsmrepro.bench run --from {input.load_db} --load-log {input.load_log}"
        " --db {params.workdb} --cache {params.cache} --log {output.log} --limits {output.limits}"
        " --manifest {params.manifest:q}"
        " --memory {params.limit} {params.unenforced} --"
        " {input.binary} --dataset {input.dataset} --dataset-manifest {input.manifest}"
        " --attach fingerprint={input.fingerprint} --attach calibration={input.calibration}"
        " --build-id {input.build_id} {params.args} {params.key_lengths}"
        " --meta study={wildcards.study} --meta experiment={wildcards.figure}"
        " --meta scale={wildcards.scale} --meta dataset={params.dataset}"
        " --meta repetition={wildcards.rep} --meta point={wildcards.point}"
        " --meta load={params.load} 2> {log}; fi"


# One tidy table per experiment (a figure with runs): a row per (run,
# metric), each with its source. A figure reads its own and its `uses`', so
# a figure target runs only what it draws.
rule experiment_tidy:
    input:
        raw=lambda w: run_raw(w.scale, figure_runs(w.scale, w.study, w.figure)),
        code=CODE["aggregate"],
    output:
        f"{RESULTS}/{{scale}}/tidy/{{study}}/{{figure}}.csv",
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/{{study}}/{{figure}}_tidy.log",
    shell:
        "python -m lsmrepro.aggregate --out {output} {input.raw} 2> {log}"


# The study's table: its experiments' joined.
rule study_tidy:
    input:
        tidy=lambda w: [experiment_tidy(w.scale, w.study, f) for f in lsm_studies.study_experiments(w.study)],
        code=CODE["aggregate"],
    output:
        f"{RESULTS}/{{scale}}/tidy/{{study}}.csv",
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/{{study}}/tidy.log",
    shell:
        "python -m lsmrepro.aggregate --concat --out {output} {input.tidy} 2> {log}"


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


# The regime each figure was measured in, beside its paper's (lsmrepro/regime.py).
rule study_regime:
    input:
        tidy=f"{RESULTS}/{{scale}}/tidy/{{study}}.csv",
        spec="paper/{study}/experiments.yaml",
        code=CODE["regime"],
    output:
        csv=f"{RESULTS}/{{scale}}/tables/{{study}}/regime.csv",
        md=f"{RESULTS}/{{scale}}/tables/{{study}}/regime.md",
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/{{study}}/regime.log",
    shell:
        "python -m lsmrepro.regime --study {wildcards.study} --tidy {input.tidy}"
        " --out-csv {output.csv} --out-md {output.md} 2> {log}"



rule study_claims:
    input:
        tidy=f"{RESULTS}/{{scale}}/tidy/{{study}}.csv",
        claims="paper/{study}/claims.yaml",
        code=CODE["claims"],
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
        code=CODE["claims"],
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


# This run beside the shipped reference run (results/reference/local/,
# lsmrepro/compare.py), made for the report when the reference is there.
rule compare:
    input:
        products=lambda w: study_products(w.scale),
        reference=f"{REFERENCE}/claims",
        fingerprint=f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
        code=CODE["compare"],
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
        "python -m lsmrepro.compare --scale {wildcards.scale} --reference {params.reference}"
        " --results {params.results} > /dev/null 2> {log}"


rule report:
    input:
        products=lambda w: study_products(w.scale),
        compared=lambda w: [f"{RESULTS}/{w.scale}/compare/claims.csv"] if os.path.isdir(f"{REFERENCE}/claims") else [],
        fingerprint=f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
        builds=[engine_build_id(e) for e in ENGINES],
        logs=lambda w: study_logs(w.scale),
        hardware=lambda w: hardware_products(w.scale),
        code=CODE["report"],
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
        "python -m lsmrepro.report --scale {wildcards.scale} --results {params.results}"
        " --studies {params.studies} --hardware {params.hardware} --build-ids {input.builds}"
        " --logs {input.logs} --out {output} 2> {log}"


# Targets: `<study>_<figure>` (./reproduce <study>/<figure>: the runs the
# figure reads, the figure and its own claims) and `<study>` (./reproduce
# <study>), at config["scale"], with what `select` keeps.
for _study, _figure in STUDY_FIGURES:

    rule:
        name:
            lsm_studies.module_name(f"{_study}_{_figure}")
        input:
            [run_raw(config["scale"], figure_runs(config["scale"], _study, e))
             for e in lsm_studies.figure_experiments(_study, _figure)],
            figure_products(config["scale"], _study, _figure),
            figure_claims_products(config["scale"], _study, _figure),


for _study in STUDIES:

    rule:
        name:
            lsm_studies.module_name(_study)
        input:
            run_raw(config["scale"], figure_runs(config["scale"], _study)),
            study_products(config["scale"], _study),

# Pinned upstream sources -> verified tarballs -> engine builds with lsmbench.


wildcard_constraints:
    engine="|".join(ENGINES),


rule fetch_source:
    output:
        f"{BUILD}/sources/{{file}}",
    params:
        name=lambda w: next(n for n, s in SOURCES.items() if s["file"] == w.file),
        drop=config["sources_dir"],
    conda:
        CONDA_ENV
    log:
        f"{BUILD}/logs/fetch/{{file}}.log",
    shell:
        "python -m engines.fetch {params.name} --out {output} --drop-dir {params.drop} 2> {log}"


rule build_engine:
    input:
        engine_inputs,
    output:
        binary=f"{BUILD}/engines/{{engine}}/bin/lsmbench",
        build_id=f"{BUILD}/engines/{{engine}}/build_id.json",
    params:
        tarball=lambda w: source_tarball(ENGINES[w.engine]["source"]),
        work=lambda w: f"{BUILD}/engines/{w.engine}",
    threads: workflow.cores
    priority: BUILD_PRIORITY
    conda:
        CONDA_ENV
    log:
        f"{BUILD}/logs/build/{{engine}}.log",
    shell:
        "python -m engines.build_engine {wildcards.engine} --tarball {params.tarball}"
        " --work {params.work} --jobs {threads} 2> {log}"


rule engines:
    input:
        [engine_binary(e) for e in ENGINES],

# Study `baseline`: pristine engines, the spine every other study builds on.
# Figure `point`: point-lookup latency and throughput, leveldb vs rocksdb.


rule baseline_point_run:
    input:
        binary=lambda w: engine_binary(w.engine),
        build_id=lambda w: engine_build_id(w.engine),
        dataset=baseline_point_dataset,
        manifest=lambda w: baseline_point_dataset(w) + ".manifest.json",
        fingerprint=f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
        calibration=f"{RESULTS}/{{scale}}/hardware/calibration.json",
        peers=baseline_point_peers,
    output:
        log=f"{RESULTS}/{{scale}}/raw/baseline/point/{{engine}}__{{dataset}}__r{{rep}}.jsonl",
        limits=f"{RESULTS}/{{scale}}/raw/baseline/point/{{engine}}__{{dataset}}__r{{rep}}.limits.json",
    params:
        py=PY,
        limit=hardware_memory_limit,
        unenforced=hardware_unenforced_flag,
        c=lambda w: SCALES[w.scale]["baseline"]["point"],
        options=lambda w: " ".join(f"-o {o}" for o in SCALES[w.scale]["baseline"]["point"]["options"].get(w.engine, [])),
        db=lambda w: f"{RESULTS}/{w.scale}/db/baseline-point-{w.engine}-{w.dataset}-r{w.rep}",
        seed=lambda w: 1000 + int(w.rep),
    # The machine to itself: no build or generator competes for its cores.
    threads: workflow.cores
    resources:
        bench_lock=1,
        slurm_extra=hardware_slurm_extra,
    priority: interleaved_priority
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/baseline/point/{{engine}}__{{dataset}}__r{{rep}}.log",
    shell:
        "{params.py} hardware.cgroup_run --memory {params.limit} {params.unenforced}"
        " --report {output.limits} --"
        " {input.binary} --db {params.db} --dataset {input.dataset}"
        " --dataset-manifest {input.manifest} --attach fingerprint={input.fingerprint}"
        " --attach calibration={input.calibration}"
        " --build-id {input.build_id} --load-order {params.c[load_order]}"
        " --value-bytes {params.c[value_bytes]} --ops {params.c[lookups]}"
        " --negative-share {params.c[negative_share]} --seed {params.seed} {params.options}"
        " --meta study=baseline --meta experiment=point --meta scale={wildcards.scale}"
        " --meta dataset={wildcards.dataset} --meta repetition={wildcards.rep}"
        " --log {output.log} 2> {log}"


rule baseline_tidy:
    input:
        lambda w: baseline_point_raw(w.scale),
    output:
        f"{RESULTS}/{{scale}}/tidy/baseline.csv",
    params:
        py=PY,
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/baseline/tidy.log",
    shell:
        "{params.py} lsmrepro.aggregate --out {output} {input} 2> {log}"


rule baseline_point_figure:
    input:
        f"{RESULTS}/{{scale}}/tidy/baseline.csv",
    output:
        pdf=f"{RESULTS}/{{scale}}/figures/baseline/point.pdf",
        png=report(f"{RESULTS}/{{scale}}/figures/baseline/point.png",
                   caption="point.rst", category="baseline"),
        csv=f"{RESULTS}/{{scale}}/tables/baseline/point.csv",
        md=f"{RESULTS}/{{scale}}/tables/baseline/point.md",
    params:
        py=PY,
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/baseline/point_figure.log",
    shell:
        "{params.py} paper.baseline.point --tidy {input} --out-pdf {output.pdf} --out-png {output.png}"
        " --out-csv {output.csv} --out-md {output.md} 2> {log}"


rule baseline_claims:
    input:
        tidy=f"{RESULTS}/{{scale}}/tidy/baseline.csv",
        claims="paper/claims.yaml",
    output:
        csv=f"{RESULTS}/{{scale}}/claims/baseline.csv",
        md=f"{RESULTS}/{{scale}}/claims/baseline.md",
    params:
        py=PY,
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/baseline/claims.log",
    shell:
        "{params.py} lsmrepro.claims --study baseline --tidy {input.tidy} --claims {input.claims}"
        " --out-csv {output.csv} --out-md {output.md} 2> {log}"


rule baseline_point:
    input:
        baseline_point_raw(config["scale"]),
        expand(f"{RESULTS}/{{scale}}/figures/baseline/point.{{ext}}", scale=config["scale"], ext=["pdf", "png"]),
        expand(f"{RESULTS}/{{scale}}/tables/baseline/point.{{ext}}", scale=config["scale"], ext=["csv", "md"]),
        expand(f"{RESULTS}/{{scale}}/claims/baseline.{{ext}}", scale=config["scale"], ext=["csv", "md"]),


rule baseline:
    input:
        rules.baseline_point.input,

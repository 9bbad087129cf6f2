# Pinned upstream sources -> verified tarballs -> engine builds with lsmbench.
from pathlib import Path

import yaml

with open(f"{workflow.basedir}/engines/sources.yaml") as _f:
    SOURCES = yaml.safe_load(_f)
with open(f"{workflow.basedir}/engines/engines.yaml") as _f:
    ENGINES = yaml.safe_load(_f)


wildcard_constraints:
    source="|".join(SOURCES),


def source_tarball(name):
    return f"{BUILD}/sources/{SOURCES[name]['file']}"


def engine_inputs(wildcards):
    """What an engine build depends on: its verified tarball, our variant
    folder, the driver and the headers it compiles in."""
    variant = ENGINES[wildcards.engine]
    files = [source_tarball(variant["source"]), "engines/engines.yaml", "engines/build_engine.py"]
    files += sorted(str(p) for p in Path("engines/driver").rglob("*")
                    if p.is_file() and "tests" not in p.parts)
    files += sorted(str(p) for p in Path(f"engines/{wildcards.engine}").rglob("*") if p.is_file())
    files += ["workloads/sosd/sosd_format.h"]
    return files


rule fetch_source:
    output:
        f"{BUILD}/sources/{{file}}",
    params:
        name=lambda w: next(n for n, s in SOURCES.items() if s["file"] == w.file),
        drop=config["sources_dir"],
    log:
        f"{BUILD}/logs/fetch/{{file}}.log",
    shell:
        "{PY} engines.fetch {params.name} --out {output} --drop-dir {params.drop} 2> {log}"


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
    log:
        f"{BUILD}/logs/build/{{engine}}.log",
    shell:
        "{PY} engines.build_engine {wildcards.engine} --tarball {params.tarball}"
        " --work {params.work} --jobs {threads} 2> {log}"


rule engines:
    input:
        [engine_binary(e) for e in ENGINES],

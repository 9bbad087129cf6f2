# Interim rules until workloads/workloads.smk lands:
# the datasets baseline/point needs.
import os

INTERIM_GENERATORS = {"uspr": "sosd_uspr", "logn": "sosd_logn"}


rule interim_datagen:
    input:
        "workloads/CMakeLists.txt",
    output:
        f"{BUILD}/workloads/datagen",
    params:
        build=lambda w, output: os.path.dirname(output[0]),
    threads: workflow.cores
    conda:
        CONDA_ENV
    log:
        f"{BUILD}/logs/build/datagen.log",
    shell:
        "(cmake -S workloads -B {params.build} -G Ninja -DCMAKE_BUILD_TYPE=Release"
        " && cmake --build {params.build} --target datagen -j {threads}) > {log} 2>&1"


rule interim_dataset:
    input:
        f"{BUILD}/workloads/datagen",
    output:
        sosd=f"{RESULTS}/{{scale}}/datasets/{{name}}_uint64",
        manifest=f"{RESULTS}/{{scale}}/datasets/{{name}}_uint64.manifest.json",
    params:
        gen=lambda w: INTERIM_GENERATORS[w.name],
        n=lambda w: SCALES[w.scale]["baseline"]["point"]["keys"],
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/datasets/{{name}}.log",
    shell:
        "{input} gen --generator {params.gen} --count {params.n} --seed 42"
        " --out {output.sosd} > {output.manifest} 2> {log}"

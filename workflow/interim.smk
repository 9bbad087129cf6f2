# Interim rules until workloads/workloads.smk and hardware/hardware.smk land:
# the datasets and fingerprint baseline/point needs.
INTERIM_GENERATORS = {"uspr": "sosd_uspr", "logn": "sosd_logn"}


rule interim_datagen:
    input:
        "workloads/CMakeLists.txt",
    output:
        f"{BUILD}/workloads/datagen",
    threads: workflow.cores
    shell:
        "cmake -S workloads -B {BUILD}/workloads -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null"
        " && cmake --build {BUILD}/workloads --target datagen -j {threads} > /dev/null"


rule interim_dataset:
    input:
        f"{BUILD}/workloads/datagen",
    output:
        sosd=f"{RESULTS}/{{scale}}/datasets/{{name}}_uint64",
        manifest=f"{RESULTS}/{{scale}}/datasets/{{name}}_uint64.manifest.json",
    params:
        gen=lambda w: INTERIM_GENERATORS[w.name],
        n=lambda w: SCALES[w.scale]["baseline"]["point"]["keys"],
    shell:
        "{input} gen --generator {params.gen} --count {params.n} --seed 42"
        " --out {output.sosd} > {output.manifest}"


rule interim_fingerprint:
    output:
        f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
    shell:
        "{PY} hardware.fingerprint --out {output}"

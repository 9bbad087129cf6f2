# Datasets: every key set of workloads/datasets.yaml, built once per scale
# into results/{scale}/datasets/ and reused by every job that needs it.
#   results/{scale}/datasets/{name}_uint64                  SOSD key file
#   results/{scale}/datasets/{name}_uint64.manifest.json    generator/params/seed or
#                                                           real source + md5, count, sha256, stand-in flag
#   results/{scale}/datasets/{name}_keylen_uint32           per-key lengths (variable-length keys)
#   results/{scale}/datasets/sizes_{set}_{key|value}_uint32 DobLIX Table I sizes
#   results/{scale}/datasets/{name}_lookups_{n}_neg{pct}_uint64    lookup keys
#   {data_dir}/<SOSD file>                                  real files (download + md5)
# Targets: `datasets` (all of them at config["scale"]), `datasets_table1`.
# Scale policy (config/scales/<scale>.yaml, section `datasets`): `real: prefer`
# uses a verified real file when it is in the data folder and the labelled
# stand-in otherwise; `real: require` (paper) makes the real file an input,
# so it is downloaded (or the run fails naming the missing file).
import os

from workloads import catalogue as wl_catalogue
from workloads import rules as wl

WL_CAT = wl_catalogue.load(studies=lsm_studies.registry())
WL_DATAGEN = f"{BUILD}/workloads/datagen"
WL_HARDNESS = f"{BUILD}/lidx-tools/lidx_hardness"
WL_DIR = f"{RESULTS}/{{scale}}/datasets"
WL_LOGS = f"{RESULTS}/{{scale}}/logs/datasets"
WL_DOWNLOADABLE = wl.downloadable(WL_CAT)


wildcard_constraints:
    name="|".join(sorted(WL_CAT["datasets"])),
    width="uint32|uint64",
    sizeset="|".join(sorted(WL_CAT["size_sets"])),
    side="key|value",
    realfile="|".join(sorted(WL_DOWNLOADABLE)),


rule workloads_datagen:
    input:
        wl.datagen_sources(),
    output:
        WL_DATAGEN,
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


# The manifests' learned-index hardness (workloads/hardness.py): lidx's PGM
# fitter counting a key set's optimal PLA segments, built alone (no tests).
rule workloads_lidx_hardness:
    input:
        wl.hardness_sources(),
    output:
        WL_HARDNESS,
    params:
        build=lambda w, output: os.path.dirname(output[0]),
    threads: workflow.cores
    conda:
        CONDA_ENV
    log:
        f"{BUILD}/logs/build/lidx_hardness.log",
    shell:
        "(cmake -S indexes -B {params.build} -G Ninja -DCMAKE_BUILD_TYPE=Release"
        " -DLIDX_BUILD_TESTS=OFF -DLIDX_BUILD_BENCH=OFF"
        " && cmake --build {params.build} --target lidx_hardness -j {threads}) > {log} 2>&1"


rule dataset:
    input:
        datagen=WL_DATAGEN,
        hardness=WL_HARDNESS,
        catalogue="workloads/datasets.yaml",
        real=lambda w: wl.real_input(WL_CAT, SCALES, config["data_dir"], w.name, w.scale),
    output:
        sosd=f"{WL_DIR}/{{name}}_{{width}}",
        manifest=f"{WL_DIR}/{{name}}_{{width}}.manifest.json",
    params:
        real=lambda w: wl.policy(SCALES, w.scale, "real"),
        data=config["data_dir"],
    conda:
        CONDA_ENV
    log:
        f"{WL_LOGS}/{{name}}_{{width}}.log",
    shell:
        "python -m workloads.materialize --dataset {wildcards.name} --scale {wildcards.scale}"
        " --out {output.sosd} --datagen {input.datagen} --data-dir {params.data}"
        " --real {params.real} --lidx-hardness {input.hardness} > {log} 2>&1 || (tail -1 {log} >&2; exit 2)"


rule dataset_key_lengths:
    input:
        datagen=WL_DATAGEN,
        manifest=f"{WL_DIR}/{{name}}_uint64.manifest.json",
    output:
        lengths=f"{WL_DIR}/{{name}}_keylen_uint32",
        manifest=f"{WL_DIR}/{{name}}_keylen_uint32.manifest.json",
    conda:
        CONDA_ENV
    log:
        f"{WL_LOGS}/{{name}}_keylen.log",
    shell:
        "python -m workloads.materialize --key-lengths-of {wildcards.name} --scale {wildcards.scale}"
        " --out {output.lengths} --datagen {input.datagen} > {log} 2>&1 || (tail -1 {log} >&2; exit 2)"


rule dataset_sizes:
    input:
        datagen=WL_DATAGEN,
        catalogue="workloads/datasets.yaml",
    output:
        sizes=f"{WL_DIR}/sizes_{{sizeset}}_{{side}}_uint32",
        manifest=f"{WL_DIR}/sizes_{{sizeset}}_{{side}}_uint32.manifest.json",
    conda:
        CONDA_ENV
    log:
        f"{WL_LOGS}/sizes_{{sizeset}}_{{side}}.log",
    shell:
        "python -m workloads.materialize --size-set {wildcards.sizeset} --side {wildcards.side}"
        " --scale {wildcards.scale} --out {output.sizes} --datagen {input.datagen}"
        " > {log} 2>&1 || (tail -1 {log} >&2; exit 2)"


rule dataset_lookups:
    input:
        datagen=WL_DATAGEN,
        sosd=f"{WL_DIR}/{{name}}_uint64",
    output:
        f"{WL_DIR}/{{name}}_lookups_{{nlookups}}_neg{{pct}}_uint64",
    wildcard_constraints:
        nlookups=r"\d+",
        pct=r"\d+",
    params:
        share=lambda w: int(w.pct) / 100,
        seed=lambda w: wl.policy(SCALES, w.scale, "lookup_seed"),
    conda:
        CONDA_ENV
    log:
        f"{WL_LOGS}/{{name}}_lookups_{{nlookups}}_neg{{pct}}.log",
    shell:
        "{input.datagen} lookups --keys {input.sosd} --count {wildcards.nlookups}"
        " --negative-share {params.share} --seed {params.seed} --out {output} > {log} 2>&1"
        " || (tail -1 {log} >&2; exit 2)"


rule sosd_download:
    output:
        f"{config['data_dir']}/{{realfile}}",
    params:
        name=lambda w: WL_DOWNLOADABLE[w.realfile],
        data=lambda w, output: os.path.dirname(output[0]),
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/logs/downloads/{{realfile}}.log",
    shell:
        "python -m workloads.sosd_fetch --dataset {params.name} --data-dir {params.data}"
        " > {log} 2>&1 || (tail -1 {log} >&2; exit 2)"


rule datasets:
    input:
        wl.dataset_files(WL_CAT, RESULTS, config["scale"]),


rule datasets_table1:
    input:
        [f for f in wl.dataset_files(WL_CAT, RESULTS, config["scale"]) if f.endswith(".manifest.json")],
    output:
        f"{RESULTS}/{config['scale']}/datasets/table1.json",
    params:
        manifests=lambda w, input: os.path.dirname(input[0]),
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{config['scale']}/logs/datasets/table1.log",
    shell:
        "python -m workloads.catalogue table1 --manifests {params.manifests} > {output} 2> {log}"

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
import glob as _glob
import os

from workloads import catalogue as _wl_catalogue

WL_CAT = _wl_catalogue.load()
WL_DATASETS = WL_CAT["datasets"]
WL_DATAGEN = f"{BUILD}/workloads/datagen"
WL_DIR = "{RESULTS}/{{scale}}/datasets".format(RESULTS=RESULTS)
WL_REAL_FILES = {e["real"]["file"]: n for n, e in WL_DATASETS.items() if e["kind"] == "real"}
WL_DOWNLOADABLE = {f: n for f, n in WL_REAL_FILES.items() if WL_DATASETS[n]["real"]["md5"]}
_WL_DEFAULTS = {"smoke": {"real": "prefer", "lookup_seed": 7},
                "local": {"real": "prefer", "lookup_seed": 7},
                "paper": {"real": "require", "lookup_seed": 7}}


def wl_policy(scale, key):
    """A `datasets` setting of a scale file, with the defaults above while a
    scale file has no such section."""
    return SCALES[scale].get("datasets", {}).get(key, _WL_DEFAULTS[scale][key])


def wl_dataset_files(scale):
    """Every dataset file (and companion) of the catalogue at a scale."""
    files = []
    for name, e in WL_DATASETS.items():
        f = f"{RESULTS}/{scale}/datasets/{_wl_catalogue.file_name(WL_CAT, name)}"
        files += [f, f + ".manifest.json"]
        if "key_lengths" in e:
            files.append(f"{RESULTS}/{scale}/datasets/{name}_keylen_uint32")
    for s in WL_CAT["size_sets"]:
        files += [f"{RESULTS}/{scale}/datasets/sizes_{s}_{side}_uint32" for side in ("key", "value")]
    return files


def wl_real_input(wildcards):
    """The real file a dataset needs at this scale: an input (downloaded when
    missing) under `require`; under `prefer` only when it is already there,
    so placing a file later rebuilds the dataset from it."""
    e = WL_DATASETS[wildcards.name]
    if e["kind"] != "real":
        return []
    path = f"{config['data_dir']}/{e['real']['file']}"
    if wl_policy(wildcards.scale, "real") == "require" or os.path.exists(path):
        return [path]
    return []


def wl_sources():
    """Everything datagen is built from, so an edit rebuilds it."""
    return ["workloads/CMakeLists.txt"] + sorted(
        p for ext in ("cc", "h") for p in _glob.glob(f"workloads/**/*.{ext}", recursive=True)
        if "/tests/" not in p)


wildcard_constraints:
    name="|".join(sorted(WL_DATASETS)),
    width="uint32|uint64",
    sizeset="|".join(sorted(WL_CAT["size_sets"])),
    side="key|value",
    realfile="|".join(sorted(WL_DOWNLOADABLE)),


rule workloads_datagen:
    input:
        wl_sources(),
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


rule dataset:
    input:
        datagen=WL_DATAGEN,
        catalogue="workloads/datasets.yaml",
        real=wl_real_input,
    output:
        sosd=f"{WL_DIR}/{{name}}_{{width}}",
        manifest=f"{WL_DIR}/{{name}}_{{width}}.manifest.json",
    params:
        real=lambda w: wl_policy(w.scale, "real"),
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/datasets/{{name}}_{{width}}.log",
    shell:
        "{PY} workloads.materialize --dataset {wildcards.name} --scale {wildcards.scale}"
        " --out {output.sosd} --datagen {input.datagen} --data-dir {config[data_dir]}"
        " --real {params.real} > {log} 2>&1 || (tail -1 {log} >&2; exit 2)"


rule dataset_key_lengths:
    input:
        datagen=WL_DATAGEN,
        manifest=f"{WL_DIR}/{{name}}_uint64.manifest.json",
    output:
        f"{WL_DIR}/{{name}}_keylen_uint32",
        f"{WL_DIR}/{{name}}_keylen_uint32.manifest.json",
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/datasets/{{name}}_keylen.log",
    shell:
        "{PY} workloads.materialize --key-lengths-of {wildcards.name} --scale {wildcards.scale}"
        " --out {output[0]} --datagen {input.datagen} > {log} 2>&1 || (tail -1 {log} >&2; exit 2)"


rule dataset_sizes:
    input:
        datagen=WL_DATAGEN,
        catalogue="workloads/datasets.yaml",
    output:
        f"{WL_DIR}/sizes_{{sizeset}}_{{side}}_uint32",
        f"{WL_DIR}/sizes_{{sizeset}}_{{side}}_uint32.manifest.json",
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/datasets/sizes_{{sizeset}}_{{side}}.log",
    shell:
        "{PY} workloads.materialize --size-set {wildcards.sizeset} --side {wildcards.side}"
        " --scale {wildcards.scale} --out {output[0]} --datagen {input.datagen}"
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
        seed=lambda w: wl_policy(w.scale, "lookup_seed"),
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/datasets/{{name}}_lookups_{{nlookups}}_neg{{pct}}.log",
    shell:
        "{input.datagen} lookups --keys {input.sosd} --count {wildcards.nlookups}"
        " --negative-share {params.share} --seed {params.seed} --out {output} > {log} 2>&1"
        " || (tail -1 {log} >&2; exit 2)"


rule sosd_download:
    output:
        f"{config['data_dir']}/{{realfile}}",
    params:
        name=lambda w: WL_DOWNLOADABLE[w.realfile],
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/logs/downloads/{{realfile}}.log",
    shell:
        "{PY} workloads.sosd_fetch --dataset {params.name} --data-dir {config[data_dir]}"
        " > {log} 2>&1 || (tail -1 {log} >&2; exit 2)"


rule datasets:
    input:
        wl_dataset_files(config["scale"]),


rule datasets_table1:
    input:
        [f for f in wl_dataset_files(config["scale"]) if f.endswith(".manifest.json")],
    output:
        f"{RESULTS}/{config['scale']}/datasets/table1.json",
    params:
        manifests=f"{RESULTS}/{config['scale']}/datasets",
    conda:
        CONDA_ENV
    shell:
        "{PY} workloads.catalogue table1 --manifests {params.manifests} > {output}"

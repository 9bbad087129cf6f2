"""Path and policy helpers of workloads/workloads.smk, kept out of the rule
file (Snakemake's lint: rules and functions apart) and testable on their own."""
import glob
import os

from workloads import catalogue

# How a scale treats real files when its config has no `datasets` section.
DEFAULTS = {"smoke": {"real": "prefer", "lookup_seed": 7},
            "local": {"real": "prefer", "lookup_seed": 7},
            "paper": {"real": "require", "lookup_seed": 7}}


def policy(scales, scale, key):
    """A setting of the `datasets` section of a scale file."""
    return scales[scale].get("datasets", {}).get(key, DEFAULTS[scale][key])


def dataset_files(cat, results, scale):
    """Every dataset file (and companion) of the catalogue at a scale."""
    d = f"{results}/{scale}/datasets"
    files = []
    for name, e in cat["datasets"].items():
        f = f"{d}/{catalogue.file_name(cat, name)}"
        files += [f, f + ".manifest.json"]
        if "key_lengths" in e:
            files.append(f"{d}/{name}_keylen_uint32")
    for s in cat["size_sets"]:
        files += [f"{d}/sizes_{s}_{side}_uint32" for side in ("key", "value")]
    return files


def real_input(cat, scales, data_dir, name, scale):
    """The real file a dataset needs at this scale: an input (so it is
    downloaded when missing) under `require`; under `prefer` only when it is
    already there, so placing a file later rebuilds the dataset from it."""
    e = cat["datasets"][name]
    if e["kind"] != "real":
        return []
    path = f"{data_dir}/{e['real']['file']}"
    if policy(scales, scale, "real") == "require" or os.path.exists(path):
        return [path]
    return []


def downloadable(cat):
    """Real file name -> dataset, for files with a published checksum."""
    return {e["real"]["file"]: n for n, e in cat["datasets"].items()
            if e["kind"] == "real" and e["real"]["md5"]}


def hardness_sources(root="indexes"):
    """Everything lidx_hardness is built from (its tool and lidx's headers)."""
    return [f"{root}/CMakeLists.txt", f"{root}/tools/lidx_hardness.cc"] + sorted(
        glob.glob(f"{root}/include/**/*.h", recursive=True))


def datagen_sources(root="workloads"):
    """Everything datagen is built from, so an edit rebuilds it."""
    return [f"{root}/CMakeLists.txt"] + sorted(
        p for ext in ("cc", "h") for p in glob.glob(f"{root}/**/*.{ext}", recursive=True)
        if "/tests/" not in p)

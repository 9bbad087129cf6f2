"""The dataset catalogue (workloads/datasets.yaml): loading, validation,
lookups by name, and the rows of lsm-eval's Table 1.

    python -m workloads.catalogue check
    python -m workloads.catalogue list
    python -m workloads.catalogue table1 --scale local --manifests results/local/datasets
"""
import argparse
import json
import re
import sys
from pathlib import Path

from base.yamlio import load_yaml, validate
from base.errors import InputError, cli
from workloads import hardness

HERE = Path(__file__).resolve().parent
CATALOGUE = HERE / "datasets.yaml"
SCHEMA = HERE / "datasets.schema.yaml"
REPO = HERE.parent


def load(path=CATALOGUE, studies=None):
    """The validated catalogue as a dict. Beyond the schema, checks what a
    schema cannot: mixes name existing files, size sets pair with known
    datasets, and, when `studies` (the registered study ids, which live a
    layer above: lsmrepro/plan/studies.py passes them) is given, that `uses`
    name registered studies."""
    data = load_yaml(path)
    validate(data, SCHEMA, path)
    for name, entry in data["datasets"].items():
        for i, use in enumerate(entry["uses"]):
            if studies is not None and use["study"] not in studies:
                raise InputError(path, f"datasets.{name}.uses.{i}.study",
                                 f"a study of paper/studies.yaml ({', '.join(studies)}), got {use['study']!r}")
            enc = use["key_encoding"]
            if enc == "decimal_var" and "key_lengths" not in entry:
                raise InputError(path, f"datasets.{name}.key_lengths", "expected for key_encoding decimal_var")
            want = key_bytes_of(enc, entry)
            if want is not None and use["key_bytes"] != want:
                raise InputError(path, f"datasets.{name}.uses.{i}.key_bytes",
                                 f"expected {want}, the key size key_encoding {enc} writes, got {use['key_bytes']}")
    for name, s in data["size_sets"].items():
        if s["pairs_with"] not in data["datasets"]:
            raise InputError(path, f"size_sets.{name}.pairs_with",
                             f"expected a dataset name, got {s['pairs_with']!r}")
    for name, spec in data["mixes"].items():
        if not (REPO / spec).is_file():
            raise InputError(path, f"mixes.{name}", f"expected an existing YCSB property file, got {spec!r}")
    return data


def key_bytes_of(encoding, entry):
    """The key size lsmbench writes for `encoding` (engines/driver/src/
    key_codec.h): the fixed width, the longest of the dataset's key lengths
    for decimal_var; None for ycsb_user, whose names vary with the hash."""
    if encoding == "be64":
        return 8
    if m := re.fullmatch(r"(?:be64_pad|decimal)(\d+)", encoding):
        return int(m[1])
    if encoding == "decimal_var":
        return entry["key_lengths"]["uniform"][1]
    return None


def entry(catalogue, name, path=CATALOGUE):
    try:
        return catalogue["datasets"][name]
    except KeyError:
        raise InputError(path, f"datasets.{name}", "unknown dataset (see `python -m workloads.catalogue list`)") from None


def file_name(catalogue, name):
    """File name of a dataset in results/<scale>/datasets/."""
    return f"{name}_{entry(catalogue, name)['key_type']}"


def generator_of(e):
    """(generator, params, seed, stand_in) that makes this dataset when it is
    generated rather than read from a real file."""
    if e["kind"] == "synthetic":
        return e["generator"], e.get("params", {}), e["seed"], False
    s = e["stand_in"]
    return s["generator"], s.get("params", {}), s["seed"], True


def table1_rows(catalogue, manifests_dir, study="lsm-eval"):
    """One row per dataset a study lists in its Table 1, from the manifests
    that the dataset rules wrote (so stand-ins are labelled and the counts
    are what was built, not what the paper says)."""
    rows = []
    for name, e in catalogue["datasets"].items():
        for use in e["uses"]:
            if use["study"] != study or "tab1" not in use["figures"]:
                continue
            mpath = Path(manifests_dir) / f"{file_name(catalogue, name)}.manifest.json"
            if not mpath.is_file():
                raise InputError(mpath, "", "manifest missing: build the dataset first")
            m = json.loads(mpath.read_text())
            label = use["label"] + (" (stand-in)" if m["stand_in"] else "")
            entry_bytes = use["key_bytes"] + use["value_bytes"]
            rows.append({
                "dataset": label,
                "size_gib": round(m["count"] * entry_bytes / 2**30, 3),
                "entries": m["count"],
                "key_bytes": use["key_bytes"],
                "value_bytes": use["value_bytes"],
                "stand_in": m["stand_in"],
                "pla_segments_vs_real": hardness.describe(m.get("hardness")),
            })
    return rows


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["check", "list", "table1"])
    ap.add_argument("--catalogue", default=CATALOGUE)
    ap.add_argument("--manifests", help="results/<scale>/datasets (table1)")
    args = ap.parse_args(argv)
    cat = load(args.catalogue)
    if args.command == "check":
        print(f"{args.catalogue}: ok ({len(cat['datasets'])} datasets)")
    elif args.command == "list":
        for name, e in cat["datasets"].items():
            print(f"{name:18} {e['kind']:9} {e['size']['local']:>11} {e['description']}")
    else:
        if not args.manifests:
            raise InputError("table1", "--manifests", "expected the directory of dataset manifests")
        json.dump(table1_rows(cat, args.manifests), sys.stdout, indent=1)
        print()


if __name__ == "__main__":
    main()

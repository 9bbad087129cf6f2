"""Builds one catalogue dataset at one scale: its SOSD key file (plus any
companion length file) and the manifest beside it.

Real datasets: the real file from the data folder, verified and downsampled
SOSD's way, when it is there; otherwise the stand-in, labelled as such,
unless the scale's policy is `require` (paper), which fails naming the file.

    python -m workloads.materialize --dataset osm --scale local \
        --out results/local/datasets/osm_uint64 --datagen build/workloads/datagen \
        --data-dir data --real prefer
    python -m workloads.materialize --size-set udb --side key --scale local \
        --out results/local/datasets/sizes_udb_key_uint32 --datagen build/workloads/datagen
"""
import argparse
import hashlib
import json
import subprocess
import time
from pathlib import Path

from base.errors import InputError, cli
from workloads import catalogue, hardness, manifest, sosd_fetch


def _datagen(datagen, *args):
    """Runs datagen; its one-line error becomes an InputError."""
    proc = subprocess.run([str(datagen), *map(str, args)], capture_output=True, text=True)
    if proc.returncode != 0:
        msg = proc.stderr.strip().removeprefix("error: ")
        raise InputError(datagen, args[0], msg or f"exit status {proc.returncode}")
    return json.loads(proc.stdout)


def _catalogue_digest():
    return hashlib.sha256(catalogue.CATALOGUE.read_bytes()).hexdigest()


def _param_args(params):
    return [a for k, v in sorted(params.items()) for a in ("--param", f"{k}={v}")]


def dataset(name, scale, out, datagen, data_dir, real_policy, cat=None, lidx_hardness=None):
    """The dataset file and its manifest; with `lidx_hardness` (the tool), the
    manifest's `hardness` for a set with a published real-set count
    (workloads/hardness.py), the real file's downsample as the stand-in's."""
    cat = cat or catalogue.load()
    e = catalogue.entry(cat, name)
    out = Path(out)
    if out.name != catalogue.file_name(cat, name):
        raise InputError(out, "name", f"expected {catalogue.file_name(cat, name)} for dataset {name}")
    out.parent.mkdir(parents=True, exist_ok=True)
    size = e["size"][scale]
    facts = {"schema_version": manifest.SCHEMA_VERSION, "dataset": name, "scale": scale,
             "file": out.name, "key_type": e["key_type"], "description": e["description"],
             "uses": e["uses"], "catalogue_sha256": _catalogue_digest()}
    started = time.monotonic()
    real_path = Path(data_dir) / e["real"]["file"] if e["kind"] == "real" else None
    if real_path is not None and real_path.exists():
        check = sosd_fetch.verify(real_path, e["real"])
        got = _datagen(datagen, "downsample", "--in", real_path, "--count", size, "--out", out)
        facts.update(source="real", stand_in=False, count=got["count"], duplicates=got["duplicates"],
                     min=got["min"], max=got["max"],
                     real={"file": e["real"]["file"], "url": e["real"]["url"], **check,
                           "source_count": got["source_count"], "source_duplicates": got["source_duplicates"],
                           "downsample": f"every {got['step']}-th key (SOSD's rule)", "downsample_step": got["step"]})
    else:
        if real_path is not None and real_policy == "require":
            raise InputError(real_path, "file",
                             f"missing: the {scale} scale requires the real {e['real']['file']} "
                             f"(md5 {e['real']['md5']}, {e['real']['url']}); stand-ins are for smoke/local only")
        gen, params, seed, stand_in = catalogue.generator_of(e)
        got = _datagen(datagen, "gen", "--generator", gen, "--count", size, "--seed", seed,
                       *_param_args(params), "--out", out)
        facts.update(source="generated", stand_in=stand_in, generator=gen, params=params, seed=seed,
                     count=got["count"], duplicates=got["duplicates"], min=got["min"], max=got["max"])
        if stand_in:
            facts["stands_in_for"] = e["real"]["file"]
            facts["label_suffix"] = " (stand-in)"
    if lidx_hardness and e["key_type"] == "uint64" and hardness.applies(name):
        facts["hardness"] = hardness.manifest_block(lidx_hardness, name, out)
    facts["seconds"] = round(time.monotonic() - started, 3)
    facts["sha256"] = manifest.sha256_of(out)
    manifest.write(out.with_name(out.name + ".manifest.json"), facts)
    return facts


def key_lengths(name, scale, out, datagen, cat=None):
    """The per-key length file of a dataset whose keys are written with
    varying lengths (catalogue field key_lengths), one entry per key of the
    dataset built at this scale (read from its manifest beside `out`)."""
    cat = cat or catalogue.load()
    e = catalogue.entry(cat, name)
    if "key_lengths" not in e:
        raise InputError(catalogue.CATALOGUE, f"datasets.{name}.key_lengths", "expected for a key-length file")
    out = Path(out)
    m = manifest.read(out.with_name(f"{catalogue.file_name(cat, name)}.manifest.json"))
    kl = e["key_lengths"]
    _datagen(datagen, "sizes", "--count", m["count"], "--seed", kl["seed"],
             "--uniform", kl["uniform"][0], kl["uniform"][1], "--out", out)
    facts = {"schema_version": manifest.SCHEMA_VERSION, "dataset": f"{name}_keylen", "scale": scale,
             "file": out.name, "count": m["count"], "stand_in": False, "source": "generated",
             "distribution": {"uniform": kl["uniform"]}, "seed": kl["seed"], "pairs_with": name,
             "sha256": manifest.sha256_of(out)}
    manifest.write(out.with_name(out.name + ".manifest.json"), facts)
    return facts


def size_set(name, side, scale, out, datagen, cat=None):
    cat = cat or catalogue.load()
    try:
        s = cat["size_sets"][name]
    except KeyError:
        raise InputError(catalogue.CATALOGUE, f"size_sets.{name}", "unknown size set") from None
    d = s[side]
    count = catalogue.entry(cat, s["pairs_with"])["size"][scale]
    seed = s["seed"] + (0 if side == "key" else 1)  # key and value sizes independent
    got = _datagen(datagen, "sizes", "--count", count, "--seed", seed, "--normal", d["mean"], d["sd"],
                   "--min", d["min"], "--out", out)
    facts = {"schema_version": manifest.SCHEMA_VERSION, "dataset": f"sizes_{name}_{side}", "scale": scale,
             "file": Path(out).name, "count": count, "stand_in": False, "source": "generated",
             "distribution": {"normal": [d["mean"], d["sd"]], "min": d["min"]}, "seed": seed,
             "mean": got["mean"], "pairs_with": s["pairs_with"], "sha256": manifest.sha256_of(out)}
    manifest.write(Path(out).with_name(Path(out).name + ".manifest.json"), facts)
    return facts


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--dataset")
    what.add_argument("--size-set")
    what.add_argument("--key-lengths-of", help="dataset whose key-length file to write")
    ap.add_argument("--side", choices=["key", "value"])
    ap.add_argument("--scale", required=True, choices=["smoke", "local", "paper"])
    ap.add_argument("--out", required=True)
    ap.add_argument("--datagen", required=True)
    ap.add_argument("--data-dir", default="data")
    ap.add_argument("--real", choices=["prefer", "require"], default="prefer")
    ap.add_argument("--lidx-hardness", help="the lidx_hardness tool: the manifest's `hardness` (workloads/hardness.py)")
    args = ap.parse_args(argv)
    if args.dataset:
        f = dataset(args.dataset, args.scale, args.out, args.datagen, args.data_dir, args.real,
                    lidx_hardness=args.lidx_hardness)
    elif args.key_lengths_of:
        f = key_lengths(args.key_lengths_of, args.scale, args.out, args.datagen)
    else:
        if not args.side:
            raise InputError("materialize", "--side", "expected key or value with --size-set")
        f = size_set(args.size_set, args.side, args.scale, args.out, args.datagen)
    print(json.dumps({k: f[k] for k in ("dataset", "count", "stand_in", "sha256")}))


if __name__ == "__main__":
    main()

"""Dataset manifests: the JSON beside every dataset file saying what it is
(generator, params, seed or real source and checksum), what it holds (count,
duplicates, range), its sha256, and whether it is a stand-in.

    python -m workloads.manifest verify results/local/datasets/fb_uint64.manifest.json
"""
import argparse
import json
from pathlib import Path

from base.download import file_hash
from base.atomic import write_text
from base.errors import InputError, cli

SCHEMA_VERSION = 1
REQUIRED = ("schema_version", "dataset", "scale", "file", "count", "sha256", "stand_in", "source")


def sha256_of(path):
    return file_hash(path, "sha256")


def write(path, facts):
    """Writes a manifest atomically (a killed job leaves no manifest)."""
    missing = [k for k in REQUIRED if k not in facts]
    if missing:
        raise ValueError(f"manifest for {path} lacks {missing}")
    write_text(path, json.dumps(facts, indent=1, sort_keys=True) + "\n")


def read(path):
    path = Path(path)
    try:
        m = json.loads(path.read_text())
    except FileNotFoundError:
        raise InputError(path, "", "manifest not found") from None
    except ValueError as e:
        raise InputError(path, "", f"valid JSON expected ({e})") from None
    for k in REQUIRED:
        if k not in m:
            raise InputError(path, k, "expected in every dataset manifest")
    return m


def verify(path):
    """Re-hashes the dataset file a manifest describes."""
    path = Path(path)
    m = read(path)
    data = path.with_name(m["file"])
    if not data.is_file():
        raise InputError(data, "file", f"missing (named by {path})")
    got = sha256_of(data)
    if got != m["sha256"]:
        raise InputError(data, "sha256", f"expected {m['sha256']} (from {path.name}), got {got}")
    return m


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["verify"])
    ap.add_argument("manifests", nargs="+")
    args = ap.parse_args(argv)
    for p in args.manifests:
        m = verify(p)
        print(f"{p}: ok ({m['count']} keys{', stand-in' if m['stand_in'] else ''})")


if __name__ == "__main__":
    main()

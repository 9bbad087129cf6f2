"""A stand-in's learned-index hardness beside the real set's published one.

Hardness is the number of optimal PLA segments at an epsilon (lidx_hardness,
indexes/tools/lidx_hardness.cc). A k-fold downsample at epsilon e has about
the segments of the full set at k*e (every k-th key: positions shrink k-fold,
so an error of e positions there is k*e here); so our n keys at e compare with
the published N-key set at (N/n)*e, read off its published curve by
interpolating log segments linearly in log epsilon between published epsilons.

    python -m workloads.hardness --lidx-hardness build/.../lidx_hardness \\
        --dataset fb --file results/local/datasets/fb_uint64 --eps 4,32
"""
import argparse
import json
import math
import subprocess
from pathlib import Path

from base.errors import InputError, cli
from base.yamlio import load_yaml

PUBLISHED = Path(__file__).with_name("hardness_published.yaml")
# the chosen epsilons at `local` (5M keys): 160 and 1280 of a 200M-key set
EPSILONS = (4, 32)


def published_at(curve, eps):
    """Segments of the published curve {eps: segments} at eps (log-log
    interpolation between the two published epsilons around it); None outside."""
    points = sorted((float(e), float(s)) for e, s in curve.items())
    for (e0, s0), (e1, s1) in zip(points, points[1:]):
        if e0 <= eps <= e1:
            t = (math.log(eps) - math.log(e0)) / (math.log(e1) - math.log(e0))
            return math.exp(math.log(s0) + t * (math.log(s1) - math.log(s0)))
    return None


def compare(dataset, keys, segments, published=None):
    """{eps: {segments, published_eps, published_segments}} for our `keys`
    keys with `segments` {eps: count}; {} when nothing is published for it."""
    published = published or load_yaml(PUBLISHED)
    curve = (published.get("segments") or {}).get(dataset)
    if not curve:
        return {}
    k = published["keys"] / keys
    out = {}
    for eps, count in segments.items():
        at = published_at(curve, k * float(eps))
        if at is not None:
            out[str(eps)] = {"segments": count, "published_eps": round(k * float(eps), 3),
                             "published_segments": round(at)}
    return out


def measure(tool, path, epsilons=EPSILONS):
    proc = subprocess.run([str(tool), "--in", str(path), "--eps", ",".join(map(str, epsilons))],
                          capture_output=True, text=True)
    if proc.returncode:
        raise InputError(path, "hardness", proc.stderr.strip() or f"lidx_hardness exit {proc.returncode}")
    return json.loads(proc.stdout)


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lidx-hardness", required=True)
    ap.add_argument("--dataset", required=True, help="the catalogue name (fb, osm, books, ...)")
    ap.add_argument("--file", required=True, help="the dataset's SOSD file")
    ap.add_argument("--eps", default=",".join(map(str, EPSILONS)))
    args = ap.parse_args(argv)
    got = measure(args.lidx_hardness, args.file, [int(e) for e in args.eps.split(",")])
    print(json.dumps({"keys": got["keys"], "epsilons": compare(args.dataset, got["keys"], got["segments"])}, indent=1))


if __name__ == "__main__":
    main()

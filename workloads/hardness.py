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


def applies(dataset, published=None):
    """Whether a dataset's manifest carries hardness: a published curve, or
    a reason none is published (`unpublished`)."""
    published = published or load_yaml(PUBLISHED)
    return dataset in (published.get("segments") or {}) or dataset in (published.get("unpublished") or {})


def manifest_block(tool, dataset, path, published=None):
    """The manifest's `hardness`: our segments per chosen epsilon beside the
    published real set's at k*e (regime data_hardness reads it), its source,
    and the mapping; where nothing is published, our segments and why."""
    published = published or load_yaml(PUBLISHED)
    got = measure(tool, path)
    compared = compare(dataset, got["keys"], got["segments"], published)
    block = {"tool": "lidx_hardness (optimal PLA segments, indexes/tools/lidx_hardness.cc)",
             "mapping": f"our n keys at e ~ the published {published['keys']}-key set at "
                        f"({published['keys']}/n)*e (every-k-th-key downsample)",
             "epsilons": {str(e): compared.get(str(e), {"segments": c}) for e, c in got["segments"].items()}}
    if dataset in (published.get("segments") or {}):
        block["source"] = published["source"]
    else:
        block["unpublished"] = published["unpublished"][dataset]
    return block


def describe(block):
    """A manifest's `hardness` in one line for the dataset tables: ours beside
    the real set's per epsilon ("" without one)."""
    if not block:
        return ""
    parts = []
    for eps, h in sorted(block["epsilons"].items(), key=lambda kv: float(kv[0])):
        if h.get("published_segments"):
            parts.append(f"e={eps}: {h['segments']} vs {h['published_segments']} at e={h['published_eps']:g}"
                         f" ({h['segments'] / h['published_segments']:.2f}x)")
        else:
            parts.append(f"e={eps}: {h['segments']}")
    return "; ".join(parts) + (f" ({block['unpublished']})" if "unpublished" in block else "")


def measure(tool, path, epsilons=EPSILONS, every=1):
    """{keys, segments: {eps: count}} of the SOSD file (of its every-th key)."""
    proc = subprocess.run([str(tool), "--in", str(path), "--eps", ",".join(map(str, epsilons)),
                           "--every", str(every)], capture_output=True, text=True)
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

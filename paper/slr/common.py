"""What the slr study's figures share: the search mechanisms as the paper
names them (with binary search twice: LevelDB's own reader, the paper's
baseline, and SLR's reader, which counts comparisons), the datasets' keys
(SOSD files), and least-squares segment fits (the linearity §3 speaks of)."""
import json

import numpy as np

# `slr` option value -> the paper's name (Fig. 8's order).
MECHANISMS = {
    "off": "binary search\n(LevelDB's reader)",
    "binary": "binary search",
    "eq": "equal-size SLR",
    "ea": "error-aware SLR",
    "eq-bad": "equal-size SLR\nwith bad segments",
}
COLORS = {"off": "#8c8c8c", "binary": "#4c72b0", "eq": "#dd8452", "ea": "#55a868", "eq-bad": "#c44e52"}
# Line styles that keep coinciding curves visible (eq-bad equals eq where no
# segment is bad; ea equals binary where its model was abandoned).
STYLES = {"off": ("d", "-"), "binary": ("o", "-"), "eq": ("s", "-"), "ea": ("^", "--"), "eq-bad": ("x", ":")}
KV_BYTES = 8 + 64  # key + value of every loaded pair (experiments.yaml: be64 keys, value_bytes 64)


def mechanisms(rows):
    """The mechanisms present in these rows, in the paper's order."""
    present = set(rows["slr"].astype(str)) if "slr" in rows.columns else set()
    return [m for m in MECHANISMS if m in present]


def labels(spec):
    """dataset name -> the figure's label (experiments.yaml `datasets`)."""
    d = spec["datasets"]
    return {v: k for k, v in d.items()} if isinstance(d, dict) else {x: x for x in d}


def read_keys(path):
    """Keys of an SOSD file (uint64 count, then that many uint64 keys)."""
    data = np.fromfile(path, dtype="<u8")
    if len(data) == 0 or int(data[0]) != len(data) - 1:
        raise ValueError(f"{path}: an SOSD uint64 file expected (count header {data[:1]}, {len(data) - 1} keys)")
    return data[1:]


def manifest(path):
    with open(f"{path}.manifest.json") as f:
        return json.load(f)


def dataset_title(label, path):
    """'OSM (stand-in for osm_cellids_800M_uint64, 200,000 keys)'."""
    m = manifest(path)
    if m.get("stand_in"):
        what = f"stand-in for {m.get('stands_in_for', m['dataset'])}"
    else:  # a generated set here stands in for a paper's unpublished one (workloads/datasets.yaml)
        what = "generated stand-in" if m.get("source") == "generated" else "real file"
    return f"{label} ({what}, {m['count']:,} keys)"


def fit(keys, positions):
    """Least-squares line positions ~ keys; keys relative to the first one
    (exact in integers, then float: uint64 keys exceed float's 53 bits).
    Returns (slope, intercept relative to keys[0], errors)."""
    x = (keys - keys[0]).astype(np.float64)
    y = np.asarray(positions, dtype=np.float64)
    if len(x) < 2 or np.ptp(x) == 0:
        return 0.0, float(y.mean()), y - y.mean()
    slope, intercept = np.polyfit(x, y, 1)
    return float(slope), float(intercept), y - (slope * x + intercept)


def segment_errors(keys, segments):
    """Worst and mean absolute error (positions) of `segments` equal-size
    least-squares segments over sorted keys."""
    worst, total = 0.0, 0.0
    for idx in np.array_split(np.arange(len(keys)), segments):
        if len(idx) == 0:
            continue
        _, _, err = fit(keys[idx], idx)
        worst = max(worst, float(np.abs(err).max()))
        total += float(np.abs(err).sum())
    return worst, total / len(keys)


def windows_fit(keys, width):
    """Worst error and key span of the least-squares line of every
    non-overlapping window of `width` consecutive keys (vectorised)."""
    n = len(keys) // width
    k = keys[: n * width].reshape(n, width)
    x = (k - k[:, :1]).astype(np.float64)
    y = np.arange(width, dtype=np.float64)
    xm = x.mean(axis=1, keepdims=True)
    sxx = ((x - xm) ** 2).sum(axis=1, keepdims=True)
    slope = np.divide(((x - xm) * (y - y.mean())).sum(axis=1, keepdims=True), sxx,
                      out=np.zeros_like(sxx), where=sxx > 0)
    pred = y.mean() + slope * (x - xm)
    worst = np.abs(y - pred).max(axis=1)
    return worst, x[:, -1]



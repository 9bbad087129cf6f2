"""bourbon/fig7 (paper Figure 7): the CDF of linear, seg-10%, normal and
OSM (position against key, both normalised), each with an inset magnified
around its 15th percentile, as the paper draws it."""
import numpy as np
import pandas as pd

from paper import plotting
from paper.bourbon import common
from paper.slr import common as keyfiles

MAX_POINTS = 100_000  # points drawn per curve (every k-th key)
ZOOM = 0.15           # the paper magnifies around the 15th percentile
ZOOM_KEYS = 200       # keys shown in the inset


def title(label, path):
    """'seg-10% (generated, 200,000 keys)', or a real file, or a labelled stand-in."""
    m = keyfiles.manifest(path)
    if m.get("source") == "generated" and not m.get("stand_in"):
        return f"{label} (generated, {m['count']:,} keys)"
    return keyfiles.dataset_title(label, path)


def figure(rows, spec):
    plotting.style()
    files = spec["dataset_files"]
    labels = keyfiles.labels(spec)
    fig, axes = plotting.panels(1, len(files), 4.6, 3.8)
    table = []
    for ax, (name, path) in zip(axes[0], files.items()):
        label = common.dataset_name(labels[name])
        keys = keyfiles.read_keys(path)
        n = len(keys)
        lo, span = keys[0], float(keys[-1] - keys[0]) or 1.0
        norm = (keys - lo).astype(np.float64) / span
        shown = np.arange(0, n, max(1, n // MAX_POINTS))
        ax.plot(norm[shown], shown / n, lw=1.2)
        ax.set_xlabel("key (normalised)")
        ax.set_ylabel("CDF")
        ax.set_title(title(label, path), fontsize=8)
        at = int(ZOOM * n)
        window = np.arange(max(0, at - ZOOM_KEYS // 2), min(n, at + ZOOM_KEYS // 2))
        inset = ax.inset_axes([0.55, 0.1, 0.4, 0.4])
        inset.plot((keys[window] - keys[window[0]]).astype(np.float64), window / n, lw=1, marker=".", ms=2)
        inset.set_title(f"{len(window)} keys around p15", fontsize=7)
        inset.tick_params(labelsize=6)
        gaps = np.diff(keys.astype(np.float64))
        table.append({"dataset": label, "file": keyfiles.manifest(path)["file"],
                      "stand_in": bool(keyfiles.manifest(path).get("stand_in")), "keys": n,
                      "min key": int(keys[0]), "max key": int(keys[-1]),
                      "gap median": float(np.median(gaps)) if len(gaps) else 0.0,
                      "gap max / median": float(gaps.max() / max(np.median(gaps), 1)) if len(gaps) else 0.0})
    fig.tight_layout()
    return fig, pd.DataFrame(table)

"""slr/fig3 (paper Figure 3): the CDF of each dataset, keys against their
sorted position, with the measured linearity (20 equal-size least-squares
segments) beside it."""
import numpy as np
import pandas as pd

from paper import plotting
from paper.slr import common

SEGMENTS = 20  # the paper's default number of equal-size segments
MAX_POINTS = 100_000  # points drawn per curve (every k-th key); the table uses all keys


def figure(rows, spec):
    plotting.style()
    files = spec["dataset_files"]
    fig, axes = plotting.panels(1, len(files), 5.2, 3.8)
    table = []
    labels = common.labels(spec)
    for ax, (name, path) in zip(axes[0], files.items()):
        label = labels[name]
        keys = common.read_keys(path)
        n = len(keys)
        step = max(1, n // MAX_POINTS)
        shown = np.arange(0, n, step)
        ax.plot(keys[shown].astype(np.float64), shown / n, lw=1.2)
        ax.set_xlabel("key")
        ax.set_ylabel("CDF (position / keys)")
        ax.set_title(common.dataset_title(label, path), fontsize=9)
        worst1, mean1 = common.segment_errors(keys, 1)
        worst, mean = common.segment_errors(keys, SEGMENTS)
        ax.text(0.03, 0.95, f"{SEGMENTS} equal-size segments:\nworst error {worst:,.0f}, mean {mean:,.1f} positions",
                transform=ax.transAxes, va="top", fontsize=8,
                bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "none"})
        m = common.manifest(path)
        lo, hi = float(keys[0]), float(keys[-1])
        # The paper's unevenness: share of keys in the densest tenth of the key range.
        edges = np.linspace(lo, hi, 11)
        counts = np.histogram(keys.astype(np.float64), bins=edges)[0]
        table.append({
            "dataset": label, "file": m["file"], "stand_in": bool(m.get("stand_in")), "keys": n,
            "min key": int(keys[0]), "max key": int(keys[-1]),
            "keys in densest tenth of range (%)": 100 * counts.max() / n,
            "1 segment: worst error": worst1, "1 segment: mean error": mean1,
            f"{SEGMENTS} segments: worst error": worst, f"{SEGMENTS} segments: mean error": mean,
        })
    fig.suptitle("Cumulative distribution function of the datasets (Figure 3)")
    fig.tight_layout()
    return fig, pd.DataFrame(table)

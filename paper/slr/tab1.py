"""slr/tab1 (paper Table 1): 16 consecutive keys that keep linearity, cut
from the data by the rule the caption states: of all non-overlapping windows
of 16 keys, the one whose own least-squares line has the smallest worst
error, ties broken by the smallest key span, then the first."""
import numpy as np
import pandas as pd

from paper.slr import common

WIDTH = 16  # rows of the paper's Table 1


def figure(rows, spec):
    (name, path), = spec["dataset_files"].items()
    label = common.labels(spec)[name]
    keys = common.read_keys(path)
    worst, span = common.windows_fit(keys, WIDTH)
    best = int(np.lexsort((np.arange(len(worst)), span, worst))[0])
    first = best * WIDTH
    window = keys[first:first + WIDTH]
    positions = np.arange(first, first + WIDTH)
    slope, intercept, err = common.fit(window, positions)
    table = pd.DataFrame({
        "key": [int(k) for k in window],
        "location": positions,
        "predicted location": positions - err,
        "error": err,
    })
    table["line (one least-squares fit)"] = ""
    table.loc[0, "line (one least-squares fit)"] = (
        f"location = {slope:.6g} x (key - {int(window[0])}) + {intercept:.4f}; "
        f"worst error {np.abs(err).max():.3f} (rule: smallest worst error of {len(worst):,} windows of {WIDTH}; "
        f"{common.dataset_title(label, path)})")
    return None, table

"""slr/tab2 (paper Table 2): 16 consecutive keys that break linearity, cut
by the rule the caption states: centred on the largest gap between two
neighbouring keys in the middle 90% of the set; one least-squares line over
all 16 against two segments split at the gap (§3)."""
import numpy as np
import pandas as pd

from paper.slr import common

WIDTH = 16  # rows of the paper's Table 2
MIDDLE = 0.9  # share of the set searched for the gap (its ends are sparse tails)


def figure(rows, spec):
    (name, path), = spec["dataset_files"].items()
    label = common.labels(spec)[name]
    keys = common.read_keys(path)
    n = len(keys)
    lo, hi = int(n * (1 - MIDDLE) / 2), int(n * (1 + MIDDLE) / 2)
    gaps = np.diff(keys[lo:hi])
    gap = lo + int(np.argmax(gaps))  # the gap lies between gap and gap + 1
    first = min(max(0, gap - WIDTH // 2 + 1), n - WIDTH)
    window = keys[first:first + WIDTH]
    positions = np.arange(first, first + WIDTH)
    _, _, err1 = common.fit(window, positions)
    split = gap + 1 - first
    err2 = np.concatenate([common.fit(window[:split], positions[:split])[2],
                           common.fit(window[split:], positions[split:])[2]])
    median_gap = float(np.median(np.diff(keys)))
    table = pd.DataFrame({
        "key": [int(k) for k in window],
        "location": positions,
        "one line: predicted": positions - err1,
        "one line: error": err1,
        "two segments: predicted": positions - err2,
        "two segments: error": err2,
    })
    table["gap to next key"] = pd.Series([int(b - a) for a, b in zip(window[:-1], window[1:])] + [""], dtype=object)
    table["note"] = ""
    table.loc[0, "note"] = (
        f"largest gap {int(keys[gap + 1] - keys[gap]):,} = {(keys[gap + 1] - keys[gap]) / median_gap:,.0f} x the median gap, "
        f"between locations {gap} and {gap + 1}; worst error one line {np.abs(err1).max():.2f}, "
        f"two segments {np.abs(err2).max():.2f} ({common.dataset_title(label, path)})")
    return None, table

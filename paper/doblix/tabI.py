"""doblix/tabI (the paper's Table I): key/value sizes of UDB, ZippyDB and
UP2X. The paper's means and SDs are the catalogue's size_sets (written
once, workloads/datasets.yaml); beside them the exact moments of the sizes
the pipeline draws from them, round(N(mean, sd)) clamped below at the set's
minimum, summed over the integers (no sampling), and the fixed sizes
Figure 13c uses. The catalogue comes as spec["catalogue"]."""
import numpy as np
import pandas as pd
from scipy import stats

NAMES = {"udb": "UDB", "zippydb": "ZippyDB", "up2x": "UP2X"}


def drawn_moments(mean, sd, low):
    """Mean and sd of max(low, round(X)), X ~ N(mean, sd)."""
    k = np.arange(low, int(np.ceil(mean + 12 * sd)) + 1)
    upper = stats.norm.cdf(k + 0.5, mean, sd)
    lower = np.where(k == low, 0.0, stats.norm.cdf(k - 0.5, mean, sd))
    p = upper - lower
    m = float((k * p).sum() / p.sum())
    return m, float(np.sqrt(((k - m) ** 2 * p).sum() / p.sum()))


def figure(rows, spec):
    out = []
    for name, s in spec["catalogue"]["size_sets"].items():
        row = {"application": NAMES.get(name, name)}
        for side in ("key", "value"):
            d = s[side]
            m, sd = drawn_moments(d["mean"], d["sd"], d.get("min", 1))
            row |= {f"{side} AVG (paper)": d["mean"], f"{side} SD (paper)": d["sd"],
                    f"{side} AVG drawn": round(m, 3), f"{side} SD drawn": round(sd, 3),
                    f"{side} bytes in Fig. 13c": int(round(d["mean"]))}
        out.append(row)
    return None, pd.DataFrame(out)

"""lsm-eval/fig6 (the paper's Figure 6): the key CDF of each dataset, one
panel per dataset, keys normalised to [0, 1] (SOSD binary files: a uint64
count, then the keys)."""
import numpy as np
import pandas as pd

from paper import lsm_eval, plotting

POINTS = 2000  # drawn per curve: the CDF's shape, not every key


def figure(rows, spec):
    plotting.style()
    names = spec["datasets"]
    files = spec["dataset_files"]
    fig, (axes,) = plotting.panels(1, len(names), 3, 2.8)
    table = []
    for ax, (label, name) in zip(np.atleast_1d(axes), names.items()):
        keys = np.sort(np.fromfile(files[name], dtype="<u8", offset=8))
        lo, hi = float(keys[0]), float(keys[-1])
        pick = np.linspace(0, len(keys) - 1, min(POINTS, len(keys))).astype(int)
        x = (keys[pick].astype(float) - lo) / ((hi - lo) or 1.0)
        y = pick / max(len(keys) - 1, 1)
        ax.plot(x, y, lw=1.4)
        ax.set_title(lsm_eval.DATASET_LABEL.get(label, label))
        ax.set_xlabel("normalised key")
        ax.set_ylim(0, 1)
        # how far the CDF departs from a straight line: the skew a model meets
        table.append({"dataset": label, "keys": len(keys), "min_key": int(keys[0]), "max_key": int(keys[-1]),
                      "max_abs_deviation_from_uniform": float(np.max(np.abs(y - x)))})
    np.atleast_1d(axes)[0].set_ylabel("CDF (position / n)")
    fig.tight_layout()
    return fig, pd.DataFrame(table)

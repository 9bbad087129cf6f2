"""doblix/fig13 (the paper's Figure 13): its three panels side by side, from
the runs of fig13a (key size), fig13b (value size) and fig13c (use cases,
whose pairs are fig13c's params, read from the study's spec)."""
import pandas as pd

from lsmrepro.plan import studies
from paper import plotting
from paper.doblix import sizes
from paper.doblix import systems as sy


def figure(rows, spec):
    plotting.style()
    use_cases = studies.figures(spec["study"])["fig13c"]["params"][sizes.USE_CASES]
    t = sizes.throughput(rows)
    fig, (a, b, c) = sy.panel_axes(3, width=4.6)
    sizes.key_panel(a, t[t["experiment"] == "fig13a"])
    sizes.value_panel(b, t[t["experiment"] == "fig13b"])
    u = sizes.use_case_panel(c, t[t["experiment"] == "fig13c"], use_cases)
    sy.legend(fig, [a, b, c])
    plotting.mark_failures(fig, sy.with_system(rows), by=("experiment", "point"))
    fig.tight_layout(rect=(0, 0, 1, 0.88))
    parts = {"a: key bytes": sy.ratio_table(t[t["experiment"] == "fig13a"], ["key_bytes"], "K ops/s"),
             "b: value bytes": sy.ratio_table(t[t["experiment"] == "fig13b"], ["value_bytes"], "K ops/s"),
             "c: use case": sy.ratio_table(u, ["use_case"], "K ops/s")}
    return fig, pd.concat([p.assign(panel=k) for k, p in parts.items()], ignore_index=True)

"""doblix/fig13c (the paper's Figure 13c): read-only throughput on OSM with
the key and value sizes of UDB, ZippyDB and UP2X (Table I's means, fixed),
RocksDB against DobLIX (bars: mean over repetitions, one sd)."""
from paper import plotting
from paper.doblix import sizes
from paper.doblix import systems as sy


def figure(rows, spec):
    plotting.style()
    t = sizes.throughput(rows)
    fig, axes = sy.panel_axes(1, width=6.0)
    u = sizes.use_case_panel(axes[0], t, spec["params"][sizes.USE_CASES])
    sy.legend(fig, axes)
    plotting.mark_failures(fig, sy.with_system(rows), by=("point", "system"))
    fig.tight_layout(rect=(0, 0, 1, 0.88))
    return fig, sy.ratio_table(u, ["use_case", "key_bytes", "value_bytes"], "K ops/s")

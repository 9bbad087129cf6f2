"""doblix/fig13b (the paper's Figure 13b): read-only throughput on OSM
against the value size (bars: mean over repetitions, one sd)."""
from paper import plotting
from paper.doblix import sizes
from paper.doblix import systems as sy


def figure(rows, spec):
    plotting.style()
    t = sizes.throughput(rows)
    fig, axes = sy.panel_axes(1, width=6.0)
    sizes.value_panel(axes[0], t)
    sy.legend(fig, axes)
    plotting.mark_failures(fig, sy.with_system(rows), by=("point", "system"))
    fig.tight_layout(rect=(0, 0, 1, 0.88))
    return fig, sy.ratio_table(t, ["value_bytes"], "K ops/s")

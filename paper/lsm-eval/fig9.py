"""lsm-eval/fig9 (the paper's Figure 9): range lookups on YCSB-Gen uniform.
(A) seek-phase time per range lookup against the position boundary;
(B–E) per scan length, segments touched per range lookup (bars) and
scan-phase time (lines). Phase times and segments come from the lookup
step timers (seek, scan) and counters."""
import pandas as pd
import seaborn as sns

from paper import lsm_eval as le
from paper import plotting


def _per_scan(rows, metric, scale=1.0):
    """A breakdown total over the run's scans (steps are per traced get, so
    per scan = step total / scans): the value divided by the scan count."""
    v = le.per_run(rows, metric)
    n = le.per_run(rows, "latency_count", op="scan", subset="all").rename(columns={"value": "scans"})
    keys = [c for c in ("run",) if c in v.columns]
    m = v.merge(n[["run", "scans"]], on=keys, how="inner")
    m["value"] = m["value"] * scale / m["scans"].where(m["scans"] > 0)
    return le.as_int(m, "position_boundary")


def figure(rows, spec):
    plotting.style()
    seek = _per_scan(rows, "lookup_seek_total", 1e-3)
    scan = _per_scan(rows, "lookup_scan_total", 1e-3)
    segs = _per_scan(rows, "lookup_segments_touched")
    lat = le.as_int(le.per_run(rows, "latency_mean", 1e-3, op="scan", subset="all"), "position_boundary")
    workloads = [w for w in spec["workloads"] if w in set(lat["workload"])]
    fig, axes = plotting.panels(1, 1 + len(workloads), 4, 3.4)
    axes = axes[0]
    src = seek if len(seek) else lat
    sns.lineplot(data=src, x="position_boundary", y="value", hue="index", style="workload", marker="o",
                 errorbar="sd", ax=axes[0])
    plotting.shows(axes[0], src, "lookup_seek_total" if len(seek) else "latency_mean")
    axes[0].set_xscale("log", base=2)
    axes[0].set_ylabel("seek time (µs)" if len(seek) else "range lookup latency (µs)")
    axes[0].set_title("(A) seek phase")
    for ax, w, letter in zip(axes[1:], workloads, "BCDE"):
        s = segs[segs["workload"] == w]
        if len(s):
            sns.barplot(data=s, x="position_boundary", y="value", hue="index", errorbar="sd", ax=ax, alpha=0.7)
            plotting.shows(ax, s, "lookup_segments_touched")
        ax.set_ylabel("segments touched per range lookup")
        twin = ax.twinx()
        c = (scan if len(scan) else lat)
        c_runs = c[c["workload"] == w]
        c = c_runs.groupby(["index", "position_boundary"])["value"].mean().reset_index()
        order = sorted(c["position_boundary"].unique())
        for name, g in c.groupby("index"):
            g = g.set_index("position_boundary").reindex(order)
            twin.plot(range(len(order)), g["value"].values, marker="o", label=le.LABEL.get(name, name))
        plotting.shows(twin, c_runs, "lookup_scan_total" if len(scan) else "latency_mean")
        twin.set_ylabel("scan time (µs, lines)" if len(scan) else "latency (µs, lines)")
        twin.grid(False)
        ax.set_title(f"({letter}) {w}")
        ax.set_xlabel("position boundary")
    plotting.mark_failures(fig, rows, by=("workload", "index"))
    fig.tight_layout()
    return fig, plotting.summary_table({"range latency µs": lat, "seek µs": seek, "scan µs": scan,
                                        "segments/lookup": segs},
                                       ["workload", "index", "position_boundary"])

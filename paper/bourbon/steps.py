"""The paper's lookup steps (Figures 2 and 8) from the engine's step timers:
the hooks' `lookup` scope (find files, find table, read value) and
bourbon's `lookup_paths` scope (each path's steps), in ns per get."""
import pandas as pd

# the paper's step -> tidy metrics summed (lookup_* the hooks', lookup_paths_* bourbon's)
STEPS = {
    "FindFiles": ["lookup_find_files_per_op"],
    "LoadIB+FB": ["lookup_find_table_per_op", "lookup_paths_baseline.load_index_per_op"],
    "SearchIB": ["lookup_paths_baseline.search_index_per_op"],
    "ModelLookup": ["lookup_paths_file_model.model_lookup_per_op", "lookup_paths_level_model.model_lookup_per_op"],
    "SearchFB": ["lookup_paths_file_model.search_filter_per_op", "lookup_paths_level_model.search_filter_per_op"],
    "LoadData": ["lookup_paths_baseline.load_data_per_op", "lookup_paths_file_model.load_chunk_per_op",
                 "lookup_paths_level_model.load_chunk_per_op"],
    "SearchDB": ["lookup_paths_baseline.search_data_per_op"],
    "LocateKey": ["lookup_paths_file_model.locate_key_per_op", "lookup_paths_level_model.locate_key_per_op"],
    "ReadValue": ["lookup_read_value_per_op"],
}
INDEXING = {"FindFiles", "SearchIB", "ModelLookup", "SearchFB", "SearchDB", "LocateKey", "Search"}


def per_run(rows):
    """One row per run: each step's ns per get, `Other` the rest of the mean
    get latency, and `total` that latency."""
    total = rows[(rows["metric"] == "latency_mean") & (rows["op"] == "get") & (rows["subset"] == "all")]
    out = []
    for run, g in total.groupby("run"):
        r = rows[rows["run"] == run]
        rec = {"run": run, "dataset": g["dataset"].iloc[0], "experiment": g["experiment"].iloc[0],
               "learning": str(g["learning"].iloc[0]) if "learning" in g else "", "total": g["value"].iloc[0]}
        for step, metrics in STEPS.items():
            rec[step] = r[r["metric"].isin(metrics)]["value"].sum()
        rec["Other"] = rec["total"] - sum(rec[s] for s in STEPS)
        out.append(rec)
    return pd.DataFrame(out)


def stacked(ax, frame, parts, labels):
    """One stacked bar per row of `frame` (µs), indexing solid, the rest hatched."""
    colors = dict(zip(parts, ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
                              "#8c8c8c", "#ccb974", "#64b5cd"]))
    bottom = pd.Series(0.0, index=frame.index)
    for p in parts:
        v = frame[p].clip(lower=0) / 1e3
        ax.bar(range(len(frame)), v, bottom=bottom, color=colors[p], label=p,
               hatch=None if p in INDEXING else "//", edgecolor="white")
        bottom += v
    for i, t in enumerate(frame["total"] / 1e3):
        ax.annotate(f"{t:.2f} µs", (i, max(t, bottom.iloc[i])), xytext=(0, 3), textcoords="offset points",
                    ha="center", fontsize=8)
    ax.set_xticks(range(len(frame)), labels)
    ax.set_ylabel("latency per lookup (µs)")

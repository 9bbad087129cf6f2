"""bourbon/whole-keys (a control, no paper number): our own wisckey build on
its own tables and on Bourbon's table layout beside Figures 9 and 15's
WiscKey (bourbon learning=never) and Bourbon, per dataset. A speedup is the
base's mean get latency over the target's, paired by repetition
(common.CONTROL_RATIOS)."""
from paper.bourbon import common

SIZES = {"load_table_bytes": ("table MB", 1e-6), "load_tables": ("tables", 1)}


def figure(rows, spec):
    t = common.control_table(common.latency_us(rows), ["dataset"], "µs")
    for metric, (label, scale) in SIZES.items():
        size = common.per_run(rows, metric)
        size = size[size["system"].isin(common.CONTROL_SYSTEMS)].groupby(["dataset", "system"])["value"].mean()
        t = t.join((size.unstack("system") * scale).add_suffix(f" {label}"))
    order = common.present(list(spec["datasets"]), t.index)
    t = t.reindex(order)
    t.index = [common.dataset_name(d) for d in t.index]
    return None, t.rename_axis("dataset").reset_index()

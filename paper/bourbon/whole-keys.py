"""bourbon/whole-keys (a control, no paper number): WiscKey on Bourbon's
table layout beside Figures 9 and 15's WiscKey and Bourbon, per dataset. A
speedup is the base's mean get latency over the target's, paired by
repetition."""
from paper.bourbon import common

SYSTEMS = ["WiscKey", "WiscKey, whole keys", "Bourbon"]
# (base, target): the paper's ratio, then its two factors
RATIOS = [("WiscKey", "Bourbon"), ("WiscKey", "WiscKey, whole keys"), ("WiscKey, whole keys", "Bourbon")]
SIZES = {"load_table_bytes": ("table MB", 1e-6), "load_tables": ("tables", 1)}


def figure(rows, spec):
    lat = common.latency_us(rows)
    lat = lat[lat["system"].isin(SYSTEMS)]  # Figure 9's Bourbon-level is not split here
    t = lat.groupby(["dataset", "system"])["value"].agg(["mean", "std", "count"]).unstack("system")
    t.columns = [f"{s} µs {stat}" for stat, s in t.columns]
    for base, target in RATIOS:
        sp = common.speedup(lat, base, target)
        if len(sp):
            t = t.join(sp.set_index("dataset")[["speedup", "sd", "pairs"]].add_prefix(f"{target} over {base} "))
    for metric, (label, scale) in SIZES.items():
        size = common.per_run(rows, metric)
        size = size[size["system"].isin(SYSTEMS)].groupby(["dataset", "system"])["value"].mean().unstack("system")
        t = t.join((size * scale).add_suffix(f" {label}"))
    order = common.present(list(spec["datasets"]), t.index)
    t = t.reindex(order)
    t.index = [common.dataset_name(d) for d in t.index]
    return None, t.rename_axis("dataset").reset_index()

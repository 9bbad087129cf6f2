"""bourbon/scan-steps (a control, no paper number): Figure 12's range
queries split into the layout, the hooks and the models. A ratio is the
target's run throughput over the base's, paired by repetition; the three
steps multiply to Bourbon over WiscKey."""
from paper.bourbon import common

SYSTEMS = ["WiscKey", "WiscKey, whole keys", "WiscKey path", "Bourbon"]
# (base, target): the paper's ratio, then each step changing one thing
RATIOS = [("WiscKey", "Bourbon"), ("WiscKey", "WiscKey, whole keys"), ("WiscKey, whole keys", "WiscKey path"),
          ("WiscKey path", "Bourbon")]


def figure(rows, spec):
    tput = common.throughput(rows)
    tput = tput[tput["system"].isin(SYSTEMS)]
    by = ["dataset", "workload"]
    t = tput.groupby(by + ["system"])["value"].agg(["mean", "std", "count"]).unstack("system")
    t.columns = [f"{s} ops/s {stat}" for stat, s in t.columns]
    for base, target in RATIOS:
        sp = common.speedup(tput, base, target, higher_is_better=True)
        if len(sp):
            t = t.join(sp.set_index(by)[["speedup", "sd", "pairs"]].add_prefix(f"{target} over {base} "))
    t = t.reset_index()
    t["rank"] = t["dataset"].map({d: i for i, d in enumerate(spec["datasets"])})
    t = t.assign(length=common.range_length(t)).sort_values(["rank", "length"]).drop(columns=["rank"])
    return None, t.reset_index(drop=True)

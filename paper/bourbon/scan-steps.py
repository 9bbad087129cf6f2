"""bourbon/scan-steps (a control, no paper number): Figure 12's range
queries split into the layout, the build and the models (common.CONTROL_RATIOS).
A ratio is the target's run throughput over the base's, paired by
repetition; the three steps multiply to Bourbon over our own wisckey build."""
from paper.bourbon import common


def figure(rows, spec):
    by = ["dataset", "workload"]
    t = common.control_table(common.throughput(rows), by, "ops/s", higher_is_better=True).reset_index()
    t["rank"] = t["dataset"].map({d: i for i, d in enumerate(spec["datasets"])})
    t = t.assign(length=common.range_length(t)).sort_values(["rank", "length"]).drop(columns=["rank"])
    return None, t.reset_index(drop=True)

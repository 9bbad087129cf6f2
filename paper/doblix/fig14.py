"""doblix/fig14 (the paper's Figure 14): a: index size after the load
(table property index_size summed over the live tables: DobLIX's and
TridentKV-style's serialized models, RocksDB's index blocks) on AMZN and
LOGN with 8- and 64-byte keys; b: SSTable creation time, the load's flush
and compaction seconds (RocksDB's compaction statistics), with DobLIX's
model training and serialization (summed over the tables alive after the
load, so a lower bound of their share). Mean over repetitions."""
import matplotlib.pyplot as plt

from paper import plotting
from paper.doblix import systems as sy

KEYS = {"be64": "8 B keys", "be64_pad64": "64 B keys"}


def _by_setting(rows, metric):
    t = sy.with_system(plotting.metric(rows, metric))
    return t.assign(setting=t["dataset"] + ", " + t["key"].map(KEYS).fillna(t["key"]))


def figure(rows, spec):
    plotting.style()
    index = _by_setting(rows, "load_index_bytes").assign(value=lambda d: d["value"] / 2**20)
    build = _by_setting(rows, "load_compaction_seconds")
    train = _by_setting(rows, "load_doblix_live_tables_train_seconds")
    serialize = _by_setting(rows, "load_doblix_live_tables_serialize_seconds")
    settings = [f"{d}, {k}" for d in spec["datasets"] for k in KEYS.values()]
    settings = [s for s in settings if s in set(index["setting"])]
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 3.6))
    sy.grouped_bars(a, index, "setting", settings, "index size (MiB)")
    a.set_title("a: index size")
    sy.grouped_bars(b, build, "setting", settings, "SSTable creation time (s)")
    b.set_title("b: SSTable creation (flush + compaction)")
    for ax in (a, b):
        ax.tick_params(axis="x", labelsize=8)
    # DobLIX's training share drawn over its creation bars (hatched).
    d = build[build["system"] == "DobLIX"].groupby("setting")["value"].mean()
    tr = train[train["system"] == "DobLIX"].groupby("setting")["value"].mean()
    systems = sy.present(sy.SYSTEMS, build["system"])
    if "DobLIX" in systems and len(b.containers) == len(systems):
        bars = b.containers[systems.index("DobLIX")]
        for patch, setting in zip(bars.patches, settings):
            if setting in tr.index:
                b.bar(patch.get_x() + patch.get_width() / 2, tr[setting], width=patch.get_width(),
                      fill=False, hatch="///", edgecolor="black", label="DobLIX training")
        plotting.shows(b, train[train["system"] == "DobLIX"])
    sy.legend(fig, [a, b])
    plotting.mark_failures(fig, sy.with_system(rows), by=("dataset", "key", "system"))
    fig.tight_layout(rect=(0, 0, 1, 0.88))
    table = sy.ratio_table(index, ["setting"], "index MiB", lower_is_better=True)
    table = table.merge(plotting.summary_table({"creation s": build}, ["setting", "system"]), on=["setting", "system"])
    shares = (tr / d).rename("DobLIX training share").reset_index()
    shares = shares.merge((serialize[serialize["system"] == "DobLIX"].groupby("setting")["value"].mean() / d)
                          .rename("DobLIX serialization share").reset_index(), on="setting")
    return fig, table.merge(shares.assign(system="DobLIX"), on=["setting", "system"], how="left")

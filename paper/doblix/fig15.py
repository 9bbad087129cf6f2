"""doblix/fig15 (the paper's Figure 15): DobLIX's tuning agent. One row per
(workload, ν): left, per agent step (episode) the throughput of the table
reads since the previous step and the index size estimated for the whole
dataset (bytes per entry × entries, as the agent logs it); right, the mean
reward of the steps taken in each state, model × largest block (the agent
logs each step's state and reward, not its Q-table: a deviation). The table
also gives the reads' latency and block bytes early and late, and their
correlation over the steps."""
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from paper import plotting

MODELS = ["pla/E32", "pla/E64", "pla/E128", "pla/E256", "pra"]
BLOCKS = ["B4K", "B8K", "B16K", "B32K"]
NU = "doblix.nu"


def steps(rows):
    """One row per logged agent step of the runs: episode, state, fields."""
    a = rows[rows["metric"].str.startswith("agent_")]
    if a.empty:
        return pd.DataFrame(columns=["workload", NU, "repetition", "episode", "state"])
    a = a.assign(field=a["metric"].str[len("agent_"):], episode=a["subset"].astype(int),
                 state=a["note"].str.extract(r"(?:^| )state=(\S+)")[0])
    keys = ["workload", NU, "repetition", "episode", "state"]
    return a.pivot_table(index=keys, columns="field", values="value", aggfunc="first").reset_index()


def heatmap(s):
    """Mean reward per (model, block) over the steps taken in that state."""
    parts = s["state"].str.rsplit("/", n=1, expand=True)
    grid = s.assign(model=parts[0], block=parts[1]).pivot_table(index="model", columns="block",
                                                               values="reward", aggfunc="mean")
    return grid.reindex(index=MODELS, columns=BLOCKS)


def drift(part, n=10):
    """The reads' latency and block bytes over the first and the last n steps
    with reads, and their correlation over all of them: whether the latency
    the reward sees follows the block sizes the agent chose (logs before
    `block_bytes_per_read` give NaN)."""
    r = part[part["reads"] > 0]
    lat = r["mean_read_latency_ns"] / 1e3
    kib = r["block_bytes_per_read"] / 1024 if "block_bytes_per_read" in r else pd.Series(np.nan, index=r.index)
    return {"read µs, first steps": lat.head(n).mean(), "read µs, last steps": lat.tail(n).mean(),
            "block KiB a read, first steps": kib.head(n).mean(), "block KiB a read, last steps": kib.tail(n).mean(),
            "r(read µs, block KiB)": lat.corr(kib) if kib.notna().sum() > 2 else np.nan}


def figure(rows, spec):
    plotting.style()
    s = steps(rows)
    combos = sorted({(w, nu) for w, nu in zip(s["workload"], s[NU])}, key=lambda c: (c[0], -float(c[1])))
    fig, axes = plt.subplots(max(1, len(combos)), 2, figsize=(11, 3.0 * max(1, len(combos))), squeeze=False)
    tables = []
    for (left, right), (w, nu) in zip(axes, combos):
        part = s[(s["workload"] == w) & (s[NU] == nu)].sort_values("episode")
        left.plot(part["episode"], part["throughput_ops"] / 1e3, color="#c0392b", label="throughput")
        left.set_xlabel("agent step (episode)")
        left.set_ylabel("K ops/s", color="#c0392b")
        twin = left.twinx()
        twin.plot(part["episode"], part["estimated_index_bytes"] / 2**20, color="#2e86c1", label="index size")
        twin.set_ylabel("estimated index (MiB)", color="#2e86c1")
        left.set_title(f"{w} queries, ν = {nu}")
        grid = heatmap(part)
        im = right.imshow(grid.to_numpy(dtype=float), cmap="Greens", aspect="auto")
        right.set_xticks(range(len(BLOCKS)), BLOCKS)
        right.set_yticks(range(len(MODELS)), MODELS)
        for (i, j), v in np.ndenumerate(grid.to_numpy(dtype=float)):
            if not np.isnan(v):
                right.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=7)
        right.set_title("mean reward per state (darker: higher)")
        fig.colorbar(im, ax=right)
        best = grid.stack().idxmax() if grid.notna().any().any() else (None, None)
        tables.append({"workload": w, "nu": nu, "steps": len(part),
                       "first throughput K ops/s": part["throughput_ops"].iloc[0] / 1e3 if len(part) else np.nan,
                       "last throughput K ops/s": part["throughput_ops"].iloc[-1] / 1e3 if len(part) else np.nan,
                       "best throughput step": int(part.loc[part["throughput_ops"].idxmax(), "episode"]) if len(part) else np.nan,
                       "last estimated index MiB": part["estimated_index_bytes"].iloc[-1] / 2**20 if len(part) else np.nan,
                       "highest-reward state": f"{best[0]}/{best[1]}" if best[0] else "—",
                       "last state": part["state"].iloc[-1] if len(part) else "—",
                       **drift(part)})
    if not combos:
        axes[0][0].text(0.5, 0.5, "no agent steps logged", ha="center")
    plotting.mark_failures(fig, rows, by=("workload", NU))
    fig.tight_layout()
    return fig, pd.DataFrame(tables)

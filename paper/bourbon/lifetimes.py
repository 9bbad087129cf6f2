"""Table lifetimes and level changes from the engine's per-table rows
(bourbon_file_created_s / bourbon_file_deleted_s, seconds since the engine
opened the database), shared by Figures 3 and 5."""
import numpy as np
import pandas as pd


def tables(rows):
    """One row per (run, table): level, created, deleted (NaN while live),
    and the run's end (the run phase's length, or the last deletion if later)."""
    created = rows[rows["metric"] == "bourbon_file_created_s"]
    if created.empty:
        return pd.DataFrame(columns=["run", "workload", "level", "file", "created", "deleted", "end"])
    t = created[["run", "workload", "level", "file", "value"]].rename(columns={"value": "created"})
    deleted = rows[rows["metric"] == "bourbon_file_deleted_s"][["run", "file", "value"]]
    t = t.merge(deleted.rename(columns={"value": "deleted"}), on=["run", "file"], how="left")
    run_s = rows[rows["metric"] == "run_seconds"].groupby("run")["value"].first()
    last = t.groupby("run")["deleted"].max()
    t["end"] = t["run"].map(lambda r: max(run_s.get(r, 0.0), np.nan_to_num(last.get(r, 0.0))))
    t["level_n"] = t["level"].astype(str).str.lstrip("L").astype(int)
    return t


def lifetimes(t):
    """Lifetime of each table (§3): deleted − created; a table still live at
    the end (created at c, run length w) gets the median lifetime of the same
    level's finished tables that lived at least w − c (the paper draws one of
    them at random), else w − c; `censored` marks the latter."""
    t = t.copy()
    t["lifetime"] = t["deleted"] - t["created"]
    t["censored"] = False
    for (run, level), g in t.groupby(["run", "level"]):
        done = g["lifetime"].dropna().values
        for i in g.index[g["deleted"].isna()]:
            least = t.at[i, "end"] - t.at[i, "created"]
            longer = done[done >= least]
            t.at[i, "lifetime"] = float(np.median(longer)) if len(longer) else least
            t.at[i, "censored"] = not len(longer)
    return t


def changes(t):
    """Creation and deletion times of tables during the run (tables of the
    load, seen at open, are not changes), with their level."""
    made = t[t["created"] > 0.0][["run", "workload", "level", "level_n", "created"]].rename(columns={"created": "time"})
    gone = t.dropna(subset=["deleted"])[["run", "workload", "level", "level_n", "deleted"]].rename(columns={"deleted": "time"})
    return pd.concat([made, gone], ignore_index=True).sort_values("time")


def bursts(times, gap=1.0):
    """Times between bursts of changes (changes less than `gap` seconds apart
    are one burst): from the end of one burst to the start of the next."""
    times = np.sort(np.asarray(times, dtype=float))
    if len(times) < 2:
        return np.array([])
    d = np.diff(times)
    return d[d >= gap]

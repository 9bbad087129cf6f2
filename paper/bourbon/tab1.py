"""bourbon/tab1 (paper Table 1): file vs level learning. Run-phase time of
WiscKey, Bourbon with file models and with level models, the speedup over
WiscKey, the share of internal lookups on a model path, and the failed level
learnings, per workload (write-heavy, read-heavy, read-only)."""
import pandas as pd

from paper.bourbon import common

SYSTEMS = {"WiscKey": "WiscKey", "Bourbon": "file model", "Bourbon-level": "level model"}


def model_share(rows):
    """Per run: 1 - the share of internal lookups on WiscKey's path."""
    s = common.per_run(rows, "bourbon_model_path_share", subset="baseline")
    s["value"] = 1 - s["value"]
    return s


def figure(rows, spec):
    time = common.per_run(rows, "run_seconds")
    share = model_share(rows)
    failed = rows[(rows["metric"] == "bourbon_level_failed_level_learnings")].groupby("run")["value"].sum()
    learnings = rows[(rows["metric"] == "bourbon_level_level_learnings")].groupby("run")["value"].sum()
    out = []
    for w in common.present(list(spec["workloads"]), time["workload"]):
        rec = {"workload": w}
        tw = time[time["workload"] == w]
        for system, name in SYSTEMS.items():
            t = tw[tw["system"] == system]
            rec[f"{name} time (s)"] = t["value"].mean()
            rec[f"{name} runs"] = len(t)
            if system != "WiscKey":
                sp = common.speedup(tw, target=system)
                rec[f"{name} speedup"] = sp["speedup"].mean() if len(sp) else float("nan")
                sh = share[(share["workload"] == w) & (share["system"] == system)]
                rec[f"{name} % model"] = 100 * sh["value"].mean()
        lv = tw[tw["system"] == "Bourbon-level"]["run"]
        rec["level learnings"] = learnings.reindex(lv).mean()
        rec["failed level learnings"] = failed.reindex(lv).mean()
        out.append(rec)
    return None, pd.DataFrame(out)

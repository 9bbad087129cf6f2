"""doblix/deviations: the paper's setup (§IV-A, the spec's params.paper)
beside ours, read from the runs wherever a run records it: the setup_*
rows of every run log (lsmbench's run record: loaded keys, operations, key
and value bytes, background jobs, block cache) and the machine's hardware
fingerprint; what no run records (engine version, baseline code, the
figures' stated deviations) comes from params.ours."""
import pandas as pd

from paper import plotting


def _values(rows, name, scale=1):
    v = plotting.metric(rows, f"setup_{name}")["value"]
    if v.empty:
        return "no runs"
    lo, hi = v.min() / scale, v.max() / scale
    return f"{lo:,.0f}" if lo == hi else f"{lo:,.0f} to {hi:,.0f}"


def _machine(fp):
    s = (fp or {}).get("stable") or {}
    cpu, mem = s.get("cpu") or {}, s.get("memory") or {}
    dev = ((s.get("storage") or {}).get("device")) or {}
    if not cpu:
        return "no fingerprint"
    return (f"{cpu.get('model')} ({cpu.get('cores')} cores), {mem.get('total_bytes', 0) / 2**30:.0f} GiB, "
            f"device {dev.get('name')} ({dev.get('driver')}, {'rotational' if dev.get('rotational') else 'SSD'}), "
            f"{(s.get('os') or {}).get('pretty_name')}")


def figure(rows, spec):
    paper, ours = spec["params"]["paper"], spec["params"]["ours"]
    runs = rows[rows["metric"].str.startswith("setup_")]
    measured = {
        "machine": (_machine(spec.get("fingerprint")), "hardware fingerprint"),
        "background_jobs": (_values(runs, "max_background_jobs"), "run logs: options.max_background_jobs"),
        "block_cache_bytes": (_values(runs, "block_cache_bytes"), "run logs: options.block_cache_bytes"),
        "keys_per_dataset": (_values(runs, "loaded_keys"), "run logs: workload.loaded_keys (inserts held out)"),
        "operations_per_workload": (_values(runs, "ops"), "run logs: workload.ops"),
        "key_bytes": (_values(runs, "key_bytes"), "run logs: workload.key_bytes"),
        "value_bytes": (_values(runs, "value_bytes"), "run logs: workload.value_bytes"),
    }
    out = []
    for aspect, text in paper.items():
        value, source = measured.get(aspect, (ours.get(aspect, "—"), "experiments.yaml params.ours"))
        out.append({"aspect": aspect, "paper": text, "ours": value, "ours from": source})
    for aspect, text in ours.items():
        if aspect not in paper:
            out.append({"aspect": aspect, "paper": "—", "ours": text, "ours from": "experiments.yaml params.ours"})
    out.append({"aspect": "repetitions", "paper": "not stated",
                "ours": str(rows["repetition"].nunique()) if len(rows) else "no runs", "ours from": "tidy rows"})
    return None, pd.DataFrame(out)

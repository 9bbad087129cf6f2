"""lsm-eval/tab1 (the paper's Table 1): every dataset's entries, key and
value size and total size, from the manifests of the files actually built
(a stand-in for a SOSD file says so) and the catalogue's key/value sizes
(spec["catalogue"]); and each set's learned-index hardness beside the real
set's published one (optimal PLA segments per epsilon, workloads/hardness.py)."""
import json
from pathlib import Path

import pandas as pd

from workloads import catalogue, hardness


def figure(rows, spec):
    cat = spec["catalogue"]
    out = []
    names = spec["datasets"]
    for label, path in spec["dataset_files"].items():
        manifest = json.loads(Path(f"{path}.manifest.json").read_text())
        use = next(u for u in catalogue.entry(cat, label)["uses"] if u["study"] == "lsm-eval")
        display = [k for k, v in names.items() if v == label][0]
        entry = use["key_bytes"] + use["value_bytes"]
        out.append({
            "dataset": use["label"] + (" (stand-in)" if manifest["stand_in"] else ""),
            "id": display,
            "entries": manifest["count"],
            "key_bytes": use["key_bytes"],
            "value_bytes": use["value_bytes"],
            "size_mib": round(manifest["count"] * entry / 2**20, 2),
            "key_encoding": use["key_encoding"],
            "pla_segments_vs_real": hardness.describe(manifest.get("hardness")),
        })
    return None, pd.DataFrame(out)

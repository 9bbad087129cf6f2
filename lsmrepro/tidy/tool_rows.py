"""A microbenchmark run's CSV (lsmrepro/run/tool.py) as tidy rows: one per
(CSV row, metric column), the row's naming columns as factors (lidx_bench:
the index, its knobs, the key count; the dataset is the run's), each with
its source `file.csv:line`; and the run's own wall and CPU seconds and load
average from its record (`tool_*`, source `record#field`)."""
import csv
import json
from pathlib import Path

from base.errors import InputError
from lsmrepro.plan import tools

# lidx_bench's columns -> unit (every other column of its CSV names the row)
UNITS = {"wall_ns_per_lookup": "ns", "cpu_ns_per_lookup": "ns", "speedup_vs_lower_bound_cpu": "ratio",
         "size_bytes": "bytes", "build_wall_seconds": "s", "build_cpu_seconds": "s",
         "build_keys_per_cpu_second": "keys/s", "segments": "", "levels": "", "avg_bound_width": "positions",
         "wrong_answers": ""}
RECORD_METRICS = {"tool_wall_seconds": ("wall_seconds", "s"), "tool_cpu_seconds": ("cpu_seconds", "s")}
# knobs "" (the index's defaults) as the benchmark prints them: a blank
# tidy cell reads back as missing, and claims select by it
DEFAULT_KNOBS = "defaults"


def read_record(path):
    try:
        record = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(path, "", f"a tool run's record (lsmrepro/run/tool.py) expected ({e})") from None
    for field in ("manifest", "meta", "csv", "build_id"):
        if field not in record:
            raise InputError(path, field, "a tool run's record field expected (lsmrepro/run/tool.py)")
    return record


def metric_rows(record_path, record, base):
    """Tidy rows of one tool run, each `base` (the run's factors) plus its own."""
    tool = tools.TOOLS[record["manifest"]["tool"]]
    csv_path = Path(record_path).with_name(record["csv"])
    rows = []
    with open(csv_path, newline="") as f:
        for line, r in enumerate(csv.DictReader(f), start=2):
            if set(UNITS) - set(r):
                raise InputError(csv_path, "header", f"columns {', '.join(UNITS)} expected")
            own = {column: (r[k] or DEFAULT_KNOBS if k == "knobs" else r[k])
                   for k, column in tool["factors"].items() if k != "dataset"}
            for metric, unit in UNITS.items():
                rows.append({**base, **own, "metric": metric, "op": "", "subset": "", "value": r[metric],
                             "unit": unit, "source": f"{csv_path}:{line}"})
    for metric, (field, unit) in RECORD_METRICS.items():
        rows.append({**base, "metric": metric, "op": "", "subset": "", "value": record[field], "unit": unit,
                     "source": f"{record_path}#{field}"})
    rows.append({**base, "metric": "tool_loadavg_before", "op": "", "subset": "", "value": record["loadavg_before"][0],
                 "unit": "", "source": f"{record_path}#loadavg_before"})
    return rows

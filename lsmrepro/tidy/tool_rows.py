"""A microbenchmark run's CSV (lsmrepro/run/tool.py) as tidy rows: one per
(CSV row, metric column its tool declares, lsmrepro/plan/tools.py), the
row's naming columns as factors (lidx_bench: the index, its knobs, the key
count; lsmbench_pairs: the variant and round; the dataset is the run's),
each with its source `file.csv:line`; a blank cell is a metric that row does
not have (no row); and the run's own wall and CPU seconds and load average
from its record (`tool_*`, source `record#field`)."""
import csv
import json
from pathlib import Path

from base.errors import InputError
from lsmrepro.plan import tools

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
    units = tool["units"]
    csv_path = Path(record_path).with_name(record["csv"])
    rows = []
    with open(csv_path, newline="") as f:
        for line, r in enumerate(csv.DictReader(f), start=2):
            if set(units) - set(r):
                raise InputError(csv_path, "header", f"columns {', '.join(units)} expected")
            own = {column: (r[k] or DEFAULT_KNOBS if k == "knobs" else r[k])
                   for k, column in tool["factors"].items() if k != "dataset"}
            for metric, unit in units.items():
                if r[metric] == "":
                    continue
                rows.append({**base, **own, "metric": metric, "op": "", "subset": "", "value": r[metric],
                             "unit": unit, "source": f"{csv_path}:{line}"})
    for metric, (field, unit) in RECORD_METRICS.items():
        rows.append({**base, "metric": metric, "op": "", "subset": "", "value": record[field], "unit": unit,
                     "source": f"{record_path}#{field}"})
    rows.append({**base, "metric": "tool_loadavg_before", "op": "", "subset": "", "value": record["loadavg_before"][0],
                 "unit": "", "source": f"{record_path}#loadavg_before"})
    return rows

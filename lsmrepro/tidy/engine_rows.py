"""The engine record's variant fields as tidy rows, generically: each field
a folder declares in engines/<folder>/log.yaml (engines/log_fields.py) is
flattened by its row mappings, so no engine's name appears here:

- `numbers`: every number of the field (or of the object at that key inside
  it) as the metric `metric` with {key} filled, its unit by the key's ending;
- `python`: the rows a function beside the variant's code makes, every one
  of whose metrics starts with the mapping's `prefix` (checked).

`field` inverts both, for the tests that trace each tidy number back to the
log line it came from.
"""
from base.errors import InputError
from engines import log_fields


def _number(value, bools):
    if isinstance(value, bool):
        return int(value) if bools else None
    return value if isinstance(value, (int, float)) else None


def _object(value, m):
    return (value if not m["numbers"] else (value or {}).get(m["numbers"])) or {}


def _numbers(value, m, row):
    out = []
    for key, v in _object(value, m).items():
        v = _number(v, m.get("bools", False))
        if v is None or key in m.get("skip", ()):
            continue
        unit = next((u for end, u in m.get("units", {}).items() if key.endswith(end)), "")
        out.append(row(m["metric"].format(key=key), v, unit))
    return out


def _checked_row(row, m, name, path):
    def checked(metric, *args, **kwargs):
        if not metric.startswith(m["prefix"]):
            raise InputError(path, name, f"rows whose metrics start with {m['prefix']!r} expected from "
                                         f"{m['python'].__module__}, got {metric!r}")
        return row(metric, *args, **kwargs)
    return checked


def rows(record, row, path="", for_load=False):
    """Tidy rows of an engine record's declared variant fields.
    row(metric, value, unit, op="", subset="", **columns) makes one row (the
    caller adds a load's prefix); `for_load`: the record is the load's, whose
    run_only mappings are left out. `path` names the log in errors."""
    out = []
    for name, mappings in log_fields.fields().items():
        value = record.get(name)
        if value is None:
            continue
        for m in mappings:
            if for_load and m.get("run_only"):
                continue
            if "numbers" in m:
                out += _numbers(value, m, row)
                continue
            out += m["python"](value, _checked_row(row, m, name, path))
    return out


def columns():
    """Tidy columns the variant rows add beside the standard ones."""
    return tuple(c for ms in log_fields.fields().values() for m in ms for c in m.get("columns", ()))


def field(metric, record, subset="", file=None):
    """The number of engine record `record` a row of `metric` (without a
    load_ prefix) came from; KeyError when no declared field makes it."""
    best = None
    for name, mappings in log_fields.fields().items():
        for m in mappings:
            if "numbers" in m:
                head, _, tail = m["metric"].partition("{key}")
                key = metric[len(head):len(metric) - len(tail)] if metric.startswith(head) and metric.endswith(tail) else None
                if key is not None and name in record and key in _object(record[name], m):
                    return _number(_object(record[name], m)[key], True)
            elif metric.startswith(m["prefix"]) and (best is None or len(m["prefix"]) > len(best[1]["prefix"])):
                best = (name, m)
    if best is None:
        raise KeyError(metric)
    name, m = best
    return m["field"](metric, record[name], subset, file)

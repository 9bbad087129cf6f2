"""Tidy rows of the engine record's `bourbon` section (engines/bourbon/
README.md, "Run log"), as engines/bourbon/log.yaml declares them:

- section_rows: its numbers as `bourbon_<key>`; the internal lookups and
  their shares by path (`subset` = path); per level (`subset` = L<n>):
  changes, level learnings, model state, and internal lookups and their
  summed time, positive/negative, by path;
- table_rows (runs only, not the load behind each run): per table (the
  `level` and `file` columns) its creation and deletion time and its
  internal lookups, positive and negative (the `note` is the table's
  learning state).

Each `*_field` is the inverse, for the trace-back tests: the number of the
section a row of that metric (without a load_ prefix) came from.
"""

LEVEL_NUMBERS = ("changes", "level_learnings", "failed_level_learnings", "level_model_valid",
                 "level_model_segments", "level_model_bytes", "level_learn_ms")
LEVEL_BY_PATH = {"internal_lookups_positive": "positive", "internal_lookups_negative": "negative",
                 "internal_lookup_ns_positive": "positive_ns", "internal_lookup_ns_negative": "negative_ns"}


def _number(value):
    if isinstance(value, bool):
        return int(value)
    return value if isinstance(value, (int, float)) else None


def section_rows(section, row):
    """`row(metric, value, unit, op="", subset="", **extra)` makes one tidy row."""
    out = []
    for key, value in section.items():
        v = _number(value)
        if v is not None and key != "block_restart_interval":
            unit = "ms" if key.endswith("_ms") or "_ms_" in key else "bytes" if key.endswith("bytes") else ""
            out.append(row(f"bourbon_{key}", v, unit))
    for path, v in (section.get("internal_lookups_by_path") or {}).items():
        out.append(row("bourbon_internal_lookups", v, "", subset=path))
    for path, v in (section.get("model_path_share") or {}).items():
        out.append(row("bourbon_model_path_share", v, "", subset=path))
    for level in section.get("levels") or []:
        name = f"L{level['level']}"
        for key in LEVEL_NUMBERS:
            v = _number(level.get(key))
            if v is not None:
                out.append(row(f"bourbon_level_{key}", v, "ms" if key.endswith("_ms") else "", subset=name))
        for key, short in LEVEL_BY_PATH.items():
            for path, v in (level.get(key) or {}).items():
                out.append(row(f"bourbon_level_{short}_{path}", v, "ns" if short.endswith("ns") else "",
                               subset=name))
    return out


def table_rows(section, row):
    out = []
    for f in section.get("files") or []:
        extra = {"level": f"L{f['level']}", "file": f["number"], "note": f.get("state", "")}
        out.append(row("bourbon_file_created_s", f["created_s"], "s", **extra))
        if f.get("deleted_s") is not None:
            out.append(row("bourbon_file_deleted_s", f["deleted_s"], "s", **extra))
        for sign in ("positive", "negative"):
            total = sum((f.get(f"internal_lookups_{sign}") or {}).values())
            out.append(row(f"bourbon_file_{sign}", total, "", **extra))
    return out


def section_field(metric, section, subset="", file=None):
    name = metric[len("bourbon_"):]
    if name == "internal_lookups":
        return section["internal_lookups_by_path"][subset]
    if name == "model_path_share":
        return section["model_path_share"][subset]
    if name.startswith("level_"):
        level = next(lv for lv in section["levels"] if f"L{lv['level']}" == subset)
        rest = name[len("level_"):]
        if rest in LEVEL_NUMBERS:
            return _number(level[rest])
        for key, short in LEVEL_BY_PATH.items():
            if rest.startswith(short + "_") and rest[len(short) + 1:] in (level.get(key) or {}):
                return level[key][rest[len(short) + 1:]]
        raise KeyError(metric)
    return _number(section[name])


def table_field(metric, section, subset="", file=None):
    f = next(f for f in section["files"] if int(f["number"]) == int(file))
    rest = metric[len("bourbon_file_"):]
    if rest in ("positive", "negative"):
        return sum(f[f"internal_lookups_{rest}"].values())
    return f[rest]

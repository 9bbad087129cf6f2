"""lidx's index registry for the Python side: `indexes/registry.json`, the
JSON that `lidx_list` prints from `include/lidx/registry.h` (the one list of
index ids; ctest `lidx_manifest_test` fails when the committed copy differs).
engines/difftest.py expands `{each_table_index: ...}` runs over it and
paper/lsm_eval.py takes its index order, families and labels from it.

    from indexes import registry
    registry.table_ids()                 # ['fp', 'plr', ..., 'lits']
    registry.load()[0]["label"]          # 'FP'
"""
import json
from pathlib import Path

MANIFEST = Path(__file__).with_name("registry.json")
FIELDS = {"id": str, "label": str, "family": str, "table": bool, "exact": bool,
          "boundary": str, "knob": str, "fixed": str}
FAMILIES = ("clustered", "unclustered", "other")


def load(path=None):
    """Every index's metadata, in registration order; ValueError naming the
    file and field on a malformed manifest."""
    path = path or MANIFEST
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: a JSON index manifest (lidx_list's output) expected ({e})") from e
    entries = data.get("indexes") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"{path}: indexes: a non-empty list expected")
    for i, e in enumerate(entries):
        for field, kind in FIELDS.items():
            if not isinstance(e, dict) or not isinstance(e.get(field), kind):
                raise ValueError(f"{path}: indexes[{i}].{field}: a {kind.__name__} expected")
        if e["family"] not in FAMILIES:
            raise ValueError(f"{path}: indexes[{i}].family: one of {', '.join(FAMILIES)}, "
                             f"got '{e['family']}'")
    return entries


def table_ids(path=None):
    """The ids a learned table takes (engines/leveldb-learned `index=`)."""
    return [e["id"] for e in load(path) if e["table"]]

"""lidx's index registry for the Python side: `indexes/registry.json`, the
JSON that `lidx_list` prints from `include/lidx/registry.h` (the one list of
index ids; ctest `lidx_manifest_test` fails when the committed copy differs).
engines/difftest.py expands `{each_table_index: ...}` runs over it,
paper/lsm_eval.py takes its index order, families and labels from it, and
study specs and claims name indexes by family through `family_members`
(lsmrepro/plan/index_selectors.py).

    from indexes import registry
    registry.table_ids()                 # ['fp', 'plr', ..., 'lits']
    registry.load()[0]["label"]          # 'FP'
    registry.family_members(["clustered"], learned=True)   # ['plr', 'ft', ..., 'rmi']
"""
import json
from pathlib import Path

MANIFEST = Path(__file__).with_name("registry.json")
FIELDS = {"id": str, "label": str, "family": str, "table": bool, "exact": bool,
          "boundary": str, "knob": str, "fixed": str, "learned": bool, "variant_of": str}
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


def family_members(families, learned=None, path=None):
    """The table indexes of `families`, in registration order: every one
    that is not a variant of another (registry.h `variant_of`, reached by its
    own id), and with `learned` given, only those whose `learned` is it
    (False: the fence-pointer baseline). ValueError naming an unknown family."""
    entries = load(path)
    if unknown := [f for f in families if f not in FAMILIES]:
        raise ValueError(f"a family of {Path(path or MANIFEST).name} expected ({', '.join(FAMILIES)}), "
                         f"got {', '.join(map(repr, unknown))}")
    return [e["id"] for e in entries if e["table"] and e["family"] in families and not e["variant_of"]
            and (learned is None or e["learned"] == learned)]

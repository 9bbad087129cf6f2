"""Indexes named by family: where a study spec or a claim lists index ids,
it may write a selector instead, resolved from lidx's registry
(indexes/registry.json, which `lidx_list` writes from registry.h):

    index: {family: clustered}                     # FP and the six data-clustered learned indexes
    index: {family: clustered, learned: true}      # the six, without the FP baseline
    index: {family: [clustered, unclustered]}      # both families, clustered first

A family's members are its table indexes that are not a variant of another
(registry.h `variant_of`), in registration order, so an index added to the
registry joins every grid and claim that names its family. The schemas
(paper/experiments.schema.yaml, paper/claims.schema.yaml) accept the form
where an index list goes; `expand_spec` and `expand_claims` replace each
selector by its ids before anything else reads the file, so a selector and
the list it stands for plan the same runs and judge the same members."""
from base.errors import InputError
from indexes import registry

# Where a claim's measure lists members by a tidy column (`by`, `group_by`).
MEMBER_LISTS = {"lower": "by", "higher": "by", "members": "group_by"}
# A measure's row selections (each a tidy column -> value(s) mapping).
WHERES = ("where", "numerator", "denominator", "part", "whole")
INDEX = "index"


def is_selector(value):
    return isinstance(value, dict) and "family" in value


def resolve(selector, path, field):
    """The index ids a selector names; InputError naming the file and field
    on an unknown family, or a selector that names none."""
    families = selector["family"] if isinstance(selector["family"], list) else [selector["family"]]
    try:
        ids = registry.family_members(families, learned=selector.get("learned"))
    except ValueError as e:
        raise InputError(path, f"{field}.family", str(e)) from None
    if not ids:
        raise InputError(path, field, f"a selector naming at least one table index expected "
                                      f"(indexes/registry.json has none for {selector})")
    return ids


def expand_spec(data, path):
    """A study spec with every grid's `index: {family: ...}` replaced by its ids."""
    for fig_id, fig in data["figures"].items():
        for engine, grids in fig.get("grid", {}).items():
            subgrids = grids if isinstance(grids, list) else [grids]
            for i, grid in enumerate(subgrids):
                if is_selector(grid.get(INDEX)):
                    at = f"figures.{fig_id}.grid.{engine}" + (f".{i}" if isinstance(grids, list) else "")
                    grid[INDEX] = resolve(grid[INDEX], path, f"{at}.{INDEX}")
    return data


def expand_claims(claims, path):
    """Claims with every index selector of their measures (and context
    measures) replaced by its ids."""
    for i, c in enumerate(claims):
        _expand_measure(c["measure"], path, f"claims.{i}.measure")
        for j, ctx in enumerate(c.get("context", [])):
            _expand_measure(ctx["measure"], path, f"claims.{i}.context.{j}.measure")
    return claims


def _expand_measure(m, path, field):
    for name in WHERES:
        if is_selector(m.get(name, {}).get(INDEX)):
            m[name][INDEX] = resolve(m[name][INDEX], path, f"{field}.{name}.{INDEX}")
    for name, column in MEMBER_LISTS.items():
        if not is_selector(m.get(name)):
            continue
        if m.get(column) != INDEX:
            raise InputError(path, f"{field}.{name}", f"a list of {column} values expected: an index "
                             f"family names indexes, and this measure's {column} is {m.get(column)!r}")
        m[name] = resolve(m[name], path, f"{field}.{name}")

"""The microbenchmarks a study may run instead of engines (a figure's
`tool`, study engineering): each one's binary, the grid dimensions and
options it takes, and how a point becomes its arguments. A run of a tool is
one process per point of the figure's `tool_grid` and repetition (rule
tool_run, lsmrepro/run/tool.py), whose CSV lsmrepro/tidy/tool_rows.py makes
tidy.

    args("lidx_bench", {"dataset": "uniform", "keys": "10000000"},
         {"indexes": ["pgm"], "rounds": 5}, ops=100000, seed=1000)
"""
import json

from base.errors import InputError

# tool -> its binary (what rule build_lidx_bench makes), grid dimensions,
# options and the columns of its CSV that name what a row measured (the
# rest are metrics, one tidy row each).
TOOLS = {
    "lidx_bench": {
        "binary": "indexes/lidx_bench",  # under the build dir (rule build_lidx_bench)
        "dimensions": ("dataset", "keys"),
        "options": {"indexes": list, "rounds": int},
        # CSV column -> tidy column, of the columns naming what a row measured
        "factors": {"dataset": "dataset", "index": "index", "knobs": "knobs", "n": "keys"},
    },
}


def check_figure(fig, path, where):
    """A tool figure's grid names its tool's dimensions, its options its
    tool's options (one error naming the field otherwise)."""
    tool = TOOLS[fig["tool"]]
    dims = set(fig["tool_grid"])
    if dims != set(tool["dimensions"]):
        raise InputError(path, f"{where}.tool_grid", f"the dimensions of {fig['tool']} expected "
                         f"({', '.join(tool['dimensions'])}), got {', '.join(sorted(dims))}")
    for name, value in fig["tool_options"].items():
        kind = tool["options"].get(name)
        if kind is None or not isinstance(value, kind):
            raise InputError(path, f"{where}.tool_options.{name}", f"an option of {fig['tool']} expected ("
                             + ", ".join(f"{k}: {t.__name__}" for k, t in tool["options"].items()) + ")")
    if missing := set(tool["options"]) - set(fig["tool_options"]):
        raise InputError(path, f"{where}.tool_options", f"{', '.join(sorted(missing))} expected")


def tidy_columns(fig):
    """The tidy columns a tool figure's rows carry besides the common ones."""
    return set(fig["tool_grid"]) | set(TOOLS[fig["tool"]]["factors"].values()) if "tool" in fig else set()


def binary(tool):
    """The tool's binary, relative to the build folder."""
    return TOOLS[tool]["binary"]


def manifest(row):
    """A tool run's identity as JSON text (rule tool_run passes it to
    lsmrepro.run.tool, which keeps it in the run's record): aggregate reads
    the run's factors from it."""
    return json.dumps({"study": row.study, "experiment": row.figure, "point": row.point, "repetition": int(row.rep),
                       "tool": row.tool, "factors": row.factors})


def args(tool, point, options, ops, seed):
    """The tool's arguments for one point and repetition (without the path
    of its CSV, which the rule adds)."""
    if tool == "lidx_bench":
        return ["--n", str(point["keys"]), "--datasets", str(point["dataset"]),
                "--indexes", ",".join(options["indexes"]), "--lookups", str(ops),
                "--repeat", str(options["rounds"]), "--seed", str(seed)]
    raise KeyError(tool)

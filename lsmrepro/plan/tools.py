"""The microbenchmarks a study may run instead of engines (a figure's
`tool`, study engineering): each one's binary, the grid dimensions and
options it takes, and how a point becomes its arguments. A run of a tool is
one process per point of the figure's `tool_grid` and repetition (rule
tool_run, lsmrepro/run/tool.py), whose CSV lsmrepro/tidy/tool_rows.py makes
tidy.

Kinds: a binary that writes its CSV (lidx_bench, indexes/bench/);
lsmbench_pairs, engines' lsmbench side by side on one dataset in one
process (lsmrepro/run/paired.py); bench_group_pages, one interleaved job
with its members' pages shared or their own (lsmrepro/run/pages.py). Their
lsmbench arguments are planned here (lsmrepro.plan.studies.tool_runs
resolves a study's run arguments first); the dataset and binaries are the
rule's inputs.

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
        # its metric columns -> unit (every other column names the row)
        "units": {"wall_ns_per_lookup": "ns", "cpu_ns_per_lookup": "ns", "speedup_vs_lower_bound_cpu": "ratio",
                  "size_bytes": "bytes", "build_wall_seconds": "s", "build_cpu_seconds": "s",
                  "build_keys_per_cpu_second": "keys/s", "segments": "", "levels": "",
                  "avg_bound_width": "positions", "wrong_answers": ""},
    },
    "lsmbench_pairs": {
        "dimensions": ("dataset", "key_encoding"),
        # args: lsmbench's arguments common to the variants, a list, or
        # {from: STUDY/FIGURE, select: "..."}: that figure's run arguments at the
        # point's dataset (its `datasets` label), so a side benchmark measures
        # what the figure measures. variants: name -> {engine, options: [k=v],
        # select: "..." (with `from`: which of the figure's runs)}; the first is
        # the base. loads: each_round (every variant loads afresh each round,
        # all from the round's seed) or once (one load a variant, then the
        # rounds read it).
        "options": {"args": (list, dict), "variants": dict, "rounds": int, "loads": str},
        "factors": {"variant": "variant", "round": "round"},
        "units": {"get_mean_ns": "ns", "get_p50_ns": "ns", "get_p99_ns": "ns", "run_ops_per_sec": "ops/s",
                  "index_bytes": "bytes", "creation_seconds": "s", "creation_cpu_seconds": "s",
                  "creation_bytes_written": "bytes", "tables": "", "search_ns_per_get": "ns",
                  "blocks_per_get": "", "model_blocks_per_lookup": ""},
    },
    "bench_group_pages": {
        "dimensions": ("dataset", "key_encoding"),
        # args: lsmbench's arguments of the loads and the runs; loads: name ->
        # its -o items; members: name -> {load, options} (the first the base of
        # mean_to_first); run_args: the runs' own; order: the jobs' --pages
        # (shared|own), taking turns; memory: the job's budget (N%db).
        "options": {"args": list, "loads": dict, "members": dict, "run_args": list, "order": list, "memory": str},
        "factors": {"member": "member", "pages": "pages", "job": "job"},
        "units": {"get_mean_ns": "ns", "get_p50_ns": "ns", "mean_to_first": "ratio", "index_search_ns": "ns",
                  "load_data_ns": "ns", "search_data_ns": "ns", "load_index_ns": "ns", "rchar_per_lookup": "bytes",
                  "index_bytes": "bytes"},
        "engine": "leveldb-learned",
    },
}
LOADS = ("each_round", "once")
PAGES = ("shared", "own")
VARIANT_KEYS = {"engine": str, "options": list, "select": str}


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
    if fig["tool"] == "lsmbench_pairs":
        _check_pairs(fig["tool_options"], path, f"{where}.tool_options")
    if fig["tool"] == "bench_group_pages":
        _check_pages(fig["tool_options"], path, f"{where}.tool_options")


def _check_pages(options, path, where):
    if not options["order"] or set(options["order"]) - set(PAGES):
        raise InputError(path, f"{where}.order", f"a list of {', '.join(PAGES)} expected")
    for name, member in options["members"].items():
        if not isinstance(member, dict) or member.get("load") not in options["loads"]:
            raise InputError(path, f"{where}.members.{name}", f"load: one of {', '.join(options['loads'])} expected")


def _check_pairs(options, path, where):
    if options["loads"] not in LOADS:
        raise InputError(path, f"{where}.loads", f"one of {', '.join(LOADS)} expected, got {options['loads']!r}")
    if isinstance(options["args"], dict) and (set(options["args"]) - {"from", "select"}
                                              or "/" not in str(options["args"].get("from", ""))):
        raise InputError(path, f"{where}.args", "a list of lsmbench arguments or {from: STUDY/FIGURE, select: ...} "
                                                "expected")
    if not options["variants"]:
        raise InputError(path, f"{where}.variants", "at least one variant expected")
    for name, variant in options["variants"].items():
        bad = [k for k, v in (variant or {}).items() if k not in VARIANT_KEYS or not isinstance(v, VARIANT_KEYS[k])]
        if bad or "engine" not in (variant or {}):
            raise InputError(path, f"{where}.variants.{name}", "engine (and options: [key=value], select: text) "
                                                               "expected")


def tidy_columns(fig):
    """The tidy columns a tool figure's rows carry besides the common ones."""
    return set(fig["tool_grid"]) | set(TOOLS[fig["tool"]]["factors"].values()) if "tool" in fig else set()


def binary(tool):
    """The tool's binary, relative to the build folder (lsmbench_pairs: none,
    its engines' binaries are its inputs)."""
    return TOOLS[tool].get("binary", "")


def manifest(row):
    """A tool run's identity as JSON text (rule tool_run passes it to
    lsmrepro.run.tool, which keeps it in the run's record): aggregate reads
    the run's factors from it."""
    return json.dumps({"study": row.study, "experiment": row.figure, "point": row.point, "repetition": int(row.rep),
                       "tool": row.tool, "factors": row.factors})


def args(tool, point, options, ops, seed, variants=None, hardware=None):
    """The tool's arguments for one point and repetition (without the path
    of its CSV, which the rule adds). lsmbench_pairs: `variants` name ->
    (engine, lsmbench arguments without --db/--dataset/--log), as
    pair_variants makes them."""
    if tool == "lidx_bench":
        return ["--n", str(point["keys"]), "--datasets", str(point["dataset"]),
                "--indexes", ",".join(options["indexes"]), "--lookups", str(ops),
                "--repeat", str(options["rounds"]), "--seed", str(seed)]
    if tool == "lsmbench_pairs":
        return ["--rounds", str(options["rounds"]), "--loads", options["loads"],
                "--variants", json.dumps({name: {"engine": e, "args": a} for name, (e, a) in variants.items()})]
    if tool == "bench_group_pages":
        return ["--plan", json.dumps(pages_plan(options, point, ops, seed, hardware))]
    raise KeyError(tool)


def pages_plan(options, point, ops, seed, hardware):
    """bench_group_pages's plan (lsmrepro/run/pages.py) of one point: the
    loads' and the runs' lsmbench arguments, the members, the jobs' order and
    the scale's memory budgets (`hardware`: the scale's hardware section)."""
    common = [str(a) for a in options["args"]]
    for flag, value in (("--key-encoding", point["key_encoding"]), ("--seed", seed)):
        common = with_flag(common, flag, value)
    loads = {}
    for name, items in options["loads"].items():
        a = with_flag(common, "--phase", "load")
        for item in items:
            a = with_option(a, item)
        loads[name] = a
    run = with_flag(with_flag([*common, *map(str, options["run_args"])], "--phase", "run"), "--ops", ops)
    return {"loads": loads, "run": run, "order": options["order"], "memory": options["memory"],
            "members": [{"point": n, "load": m["load"], "options": m.get("options", [])}
                        for n, m in options["members"].items()],
            "open_memory": hardware["memory_limit"], "load_memory": hardware["memory_limit"],
            "allow_unenforced": bool(hardware.get("allow_unenforced"))}


def pair_variants(options, point, ops, seed, base_args):
    """name -> (engine, lsmbench arguments) of a lsmbench_pairs point:
    `base_args(variant)` the variant's common arguments (the options' list,
    or its study run's), with the point's key encoding, the scale's ops and
    the repetition's seed, and the variant's `-o` options set."""
    out = {}
    for name, variant in options["variants"].items():
        a = list(base_args(variant))
        for flag, value in (("--key-encoding", point["key_encoding"]), ("--ops", ops), ("--seed", seed),
                            ("--phase", "all"), ("--progress", "never")):
            a = with_flag(a, flag, value)
        for item in variant.get("options", []):
            a = with_option(a, item)
        out[name] = (variant["engine"], a)
    return out


def with_flag(args, flag, value):
    """`args` with `flag`'s value set (lsmbench takes a flag once)."""
    if flag in args:
        i = args.index(flag)
        return args[:i + 1] + [str(value)] + args[i + 2:]
    return [*args, flag, str(value)]


def with_option(args, item):
    """`args` with the lsmbench option `item` ("key=value", `-o`) set."""
    key = item.partition("=")[0] + "="
    hits = [i for i, a in enumerate(args) if a.startswith(key) and i and args[i - 1] == "-o"]
    if hits:
        return args[:hits[0]] + [item] + args[hits[0] + 1:]
    return [*args, "-o", item]


def engines(row):
    """The engines whose lsmbench a tool run uses (lsmbench_pairs, bench_group_pages)."""
    if row.tool == "lsmbench_pairs":
        return sorted({v["engine"] for v in _pair_plan(row).values()})
    return [TOOLS[row.tool]["engine"]] if "engine" in TOOLS[row.tool] else []


def _pair_plan(row):
    return json.loads(row.args[row.args.index("--variants") + 1])


def command(row, files, work):
    """The command of one tool run: `files` its inputs by role (binary;
    lsmbench_pairs: dataset, lsmbench:<engine>), `work` a folder for its
    databases."""
    if row.tool == "lidx_bench":
        return [files["binary"], *row.args]
    if row.tool == "bench_group_pages":
        engine = TOOLS[row.tool]["engine"]
        return ["python", "-m", "lsmrepro.run.pages", "--dataset", files["dataset"], "--work", work,
                f"--lsmbench={engine}={files['lsmbench:' + engine]}", *row.args]
    binaries = [f"--lsmbench={e}={files['lsmbench:' + e]}" for e in engines(row)]
    return ["python", "-m", "lsmrepro.run.paired", "--dataset", files["dataset"], "--work", work, *binaries, *row.args]

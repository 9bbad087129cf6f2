"""Studies as data: the study registry (paper/studies.yaml), each study's
experiment spec (paper/<study>/experiments.yaml) and its expansion into a
table of runs at a scale.

A run is one repetition of one point of a figure's grid. Its id (`point`)
is readable and stable, `engine=leveldb+dataset=uniform+workload=lookups`,
and names its folder: results/<scale>/raw/<study>/<figure>/<point>/r<rep>.*
A load is what a run starts from: the settled database of (engine, the
options that shape the database, dataset, load order, value size, key
encoding, settle mode, seed), shared by every run that starts from the same
one: results/<scale>/loads/<load>. Its seed is the repetition's (seed + r),
unless the scale shares loads between repetitions (`load_repetitions` L of
counts.figures: repetition r then starts from the load of repetition r mod L,
while its own seed still draws its request stream). Keys a workload inserts
are held out of its load: as many as the study's most insert-heavy workload
of as many operations inserts, drawn with the load's seed, so every mix of a
dataset (and every repetition sharing a load) starts from one database.

    python -m lsmrepro.plan.studies check            validate every spec
    python -m lsmrepro.plan.studies runs --scale smoke [--select "engine=leveldb rep=0"]
"""
import argparse
import hashlib
import itertools
import json
import sys
from functools import lru_cache
from pathlib import Path

import pandas as pd

from base import pyimports
from base.errors import InputError, cli
from base.yamlio import load_yaml, validate
from lsmrepro.plan import index_selectors, scale_measured, tools
from workloads import catalogue

# Between the name=value parts of a run's or a load's id. Not ",": Snakemake's
# remote executors (Slurm) pass a job's wildcards as name=value,name=value.
ID_SEP = "+"

REPO = Path(__file__).resolve().parents[2]
CONFIG_DIR = REPO / "config"
PAPER = REPO / "paper"
REGISTRY = PAPER / "studies.yaml"
SCHEMA = PAPER / "experiments.schema.yaml"
OPTION_SETS = PAPER / "option_sets.yaml"
ENGINES = REPO / "engines" / "engines.yaml"
DATASETS = catalogue.CATALOGUE
YCSB_DIR = REPO / "workloads" / "ycsb"

# Fields a figure may give as one value or a list (a list is a grid dimension,
# and then part of run ids), with their defaults.
DIMENSIONS = {"load_order": "shuffled", "value_bytes": 64, "key_encoding": "be64", "cache": "warm"}
ID_NAMES = {"load_order": "order", "value_bytes": "value", "key_encoding": "key"}
CHOICES = {"load_order": ("sorted", "shuffled"), "cache": ("warm", "cold")}
TOKEN = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


@lru_cache(maxsize=None)
def registry():
    """study id -> {title, paper (its citation), seed}: every study id, written once."""
    data = load_yaml(REGISTRY)
    if not isinstance(data, dict) or not data:
        raise InputError(REGISTRY, "", "a mapping of study id -> {title, paper, seed} expected")
    for study, entry in data.items():
        if not isinstance(entry, dict) or set(entry) != {"title", "paper", "seed"}:
            raise InputError(REGISTRY, study, "{title: ..., paper: <citation>, seed: <id of ../shared/seeds>} expected")
    return data


def spec_path(study):
    return PAPER / study / "experiments.yaml"


def studies_with_specs():
    """Registered studies that have an experiment spec, in registry order."""
    return [s for s in registry() if spec_path(s).is_file()]


def module_name(name):
    """Rule and Python names: '-' -> '_' (lsm-eval/fig7 -> lsm_eval_fig7)."""
    return name.replace("-", "_")


@lru_cache(maxsize=None)
def _engines():
    return load_yaml(ENGINES)


@lru_cache(maxsize=None)
def datasets_catalogue():
    """workloads/datasets.yaml, validated here, where the study ids its
    `uses` must name are known. A figure gets it as spec["catalogue"]."""
    return catalogue.load(DATASETS, registry())


@lru_cache(maxsize=None)
def _option_sets():
    return load_yaml(OPTION_SETS)


def _token(value, path, field):
    text = str(value).lower() if isinstance(value, bool) else str(value)
    if not text or not set(text) <= TOKEN:
        raise InputError(path, field, f"letters, digits, '.', '_' or '-' expected (it becomes part of a run id), got {value!r}")
    return text


def _listed(value):
    return value if isinstance(value, list) else [value]


def _subgrids(grid):
    """An engine's grid: one mapping option -> values, or a list of them
    whose points are the union of their products (scikit-learn's
    ParameterGrid convention), e.g. boundaries swept for some indexes only."""
    return grid if isinstance(grid, list) else [grid]


def _check_figure(study, fig_id, fig, path):
    where = f"figures.{fig_id}"
    engines, catalogue = _engines(), datasets_catalogue()
    for i, engine in enumerate(fig.get("engines", [])):
        if engine not in engines:
            raise InputError(path, f"{where}.engines.{i}", f"an engine of engines/engines.yaml expected ({', '.join(engines)}), got {engine!r}")
    for key in ("grid", "option_sets"):
        for engine in fig.get(key, {}):
            if engine not in fig.get("engines", []):
                raise InputError(path, f"{where}.{key}.{engine}", f"an engine listed in {where}.engines expected")
    sets = _option_sets()
    for engine, names in fig.get("option_sets", {}).items():
        for name in names:
            if name not in sets:
                raise InputError(path, f"{where}.option_sets.{engine}", f"an option set of paper/option_sets.yaml expected ({', '.join(sets)}), got {name!r}")
            if sets[name]["engine"] != engine:
                raise InputError(path, f"{where}.option_sets.{engine}", f"option set {name!r} is for {sets[name]['engine']}")
    for engine, grids in fig.get("grid", {}).items():
        for options in _subgrids(grids):
            for option, values in options.items():
                _token(option, path, f"{where}.grid.{engine}")
                for v in values:
                    _token(v, path, f"{where}.grid.{engine}.{option}")
    for i, other in enumerate(fig.get("uses", [])):
        if other == fig_id or other not in load_yaml(path)["figures"]:
            raise InputError(path, f"{where}.uses.{i}", f"another figure of this spec expected, got {other!r}")
    datasets = fig.get("datasets", {})
    labels = datasets if isinstance(datasets, dict) else {d: d for d in datasets}
    for label, name in labels.items():
        _token(label, path, f"{where}.datasets")
        if name not in catalogue["datasets"]:
            raise InputError(path, f"{where}.datasets.{label}", f"a dataset of workloads/datasets.yaml expected, got {name!r}")
    for name, w in fig.get("workloads", {}).items():
        _token(name, path, f"{where}.workloads")
        if w["kind"] == "ycsb" and ycsb_spec_file(w["spec"]) is None:
            raise InputError(path, f"{where}.workloads.{name}.spec",
                             f"a file of workloads/ycsb/ or a mix of workloads/datasets.yaml expected, got {w['spec']!r}")
    for dim, choices in CHOICES.items():
        for v in _listed(fig.get(dim, DIMENSIONS[dim])):
            if v not in choices:
                raise InputError(path, f"{where}.{dim}", f"one of {', '.join(choices)} expected, got {v!r}")
    for dim in DIMENSIONS:
        for v in _listed(fig.get(dim, DIMENSIONS[dim])):
            _token(v, path, f"{where}.{dim}")
    _check_interleave(fig, path, where)
    if "tool" in fig:
        tools.check_figure(fig, path, where)
    lengths = {dim: len(fig[dim]) if isinstance(fig.get(dim), list) else None for dim in fig.get("paired", [])}
    if None in lengths.values() or len(set(lengths.values())) > 1:
        raise InputError(path, f"{where}.paired", "dimensions given as lists of one length expected, got "
                                                  + ", ".join(f"{d}: {n or 'not a list'}" for d, n in lengths.items()))


# Workload kinds that write nothing, and the YCSB properties of a mix that
# writes: read-only runs take turns, writing ones only where the scale says
# their writes stay in the memtable, since a flush or compaction of one
# database would run during another's turn.
READ_ONLY = ("point", "range")
YCSB_WRITES = ("insertproportion", "updateproportion", "readmodifywriteproportion")


def read_only(w):
    """Whether a workload writes nothing: a point or range workload, or a
    YCSB mix whose write proportions (its overrides, else its spec file's)
    are all 0."""
    if w["kind"] == "ycsb":
        return all(float(_ycsb_property(w, p, 0)) == 0 for p in YCSB_WRITES)
    return w["kind"] in READ_ONLY


def _check_interleave(fig, path, where):
    """`interleave`: grid options of the figure's one engine. Its read-only
    runs take turns; its writing runs only where a scale says so
    (`interleave_writes`)."""
    if not (names := fig.get("interleave")):
        return
    if len(fig.get("engines", [])) != 1:
        raise InputError(path, f"{where}.interleave", "a figure of one engine expected (the databases "
                                                      "that take turns are opened by one lsmbench)")
    options = {o for g in _subgrids(fig.get("grid", {}).get(fig["engines"][0], {})) for o in g}
    for name in names:
        if name not in options:
            raise InputError(path, f"{where}.interleave", f"an option of the figure's grid expected "
                                                          f"({', '.join(sorted(options))}), got {name!r}")


@lru_cache(maxsize=None)
def load_spec(study):
    """The validated experiment spec of a registered study, its index
    families resolved (index_selectors)."""
    if study not in registry():
        raise InputError(REGISTRY, study, f"a registered study expected ({', '.join(registry())})")
    path = spec_path(study)
    data = load_yaml(path)
    validate(data, SCHEMA, path)
    index_selectors.expand_spec(data, path)
    for fig_id, fig in data["figures"].items():
        _check_figure(study, fig_id, fig, path)
    return data


def figures(study):
    return load_spec(study)["figures"]


def all_figures():
    """[(study, figure id, figure spec)] of every study with a spec."""
    return [(s, f, spec) for s in studies_with_specs() for f, spec in figures(s).items()]


def caption(study, figure):
    """The report's caption: the paper's number, then the spec's caption."""
    fig = figures(study)[figure]
    number = fig["paper_figure"]
    return fig["caption"] if number == "—" else f"{number}. {fig['caption']}"


def code_of(path):
    """The files a Python file of the repository runs: `path` (relative to
    the repository) and every file it reaches through imports, relative to
    the repository. Snakemake reruns a shell rule when its inputs change,
    not the modules it calls, so an analysis rule lists these as inputs and
    an edit to them makes its output again."""
    roots = {p.name for p in REPO.iterdir() if (p / "__init__.py").is_file()}
    code = [str(p.relative_to(REPO)) for p in pyimports.reached(REPO / path, REPO, roots)]
    return code + [data for module, files in DATA_READ.items() if module in code for data in files]


def figure_code(study, figure):
    """The files a figure's function runs: paper/<study>/<figure>.py and
    what it reaches (a study's helpers, paper/plotting.py, ...)."""
    return code_of(f"paper/{study}/{figure}.py")


# The repository's data files a module reads (at import or when called), so
# that a rule running it lists them beside its code.
DATA_READ = {"indexes/registry.py": ("indexes/registry.json",),
             "engines/registry.py": ("engines/sources.yaml", "engines/engines.yaml")}


def is_table(study, figure):
    """A table-only target: its function returns no figure, so only its
    table is made (no picture of a table)."""
    return figures(study)[figure].get("output") == "table"


def table_ids():
    """The ids of every table-only target. Rules tell tables from figures by
    id, so an id must be a table in every study that has it."""
    tables = {f for s, f, _ in all_figures() if is_table(s, f)}
    clash = sorted(f"{s}/{f}" for s, f, _ in all_figures() if f in tables and not is_table(s, f))
    if clash:
        raise InputError(spec_path(clash[0].split("/")[0]), clash[0],
                         f"output: table expected: another study's {clash[0].split('/')[1]} is a table-only target")
    return sorted(tables)


def figure_datasets(study, figure):
    """Datasets a figure reads itself (figures without runs, e.g. key CDFs)."""
    fig = figures(study)[figure]
    if "engines" in fig or "datasets" not in fig:
        return []
    d = fig["datasets"]
    return list(d.values()) if isinstance(d, dict) else list(d)


def has_runs(fig):
    """A figure with runs: of engines (lsmbench), or of a tool (tools.py)."""
    return "engines" in fig or "tool" in fig


def study_experiments(study):
    """A study's experiments: its figures with runs."""
    return [f for f, fig in figures(study).items() if has_runs(fig)]


def figure_experiments(study, figure):
    """The experiments (figures with runs) whose tidy rows a figure reads:
    its own, if it has runs, and those it `uses`."""
    specs = figures(study)
    return [f for f in [figure, *specs[figure].get("uses", [])] if has_runs(specs[f])]


def ycsb_spec_file(name):
    """workloads/ycsb/<name>, or the file of a mix named in the catalogue."""
    mixes = datasets_catalogue().get("mixes", {})
    if name in mixes:
        return mixes[name]
    if (YCSB_DIR / name).is_file():
        return f"workloads/ycsb/{name}"
    return None


def _scale_entry(scale_cfg, study, fig_id):
    """A figure's entry in a scale file (`counts.figures.<study/figure>`), or {}."""
    return (scale_cfg or {}).get("counts", {}).get("figures", {}).get(f"{study}/{fig_id}", {})


def counts(scale_cfg, study, fig_id, fig):
    """ops and repetitions of a figure at a scale: the spec gives the paper's,
    the scale file caps them (`counts.max_*`) or sets them per figure."""
    c = (scale_cfg or {}).get("counts", {})
    out = {"ops": fig["ops"], "repetitions": fig["repetitions"]}
    for key in out:
        cap = c.get(f"max_{key}")
        if cap is not None:
            out[key] = min(out[key], cap)
    out.update({k: v for k, v in _scale_entry(scale_cfg, study, fig_id).items() if k in out})
    return out


def load_repetitions(scale_cfg, study, fig_id, repetitions):
    """How many of a figure's repetitions load their own database at a scale:
    every one (the paper's protocol) unless `counts.figures.<study/figure>.
    load_repetitions` shares them (check_scale keeps it <= repetitions)."""
    return _scale_entry(scale_cfg, study, fig_id).get("load_repetitions", repetitions)


def load_scale(name, config_dir=CONFIG_DIR):
    """config/scales/<name>.yaml, validated against config/scale.schema.yaml
    and against the study specs it names (check_scale), with its measured
    half config/scales/<name>.measured.yaml (tool-written noise and
    claims_underpowered, lsmrepro.plan.scale_measured) merged in."""
    path = Path(config_dir) / "scales" / f"{name}.yaml"
    data = load_yaml(path)
    scale_measured.tool_written(data, path)
    validate(data, Path(config_dir) / "scale.schema.yaml", path)
    check_scale(data, path)
    measured = scale_measured.path_of(path)
    return scale_measured.merge(data, scale_measured.read(measured, config_dir), measured)


def check_scale(scale_cfg, path):
    """What the scale schema cannot see: every `counts.figures` entry names a
    figure with runs, and its load_repetitions are at most its repetitions
    at this scale (more would be loads no repetition starts from), and only
    a figure that interleaves interleaves its writes."""
    for key, entry in scale_cfg.get("counts", {}).get("figures", {}).items():
        field = f"counts.figures.{key}"
        study, _, fig_id = key.partition("/")
        figs = figures(study) if study in registry() and spec_path(study).is_file() else {}
        if not has_runs(figs.get(fig_id, {})):
            raise InputError(path, field, "a study/figure with runs expected (paper/<study>/experiments.yaml, "
                                          "a figure with engines or a tool)")
        if "load_repetitions" in entry:
            reps = counts(scale_cfg, study, fig_id, figs[fig_id])["repetitions"]
            if entry["load_repetitions"] > reps:
                raise InputError(path, f"{field}.load_repetitions",
                                 f"at most the figure's {reps} repetitions at this scale expected, "
                                 f"got {entry['load_repetitions']}")
        if "replica_select" in entry and entry.get("replicas", 1) < 2:
            raise InputError(path, f"{field}.replica_select", "`replicas` of 2 or more beside it expected "
                                                             "(the points it selects get replicas 1..)")
        if entry.get("interleave_writes") and not figs[fig_id].get("interleave"):
            raise InputError(path, f"{field}.interleave_writes", f"a figure with `interleave` expected "
                                                                 f"(paper/{study}/experiments.yaml {fig_id} has none)")
        flushing = [n for names in figs[fig_id].get("option_sets", {}).values() for n in names
                    if "write_buffer_size" in (scale_cfg.get("scale_model") or {}).get(n, {})]
        if entry.get("interleave_writes") and flushing:
            raise InputError(path, f"{field}.interleave_writes",
                             f"no interleaved writes where scale_model.{flushing[0]} sizes the write buffer "
                             f"to flush in the run (an interleaved run fails when a flush begins in it)")
    sets = _option_sets()
    for name, entries in (scale_cfg.get("scale_model") or {}).items():
        if name not in sets:
            raise InputError(path, f"scale_model.{name}", f"an option set of {OPTION_SETS} expected")


def scale_select(scale_cfg, study, fig_id):
    """The grid points a scale runs of a figure (`counts.figures.<study/figure>.select`,
    the syntax of --config select), or None for all."""
    return _scale_entry(scale_cfg, study, fig_id).get("select")


def _workload_args(w, ops):
    """The lsmbench arguments of a workload."""
    kind = w["kind"]
    if kind == "point":
        return ["--workload", "point", "--negative-share", str(w.get("negative_share", 0.0)), "--ops", str(ops)]
    if kind == "ycsb":
        props = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in sorted(w.get("properties", {}).items())]
        spec = ycsb_spec_file(w["spec"])
    elif kind == "range":
        n = w["scan_length"]
        spec = "workloads/ycsb/workloade"
        props = ["insertproportion=0", "readproportion=0", "requestdistribution=uniform", "scanproportion=1",
                 "updateproportion=0", f"maxscanlength={n}", f"minscanlength={n}"]
    else:  # inserts
        spec = "workloads/ycsb/workloada"
        props = ["insertproportion=1", "readproportion=0", "updateproportion=0"]
    return ["--workload", "ycsb", "--spec", spec, *[a for p in props for a in ("-p", p)], "--ops", str(ops)]


def _dimension_points(fig):
    """Every combination of a figure's dimensions: a grid, except that the
    dimensions in `paired` advance together (their i-th values)."""
    paired = fig.get("paired", [])
    free = [d for d in DIMENSIONS if d not in paired]
    zipped = list(zip(*(fig[d] for d in paired))) if paired else [()]
    return [{**dict(zip(free, values)), **dict(zip(paired, z))}
            for values in itertools.product(*(_listed(fig.get(d, DIMENSIONS[d])) for d in free))
            for z in zipped]


def _load_shaping(study, options):
    """The options a run's values make part of its load even where its
    figure lists them as run options: the study's `load_shaping` entries
    whose `when` the run's options match."""
    return {o for rule in load_spec(study).get("load_shaping", [])
            if all(options.get(k) == str(v) for k, v in rule["when"].items()) for o in rule["options"]}


REPLICA_SEED_STRIDE = 100000  # replica i's load seeds: seed + i x this (repetitions never reach it)


def scale_model_options(scale_cfg, option_set):
    """The options a scale's `scale_model` sets for an option set (ours of
    each entry; the paper's value and why stay in the scale file)."""
    return {k: v["ours"] for k, v in ((scale_cfg or {}).get("scale_model") or {}).get(option_set, {}).items()}


def _point_rows(study, fig_id, fig, cnt, interleave_writes=False, replicas=1, scale_cfg=None):
    """One dict per point of the grid (repetitions not yet expanded); with
    `interleave_writes` (the scale's say) its writing runs take turns too;
    `replicas` > 1 (the scale's A/A replicas) repeats every point with a
    factor `replica` and load seeds of its own, so it starts from its own
    load (runs() keeps replicas 1.. of the scale's `replica_select` only);
    its request stream stays its point's, as the systems a claim compares
    share theirs, and in a figure that interleaves it takes turns in its
    point's job (`replica` is no part of the group); each option set's
    options as the scale's `scale_model` sets them."""
    datasets = fig["datasets"]
    labels = datasets if isinstance(datasets, dict) else {d: d for d in datasets}
    varying = [d for d in DIMENSIONS if isinstance(fig.get(d), list)]
    sets = _option_sets()
    rows = []
    for engine in fig["engines"]:
        fixed = {}
        for name in fig.get("option_sets", {}).get(engine, []):
            fixed.update(sets[name]["options"])
            fixed.update(scale_model_options(scale_cfg, name))
        grids = _subgrids(fig.get("grid", {}).get(engine, {}))
        combos = [(grid, combo) for grid in grids for combo in itertools.product(*grid.values())]
        for grid, combo in combos:
            chosen = dict(zip(grid, (_token(v, "", "") for v in combo)))
            for label, dataset in labels.items():
                for wname, w in fig["workloads"].items():
                    for dim, replica in itertools.product(_dimension_points(fig), range(replicas)):
                        parts = [("engine", engine), *chosen.items(), ("dataset", label), ("workload", wname)]
                        parts += [(ID_NAMES.get(d, d), dim[d]) for d in varying]
                        parts += [("replica", replica)] if replicas > 1 else []
                        options = {**{k: str(v) for k, v in fixed.items()}, **chosen}
                        shaping = _load_shaping(study, options)
                        factors = {k: _token(v, "", "") for k, v in parts}
                        rows.append({
                            "study": study, "figure": fig_id,
                            "point": ID_SEP.join(f"{k}={v}" for k, v in factors.items()), "factors": factors,
                            "engine": engine, "dataset": label, "dataset_name": dataset,
                            "workload": wname, **{d: dim[d] for d in DIMENSIONS}, **chosen,
                            "options": options, "workload_spec": w,
                            "memory_limit": fig.get("memory_limit"), "settle": fig.get("settle", "wait"),
                            "timed_loads": fig.get("timed_loads", False),
                            "ops": cnt["ops"], "seed": fig.get("seed", 1000), "replica": replica,
                            "load_seed_offset": replica * REPLICA_SEED_STRIDE,
                            "run_options": [o for o in fig.get("run_options", []) if o not in shaping],
                            "group": _group_id(factors, [*fig.get("interleave", []), "replica"])
                            if interleave_writes or read_only(w) else "",
                        })
    return rows


def _group_id(factors, interleaved):
    """The interleaved job a point's runs belong to: its id without the
    factors whose values take turns in one process; "" when none do."""
    if not [k for k in interleaved if k != "replica"]:
        return ""
    return _bounded(ID_SEP.join(f"{k}={v}" for k, v in factors.items() if k not in interleaved))


def interleave_groups(frame):
    """(study, figure, group, rep) -> its runs, in grid order: the
    interleaved jobs of a run table (rows whose `group` is not "")."""
    out = {}
    for r in frame[frame["group"] != ""].itertuples() if len(frame) else []:
        out.setdefault((r.study, r.figure, r.group, r.rep), []).append(r)
    return out


def run_manifest(row):
    """A run's identity and set-up as JSON text (the bench rule passes it to
    lsmrepro.run.bench, which attaches it to the run's log as `manifest`):
    aggregate reads the run's factors from it, never from its id."""
    return json.dumps({"study": row.study, "experiment": row.figure, "point": row.point,
                       "repetition": row.rep, "engine": row.engine, "dataset": row.dataset,
                       "factors": row.factors, "options": row.options})


def _load_id(row):
    """The load a run starts from, as a readable id: every input of the
    database's content (YCSB workloads choose the loaded keys: digested)."""
    shaping = {k: v for k, v in sorted(row["options"].items()) if k not in row["run_options"]}
    parts = [("engine", row["engine"]), *shaping.items(), ("dataset", row["dataset_name"]),
             ("order", row["load_order"]), ("value", row["value_bytes"]), ("key", row["key_encoding"]),
             ("settle", row["settle"]), ("seed", row["load_seed"])]
    w = row["workload_spec"]
    if row.get("holdout_share"):
        order = _holdout_group(row)[2]
        parts.append(("holdout", f"{row['holdout_share']:g}x{row['ops']}{'-ordered' if order == 'ordered' else ''}"))
    # YCSB's own field sizes replace value_bytes. Any other workload's load
    # writes every key with value_bytes-byte values, the same database as a
    # point workload's, so they share one load.
    if fields := {k: v for k, v in sorted(w.get("properties", {}).items()) if k in ("fieldcount", "fieldlength")}:
        parts.append(("fields", hashlib.sha256(json.dumps(fields).encode()).hexdigest()[:10]))
    return _bounded(ID_SEP.join(f"{k}={v}" for k, v in parts))


def _ycsb_property(w, name, default):
    """A YCSB workload's property: its own override, else its spec file's."""
    if name in w.get("properties", {}):
        return w["properties"][name]
    return _ycsb_properties(ycsb_spec_file(w["spec"])).get(name, default)


def _insert_share(w):
    """The share of a workload's operations that insert keys held out of its load."""
    if w["kind"] in ("point", "range"):
        return 0.0
    if w["kind"] == "inserts":
        return 1.0
    return float(_ycsb_property(w, "insertproportion", 0))


def _holdout_shares(points):
    """(study, ops, insertorder) -> the largest insert share of those points:
    a load holds out as many keys as the most insert-heavy workload of its
    study that runs as many operations inserts, so a read-heavy and a
    write-only mix of one dataset start from one load (lsmbench
    --holdout-share; the load's seed draws the sample, --holdout-seed)."""
    shares = {}
    for p in points:
        if share := _insert_share(p["workload_spec"]):
            key = _holdout_group(p)
            shares[key] = max(shares.get(key, 0.0), share)
    return shares


def _holdout_group(p):
    w = p["workload_spec"]
    order = "hashed" if w["kind"] == "inserts" else _ycsb_property(w, "insertorder", "hashed")
    return p["study"], p["ops"], order


@lru_cache(maxsize=None)
def _ycsb_properties(path):
    """A YCSB property file as a dict, read once: the run table asks for
    every point and repetition."""
    with open(REPO / path) as f:
        return dict(line.strip().split("=", 1) for line in f if "=" in line and not line.lstrip().startswith("#"))


def _bounded(text, limit=200):
    """A load id short enough for a file name (255 bytes): past `limit`, its
    head and a digest of the whole (never parsed back, so nothing is lost),
    its seed kept in the clear after the digest: the load sets of one
    design then differ in their ids' seed alone, as short ids do, and the
    estimate prices one by another's time (targets._same_load)."""
    if len(text) <= limit:
        return text
    parts = text.split(ID_SEP)
    seed = [p for p in parts if p.startswith("seed=")]
    rest = ID_SEP.join(p for p in parts if not p.startswith("seed="))
    tail = ID_SEP.join([f"id={hashlib.sha256(rest.encode()).hexdigest()[:12]}", *seed])
    head = rest[:limit - len(tail)].rpartition(ID_SEP)[0]  # whole parts only
    return f"{head}{ID_SEP}{tail}"


def runs(scale_cfg, study=None, figure=None, select=None):
    """Every run of the registered studies' figures at a scale as a frame:
    one row per (study, figure, point, rep), with the lsmbench arguments of
    its load (`load_args`) and of its run (`run_args`). `select` keeps the
    runs whose columns equal every given value ("engine=leveldb rep=0")."""
    figures_points = []
    for s, fig_id, fig in all_figures():
        # Every figure of a study sizes its loads' held-out keys, so `figure`
        # narrows what is returned, not what is computed.
        if (study and s != study) or "engines" not in fig:
            continue
        cnt = counts(scale_cfg, s, fig_id, fig)
        shared = load_repetitions(scale_cfg, s, fig_id, cnt["repetitions"])
        entry = _scale_entry(scale_cfg, s, fig_id)
        points = _point_rows(s, fig_id, fig, cnt, entry.get("interleave_writes", False), entry.get("replicas", 1),
                             scale_cfg)
        keep = scale_select(scale_cfg, s, fig_id)
        if keep:
            frame = pd.DataFrame(points)
            points = [p for p, ok in zip(points, selection(frame, keep, f"counts.figures.{s}/{fig_id}.select")) if ok]
        if (replicated := entry.get("replica_select")) and points:
            frame = pd.DataFrame(points)
            chosen = selection(frame, replicated, f"counts.figures.{s}/{fig_id}.replica_select")
            points = [p for p, ok in zip(points, chosen) if ok or p["replica"] == 0]
        figures_points.append((fig_id, cnt, shared, points))
    holdout = _holdout_shares(p for *_, points in figures_points for p in points)
    every_mix = {s for s in studies_with_specs() if load_spec(s).get("every_mix_shares_the_load")}
    rows = []
    for fig_id, cnt, shared, points in figures_points:
        if figure and fig_id != figure:
            continue
        for row in points:
            w = row["workload_spec"]
            shares_load = _insert_share(w) or (row["study"] in every_mix and w["kind"] == "ycsb")
            share = holdout.get(_holdout_group(row)) if shares_load else None
            for rep in range(cnt["repetitions"]):
                # The run's seed draws its request stream; the load's seed
                # orders the load and draws its held-out keys, shared by
                # repetitions r, r + L, ... when the scale shares loads
                # (load_repetitions L); an A/A replica's loads are its own
                # (seeds offset), its request stream its point's.
                r = dict(row, rep=rep, seed=row["seed"] + rep,
                         load_seed=row["seed"] + row["load_seed_offset"] + rep % shared,
                         holdout_share=share)
                r["load"] = _load_id(r)
                r["load_args"] = _lsmbench_args(r, "load")
                r["run_args"] = _lsmbench_args(r, "run")
                rows.append(r)
    frame = _no_lone_groups(pd.DataFrame(rows))
    if select and len(frame):
        frame = frame[selection(frame, select)]
    return frame.reset_index(drop=True)


def _no_lone_groups(frame):
    """A run whose interleaved job would hold it alone (the scale selected
    one member) runs as its own job."""
    if not len(frame):
        return frame
    size = frame.groupby(["study", "figure", "group", "rep"])["point"].transform("size")
    return frame.assign(group=frame["group"].where(size > 1, ""))


def tool_runs(scale_cfg, study=None, select=None):
    """Every run of the figures with a `tool` (tools.py) at a scale: one row
    per (study, figure, point of its tool_grid, rep), with the tool's
    arguments (`args`). The scale's counts and `select` apply as to runs();
    `select` (--config select, written for any figure) narrows by the
    columns these runs have."""
    frames = []
    for s, fig_id, fig in all_figures():
        if (study and s != study) or "tool" not in fig:
            continue
        cnt, grid = counts(scale_cfg, s, fig_id, fig), fig["tool_grid"]
        rows, other_runs = [], {}
        for values in itertools.product(*grid.values()):
            point = dict(zip(grid, (_token(v, "", "") for v in values)))
            for rep in range(cnt["repetitions"]):
                seed = fig.get("seed", 1000) + rep
                pid = ID_SEP.join(f"{k}={v}" for k, v in point.items())
                variants, dataset_name = None, point.get("dataset", "")
                if fig["tool"] == "lsmbench_pairs":
                    dataset_name, base_args = _pair_base(scale_cfg, s, fig_id, fig["tool_options"], point, other_runs)
                    variants = tools.pair_variants(fig["tool_options"], point, cnt["ops"], seed, base_args)
                elif fig["tool"] == "bench_group_pages":
                    dataset_name = _catalogued(s, fig_id, point)
                # no load: each run is its own process from scratch (its `load` its own id)
                rows.append({"study": s, "figure": fig_id, "point": pid, "factors": point, "workload": "",
                             **point, "load": f"{s}/{fig_id}/{pid}/r{rep}", "rep": rep, "seed": seed, "tool": fig["tool"],
                             "binary": tools.binary(fig["tool"]), "dataset_name": dataset_name,
                             "args": tools.args(fig["tool"], point, fig["tool_options"], cnt["ops"], seed, variants,
                                                       scale_cfg.get("hardware"))})
        frame = pd.DataFrame(rows)
        if keep := scale_select(scale_cfg, s, fig_id):
            frame = frame[selection(frame, keep, f"counts.figures.{s}/{fig_id}.select")]
        frames.append(frame)
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    if select and len(frame):
        for key, values in parse_select(select).items():
            if key in frame.columns:
                frame = frame[frame[key].astype(str).isin(values)]
    return frame.reset_index(drop=True)


def _catalogued(study, fig_id, point):
    """The point's dataset, a name of the catalogue (one error otherwise)."""
    if point["dataset"] not in datasets_catalogue()["datasets"]:
        raise InputError(spec_path(study), f"figures.{fig_id}.tool_grid.dataset",
                         f"a dataset of workloads/datasets.yaml expected, got {point['dataset']!r}")
    return point["dataset"]


def _pair_base(scale_cfg, study, fig_id, options, point, cache):
    """(dataset name, variant -> its common lsmbench arguments) of a
    lsmbench_pairs point: the options' list on the catalogue's dataset, or
    (args: {from: STUDY/FIGURE, select}) the run arguments of that figure's
    one run at the point's dataset label and the variant's select, with
    every count but the figure's own selection of the scale (`cache`: that
    figure's runs, made once)."""
    where = f"figures.{fig_id}.tool_options.args"
    spec = options["args"]
    if isinstance(spec, list):
        return _catalogued(study, fig_id, point), lambda variant: [str(a) for a in spec]
    other, _, other_fig = spec["from"].partition("/")
    labels = figures(other).get(other_fig, {}).get("datasets")
    if not labels or point["dataset"] not in labels:
        raise InputError(spec_path(study), f"figures.{fig_id}.tool_grid.dataset",
                         f"a dataset label of {spec['from']} expected ({', '.join(labels or [])}), got {point['dataset']!r}")
    if spec["from"] not in cache:
        cfg = json.loads(json.dumps(scale_cfg))  # a copy: the figure's runs without the scale's selection
        cfg.setdefault("counts", {}).setdefault("figures", {})[spec["from"]] = {"ops": 1, "repetitions": 1}
        cache[spec["from"]] = runs(cfg, other, other_fig)

    def base_args(variant):
        frame = cache[spec["from"]]
        frame = frame[selection(frame, f"{spec.get('select', '')} {variant.get('select', '')} "
                                       f"dataset={point['dataset']}", where)]
        if len(frame) != 1:
            raise InputError(spec_path(study), where, f"one run of {spec['from']} per variant expected, "
                                                      f"found {len(frame)} for {variant}")
        return list(frame.iloc[0]["run_args"])
    return labels[point["dataset"]], base_args


def parse_select(select):
    """"engine=leveldb dataset=osm rep=0" -> {column: [values]} (a key may repeat)."""
    out = {}
    for item in str(select).replace(",", " ").split():
        key, eq, value = item.partition("=")
        if not eq or not key or not value:
            raise InputError("--config select", item, "key=value items expected, e.g. select=\"engine=leveldb rep=0\"")
        out.setdefault(key, []).append(value)
    return out


def selection(frame, select, origin="--config select"):
    mask = pd.Series(True, index=frame.index)
    for key, values in parse_select(select).items():
        if key not in frame.columns:
            names = [c for c in frame.columns if c not in ("options", "workload_spec", "load_args", "run_args", "run_options")]
            raise InputError(origin, key, f"a run column expected ({', '.join(names)})")
        present = set(frame[key].dropna().astype(str))
        # A value no run has selects nothing for that key: a typo ("False"
        # for "false") would silently drop a figure's runs.
        if unknown := [v for v in values if v not in present]:
            raise InputError(origin, key, f"one of the runs' values expected ({', '.join(sorted(present))}), "
                                          f"got {', '.join(unknown)}")
        mask &= frame[key].astype(str).isin(values)
    return mask


def _lsmbench_args(row, phase):
    """lsmbench's arguments of one run's load or run phase (without the
    paths, which the rules add)."""
    seed = row["load_seed"] if phase == "load" else row["seed"]
    args = ["--phase", phase, "--load-order", row["load_order"], "--key-encoding", row["key_encoding"],
            "--seed", str(seed), "--settle", row["settle"]]
    w = row["workload_spec"]
    args += _workload_args(w, row["ops"])
    if row.get("holdout_share"):
        # An A/A replica's load holds out its twin's keys (its shuffle is its
        # own seed's): the two take turns on one request stream, whose record
        # numbers stand for the loaded keys (engines/driver/src/ycsb_stream.h).
        holdout_seed = row["load_seed"] - row.get("load_seed_offset", 0)
        args += ["--holdout-share", f"{row['holdout_share']:g}", "--holdout-seed", str(holdout_seed)]
    if w["kind"] == "point":
        args += ["--value-bytes", str(row["value_bytes"])]
    elif not {"fieldcount", "fieldlength"} & set(w.get("properties", {})):
        args += ["-p", "fieldcount=1", "-p", f"fieldlength={row['value_bytes']}"]
    for k, v in sorted(row["options"].items()):
        if phase == "run" or k not in row["run_options"]:
            args += ["-o", f"{k}={v}"]
    return args


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("check", help="validate the registry and every study's spec")
    r = sub.add_parser("runs", help="print the runs of a scale")
    r.add_argument("--scale", required=True)
    r.add_argument("--study")
    r.add_argument("--figure")
    r.add_argument("--select")
    args = ap.parse_args(argv)
    if args.cmd == "check":
        datasets_catalogue()
        for s in studies_with_specs():
            print(f"{s}: {len(figures(s))} figures: {', '.join(figures(s))}")
        return
    frame = runs(load_scale(args.scale), args.study, args.figure, args.select)
    cols = ["study", "figure", "point", "rep", "load"]
    print(frame[cols].to_string(index=False) if len(frame) else "(no runs)")
    print(f"{len(frame)} runs, {frame['load'].nunique() if len(frame) else 0} loads", file=sys.stderr)


if __name__ == "__main__":
    main()

# Stage plan: every study's runs, loads, targets and run order, from its
# paper/<study>/experiments.yaml through lsmrepro/plan/studies.py, for the
# rules of every stage (workflow/rules/*.smk, paper/paper.smk). Functions and
# tables only: nothing here is specific to one study or figure.
import hashlib
import json

from lsmrepro.claims import measure as claims_measure
from lsmrepro.claims import spec as claims_spec
from lsmrepro.plan import studies as lsm_studies
from lsmrepro.plan import tools as lsm_tools

try:
    CLAIMS = claims_spec.load_claims()
    STUDIES = lsm_studies.studies_with_specs()
    STUDY_FIGURES = [(s, f) for s, f, _ in lsm_studies.all_figures()]
    # Table-only targets (rule study_table) and the rest (rule study_figure),
    # as wildcard patterns: a lookahead on the file name, since regime.csv
    # and a table's .csv share tables/<study>/.
    TABLES = "|".join(lsm_studies.table_ids()) or "(?!)"
    NOT_A_TABLE = rf"(?!(?:regime|{TABLES})[.])[a-zA-Z0-9-]+"
    # Every run of every figure per scale; `select` narrows what targets ask for.
    RUNS = {scale: lsm_studies.runs(SCALES[scale]) for scale in SCALES}
    SELECTED = {scale: lsm_studies.runs(SCALES[scale], select=config.get("select")) for scale in SCALES}
    # Runs of the figures with a `tool` (a microbenchmark, rule tool_run).
    TOOL_RUNS = {scale: lsm_studies.tool_runs(SCALES[scale]) for scale in SCALES}
    TOOL_SELECTED = {scale: lsm_studies.tool_runs(SCALES[scale], select=config.get("select")) for scale in SCALES}
except InputError as e:
    sys.stderr.write(f"error: {e}\n")
    sys.exit(2)

RUN_BY_ID = {scale: {(r.study, r.figure, r.point, r.rep): r for r in frame.itertuples()}
             for scale, frame in RUNS.items()}
TOOL_RUN_BY_ID = {scale: {(r.study, r.figure, r.point, r.rep): r for r in frame.itertuples()}
                  for scale, frame in TOOL_RUNS.items()}
# grouped from RUN_BY_ID's rows: a groupby's itertuples per load took ~10 s of
# every Snakemake start (and every test that starts one)
RUNS_OF_LOAD = {}
for _scale, _by_id in RUN_BY_ID.items():
    _groups = {}
    for _r in _by_id.values():
        _groups.setdefault(_r.load, []).append(_r)
    RUNS_OF_LOAD[_scale] = {load: _groups[load] for load in sorted(_groups)}
# (study, figure, group, rep) -> the runs of that interleaved job (bench_group)
INTERLEAVED = {scale: lsm_studies.interleave_groups(frame) for scale, frame in RUNS.items()}


wildcard_constraints:
    study="|".join(STUDIES) or "none",
    figure=r"[a-zA-Z0-9-]+",
    point=r"[^/]+",
    load=r"[^/]+",
    group=r"[^/]+",


def run_stem(scale, study, figure, point, rep):
    return f"{RESULTS}/{scale}/raw/{study}/{figure}/{point}/r{rep}"


def load_stem(scale, load):
    return f"{RESULTS}/{scale}/raw/loads/{load}"


def load_db(scale, load):
    return f"{hardware_db_dir(scale)}/loads/{load}"


def figure_runs(scale, study, figure=None, selected=True):
    frame = (SELECTED if selected else RUNS)[scale]
    if not len(frame):
        return frame
    rows = frame[frame["study"] == study]
    return rows if figure is None else rows[rows["figure"] == figure]


def run_raw(scale, rows):
    """Every raw file of these runs and of the loads they start from."""
    files = []
    for r in rows.itertuples():
        stem = run_stem(scale, r.study, r.figure, r.point, r.rep)
        files += [f"{stem}.jsonl", f"{stem}.limits.json"]
    for load in sorted(set(rows["load"])) if len(rows) else []:
        files += [f"{load_stem(scale, load)}.jsonl", f"{load_stem(scale, load)}.limits.json"]
    return files


def study_raw(scale):
    """Every raw file of every selected run. Targets request them besides
    the report: Snakemake does not regenerate a deleted intermediate whose
    dependents are up to date, and a deleted raw log must be run again."""
    return run_raw(scale, SELECTED[scale]) + tool_raw(scale, TOOL_SELECTED[scale])


def figure_tool_runs(scale, study, figure=None):
    frame = TOOL_SELECTED[scale]
    if not len(frame):
        return frame
    rows = frame[frame["study"] == study]
    return rows if figure is None else rows[rows["figure"] == figure]


def tool_raw(scale, rows):
    """The CSV and record of each of these tool runs (rule tool_run)."""
    stems = [run_stem(scale, r.study, r.figure, r.point, r.rep) for r in rows.itertuples()]
    return [f for stem in stems for f in (f"{stem}.csv", f"{stem}.tool.json")]


def tool_files(w):
    """A tool run's input files by role (lsmrepro.plan.tools.command): its
    binary, or (lsmbench_pairs) its engines' lsmbench and its dataset."""
    row = tool_row(w)
    if row.binary:
        return {"binary": f"{BUILD}/{row.binary}"}
    return {**{f"lsmbench:{e}": engine_binary(e) for e in lsm_tools.engines(row)},
            "dataset": dataset_file(w.scale, row.dataset_name)}


def tool_row(w):
    try:
        return TOOL_RUN_BY_ID[w.scale][(w.study, w.figure, w.point, int(w.rep))]
    except KeyError:
        raise ValueError(f"{w.study}/{w.figure}: no tool run {w.point!r} rep {w.rep} in its experiments.yaml") from None


def study_logs(scale, study=None):
    """Run and load logs (no runner reports) of a study, or of all."""
    rows = SELECTED[scale] if study is None else figure_runs(scale, study)
    return [p for p in run_raw(scale, rows) if p.endswith(".jsonl")]


def figure_products(scale, study, figure):
    """A figure's PDF and PNG (none for a table-only target) and its table."""
    table = [f"{RESULTS}/{scale}/tables/{study}/{figure}.{ext}" for ext in ("csv", "md")]
    if lsm_studies.is_table(study, figure):
        return table
    return [f"{RESULTS}/{scale}/figures/{study}/{figure}.{ext}" for ext in ("pdf", "png")] + table


def experiment_tidy(scale, study, figure):
    return f"{RESULTS}/{scale}/tidy/{study}/{figure}.csv"


def figure_tidy(scale, study, figure):
    """The tidy tables a figure reads: its experiment's and its `uses`'."""
    return [experiment_tidy(scale, study, e) for e in lsm_studies.figure_experiments(study, figure)]


def figure_claims(study, figure):
    return [c for c in CLAIMS if c["study"] == study and c["figure"] == figure]


def scale_digest(scale):
    """The scale's settings as one digest, a params value of the claims
    rules: the verdicts read its noise, claims_underpowered and
    claims_without_data (its measured half, <scale>.measured.yaml, merged
    in by load_scale), so editing them re-judges (a file input would also
    re-judge on a comment)."""
    text = json.dumps(SCALES[scale], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def claimed_experiments(study, figure):
    """The experiments a figure's claims read."""
    return sorted(set().union(*(claims_measure.experiments(c) for c in figure_claims(study, figure))))


def figure_claims_products(scale, study, figure):
    """A figure's own verdicts (none when no claim is about it)."""
    if not figure_claims(study, figure):
        return []
    return [f"{RESULTS}/{scale}/claims/{study}/{figure}.{ext}" for ext in ("csv", "md")]


def claims_products(scale, study):
    return [f"{RESULTS}/{scale}/claims/{study}.{ext}" for ext in ("csv", "md")]


def study_products(scale, study=None):
    files = []
    for s, f in STUDY_FIGURES:
        if study in (None, s):
            files += figure_products(scale, s, f)
    for s in STUDIES:
        if study in (None, s):
            files += claims_products(scale, s)
            files.append(f"{RESULTS}/{scale}/tables/{s}/regime.csv")  # rule study_regime
    return files


def _peers(scale, rows):
    """Every binary and dataset the figures of these runs compare: no run
    starts before all are built, so repetitions interleave across engines
    and no build competes with a measurement."""
    figs = {(r.study, r.figure) for r in rows}
    peers = RUNS[scale][[ (s, f) in figs for s, f in zip(RUNS[scale]["study"], RUNS[scale]["figure"])]]
    return sorted({engine_binary(e) for e in peers["engine"]} |
                  {dataset_file(scale, d) for d in peers["dataset_name"]})


def run_row(w):
    try:
        return RUN_BY_ID[w.scale][(w.study, w.figure, w.point, int(w.rep))]
    except KeyError:
        raise ValueError(f"{w.study}/{w.figure}: no point {w.point!r} rep {w.rep} in its experiments.yaml") from None


def own_input(f):
    """A run's own input; none for an interleaved run, whose only input
    is its job's folder (rule bench_group)."""
    return lambda w: [] if run_row(w).group else f(w)


def group_rows(w):
    try:
        return INTERLEAVED[w.scale][(w.study, w.figure, w.group, int(w.rep))]
    except KeyError:
        raise ValueError(f"{w.study}/{w.figure}: no interleaved group {w.group!r} rep {w.rep}") from None


def group_dir(scale, r):
    """The folder an interleaved run's job leaves its log in."""
    return f"{RESULTS}/{scale}/raw/{r.study}/{r.figure}/interleaved/{r.group}/r{r.rep}"


def _without_options(args):
    """lsmbench arguments without their -o items: what the runs of an
    interleaved job must share."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a == "-o":
            skip = True
        else:
            out.append(a)
    return out


def group_args(w):
    """The lsmbench arguments the runs of an interleaved job share."""
    rows = group_rows(w)
    shared = _without_options(rows[0].run_args)
    for r in rows[1:]:
        if _without_options(r.run_args) != shared:
            raise ValueError(f"{w.study}/{w.figure}: interleaved runs {rows[0].point} and {r.point} differ "
                             f"in more than engine options: {shared} vs {_without_options(r.run_args)}")
    return " ".join(shared)


def group_members(w):
    """The runs of an interleaved job as lsmrepro.run.bench_group's --members."""
    return json.dumps([{"point": r.point, "from": load_db(w.scale, r.load),
                        "load_log": f"{load_stem(w.scale, r.load)}.jsonl",
                        "manifest": json.loads(lsm_studies.run_manifest(r)),
                        "options": [a for flag, a in zip(r.run_args, r.run_args[1:]) if flag == "-o"],
                        "meta": [f"point={r.point}", f"dataset={r.dataset}", f"load={r.load}"]}
                       for r in group_rows(w)])


def load_rows(w):
    try:
        return RUNS_OF_LOAD[w.scale][w.load]
    except KeyError:
        raise ValueError(f"no figure starts from load {w.load!r}") from None


def bench_inputs(row_of):
    """Input functions of a benchmark job whose spec row is row_of(w)."""
    def binary(w):
        return engine_binary(row_of(w).engine)

    def build_id(w):
        return engine_build_id(row_of(w).engine)

    def dataset(w):
        return dataset_file(w.scale, row_of(w).dataset_name)

    def manifest(w):
        return dataset(w) + ".manifest.json"

    return binary, build_id, dataset, manifest


def key_lengths_file(scale, row):
    """A variable-length key set's per-key lengths (decimal_var), or nothing."""
    if row.key_encoding != "decimal_var":
        return []
    return [f"{RESULTS}/{scale}/datasets/{row.dataset_name}_keylen_uint32"]


def key_lengths_arg(wildcards, input):
    return f"--key-lengths {input.key_lengths}" if input.key_lengths else ""


def bench_memory_limit(row, phase="run"):
    """The spec's limit; a share of the database (`N%db`) limits runs only,
    as a load has no database yet (it runs under the scale's limit)."""
    if not isinstance(row.memory_limit, str):
        return None
    if phase == "load" and "%db" in row.memory_limit:
        return None
    return row.memory_limit


# Benchmark jobs in figure order, within a figure repetition by repetition,
# and within a repetition condition by condition (dataset, workload, sizes)
# with the things a claim compares (engine, index, table format, ...)
# varying fastest: the two sides of a claim's pair run one after the other,
# not an hour apart. Run-to-run noise here is the machine's (co-tenants'
# memory traffic) and partly shared by runs close in time: alternating two
# bourbon fig9 points run by run correlated 0.3-0.8, and repetitions of one
# point run an hour apart drifted by up to 25% (paper/README.md, "Run order").
COMPARED = ("engine", "index", "table", "slr", "learning", "granularity", "doblix.model", "keep_keys")
FIGURE_RANK = {fig: i for i, fig in enumerate(STUDY_FIGURES)}
REP_SPAN = 1 + max((int(f["rep"].max()) for f in RUNS.values() if len(f)), default=0)


def _point_order(factors):
    conditions = sorted((k, str(v)) for k, v in factors.items() if k not in COMPARED + ("dataset", "workload"))
    return (str(factors.get("dataset")), str(factors.get("workload")), conditions,
            [str(factors.get(k)) for k in COMPARED])


POINT_RANK = {}  # scale -> (study, figure, point) -> its place in the figure's repetition
for _scale, _by_id in RUN_BY_ID.items():
    _points = {}
    for _r in _by_id.values():
        _points.setdefault((_r.study, _r.figure), {})[_r.point] = _r.factors
    POINT_RANK[_scale] = {(s, f, pt): i for (s, f), pts in _points.items()
                          for i, pt in enumerate(sorted(pts, key=lambda pt: (_point_order(pts[pt]), pt)))}
POINT_SPAN = 1 + max((len(ranks) for ranks in POINT_RANK.values()), default=0)
assert (len(FIGURE_RANK) + 1) * REP_SPAN * POINT_SPAN < BUILD_PRIORITY  # builds stay first


def run_priority(scale, study, figure, point, rep):
    figure_place = (len(FIGURE_RANK) - FIGURE_RANK[(study, figure)]) * REP_SPAN - int(rep)
    return figure_place * POINT_SPAN - POINT_RANK[scale][(study, figure, point)]


def load_priority(scale, load):
    """A load runs just before the first run that starts from it."""
    return max(run_priority(scale, r.study, r.figure, r.point, r.rep) for r in RUNS_OF_LOAD[scale][load])


FIGURE_CODE = lsm_studies.code_of("paper/figure.py")  # read once at DAG build, not per figure job


# A figure's inputs: the tidy tables of its experiments, its spec, every file
# of ours its code reads, the dataset catalogue, the datasets it reads itself,
# and the study's claims with the code that draws their paper numbers in it.
def figure_inputs(w):
    return {"tidy": figure_tidy(w.scale, w.study, w.figure), "spec": f"paper/{w.study}/experiments.yaml",
            "code": lsm_studies.figure_code(w.study, w.figure), "style": "paper/plotting.py",
            "paper_marks": [*FIGURE_CODE,
                            *(str(p.relative_to(lsm_studies.REPO)) for p in claims_spec.claim_files(w.study))],
            "catalogue": str(lsm_studies.DATASETS.relative_to(lsm_studies.REPO)),
            "datasets": [dataset_file(w.scale, d) for d in lsm_studies.figure_datasets(w.study, w.figure)],
            "fingerprint": f"{RESULTS}/{w.scale}/hardware/fingerprint.json"}

"""Makes one figure: calls `figure(tidy, spec)` of paper/<study>/<figure>.py,
a pure function of the figure's tidy rows (failed runs included, metric
`failed`) and its spec (experiments.yaml's entry, plus `study`, `id`,
`caption`, `dataset_files`: label -> path, `fingerprint`: the
machine's hardware fingerprint, a dict, and `catalogue`: the dataset
catalogue, workloads/datasets.yaml), returning (a matplotlib Figure
or None for a table-only target, a DataFrame). Writes PDF + PNG of a figure
(none for a table: no picture of a table) and the table as CSV + Markdown,
each atomically. On a figure with claims it draws the paper's numbers
(paper/paper_marks.py) and adds a `paper` column to its table.

A figure function that raises leaves a figure and a table that say so, with
the error, and an `error:` line naming the figure (so does a figure whose runs
come from more than one machine fingerprint: they are never averaged): the other figures, and the
report, are still made.

    python -m paper.figure --study baseline --figure point --tidy results/smoke/tidy/baseline/point.csv \\
        --out-pdf ... --out-png ... --out-csv ... --out-md ...
"""
import argparse
import json
import importlib.util
import sys
import traceback

import pandas as pd

from lsmrepro.plan import studies
from lsmrepro.tidy.table import read_tidy
from base.errors import InputError, cli
from lsmrepro.claims import measure as claims_measure
from lsmrepro.claims import spec as claims_spec
from paper import paper_marks, plotting

ERROR_COLUMNS = ["study", "figure", "error"]


def load_function(study, figure):
    path = studies.PAPER / study / f"{figure}.py"
    spec = importlib.util.spec_from_file_location(f"paper_{studies.module_name(study)}_{studies.module_name(figure)}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.figure


def figure_spec(study, figure, dataset_files=(), fingerprint=None):
    spec = dict(studies.figures(study)[figure])
    names = studies.figure_datasets(study, figure)
    spec.update(study=study, id=figure, caption=studies.caption(study, figure),
                dataset_files=dict(zip(names, dataset_files)), fingerprint=fingerprint or {},
                catalogue=studies.datasets_catalogue())
    return spec


def figure_claims(study, figure):
    """The claims of paper/<study>/claims.yaml about this figure."""
    files = claims_spec.claim_files(study)
    return [c for c in claims_spec.load_claims(files) if c["figure"] == figure] if files else []


def make(study, figure, tidy, dataset_files=(), fingerprint=None):
    """(figure or None, table, error or None) of one figure."""
    spec = figure_spec(study, figure, dataset_files, fingerprint)
    keep = [figure, *spec.get("uses", [])]
    rows = tidy[tidy["experiment"].isin(keep)] if "experiment" in tidy.columns else tidy
    try:
        machines = sorted(set(rows.get("fingerprint", pd.Series(dtype=str)).dropna().astype(str)) - {""})
        if len(machines) > 1:
            # Numbers of two machines are never averaged into one figure.
            raise ValueError(f"runs from {len(machines)} machine fingerprints ({', '.join(machines)});"
                             " remake the figure's runs on one machine")
        # a figure draws the study's own runs: replicas 1.. are the A/A claims'
        rows = claims_measure.study_rows(rows).reset_index(drop=True)
        fig, table = load_function(study, figure)(rows, spec)
        if not isinstance(table, pd.DataFrame):
            raise TypeError(f"figure() returned a {type(table).__name__} as its table; a DataFrame expected")
        # no paper mark for an A/A claim: its 1 is no paper's number, and its replica is not drawn
        claims = [c for c in figure_claims(study, figure) if not claims_spec.is_aa(c["id"])]
        marks = paper_marks.draw(fig, rows, claims) if fig is not None else [mk for c in claims for mk in paper_marks.marks(c)]
        table = paper_marks.table_column(table, rows, marks)
        return fig, table, None
    except Exception as e:  # a broken figure must not stop the others
        trace = traceback.format_exc()
        sys.stderr.write(trace)
        error = f"{type(e).__name__}: {e}"
        return None, pd.DataFrame([{"study": study, "figure": figure, "error": error}], columns=ERROR_COLUMNS), error


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", required=True)
    ap.add_argument("--figure", required=True)
    ap.add_argument("--tidy", nargs="*", default=[], help="the tidy tables of the figure's experiments (none: a figure without runs)")
    ap.add_argument("--datasets", nargs="*", default=[], help="files of the figure's datasets, in spec order")
    ap.add_argument("--fingerprint", help="the machine's hardware fingerprint (JSON), given to the figure as spec['fingerprint']")
    for name in ("csv", "md"):
        ap.add_argument(f"--out-{name}", required=True)
    for name in ("pdf", "png"):
        ap.add_argument(f"--out-{name}", help="the figure (not given for a table-only target)")
    args = ap.parse_args(argv)
    tidy = read_tidy(args.tidy)
    fingerprint = None
    if args.fingerprint:
        with open(args.fingerprint) as f:
            fingerprint = json.load(f)
    fig, table, error = make(args.study, args.figure, tidy, args.datasets, fingerprint)
    caption = " ".join(filter(None, [studies.caption(args.study, args.figure),
                                     paper_marks.caption(figure_claims(args.study, args.figure))]))
    if error:
        print(f"error: figure {args.study}/{args.figure}: {error}", file=sys.stderr)
        fig = plotting.error_figure(f"{args.study}/{args.figure}", error)
        caption = f"FIGURE FAILED: {error}\n\n{caption}"
    if fig is not None and args.out_pdf and args.out_png:
        plotting.save_figure(fig, args.out_pdf, args.out_png)
    elif args.out_pdf or args.out_png:
        raise InputError(f"paper/{args.study}/{args.figure}.py", "figure()",
                         "a matplotlib figure expected: the spec says output: figure")
    plotting.save_table(table, args.out_csv, args.out_md, caption)


if __name__ == "__main__":
    main()

"""Per claim, the ./reproduce command that reruns the runs it reads, and
what that costs (issue 56 item 5: artifact-evaluation checklists ask for
the command and the resources of each claim).

    python -m lsmrepro.publish.rerun --scale local [--results results] [--out FILE]

A claim reads the tidy rows of its figure's experiments (the figure and
those it `uses`) and of any experiment a selector names
(lsmrepro.claims.measure.experiments). Its command is its figure's target,
plus the target of each experiment the figure does not already run; a
figure target reruns all of the figure's runs, so a claim reading part of
a figure is priced at the whole figure. The price is lsmrepro.plan.targets'
estimate of those figures together, each load counted once, from the job
times measured here (or the shipped reference's): wall seconds, the disk
of their loads (upper bound), and how many of their jobs have no time yet.
"""
import argparse

import humanfriendly
import pandas as pd

from base.atomic import atomic_path
from base.errors import cli
from lsmrepro.claims.measure import experiments
from lsmrepro.claims.spec import load_claims
from lsmrepro.plan import studies, targets

COLUMNS = ["study", "claim", "rerun", "rerun_seconds", "rerun_wall", "rerun_disk", "rerun_unmeasured_jobs"]


def command(claim, scale):
    """The ./reproduce command line of a claim at a scale."""
    study, figure = claim["study"], claim["figure"]
    ran = set(studies.figure_experiments(study, figure)) if studies.spec_path(study).is_file() else set()
    extra = sorted(experiments(claim) - ran - {figure})
    words = ["./reproduce", *(f"{study}/{f}" for f in [figure, *extra])]
    return " ".join(words + ([] if scale == "local" else ["--config", f"scale={scale}"]))


def figures_read(claim):
    """The "study/figure" experiments the command reruns."""
    study, figure = claim["study"], claim["figure"]
    ran = set(studies.figure_experiments(study, figure)) if studies.spec_path(study).is_file() else set()
    return {f"{study}/{f}" for f in ran | experiments(claim)}


def table(results, scale, claims=None):
    """One row per claim (COLUMNS)."""
    price = targets.pricer(results, scale)
    rows = []
    for c in claims if claims is not None else load_claims():
        _, totals = price(figures_read(c))
        seconds = float(totals["seconds"].sum()) if len(totals) else 0.0
        disk = sum(humanfriendly.parse_size(d, binary=True) for d in totals.get("disk of loads (upper bound)", []))
        rows.append({"study": c["study"], "claim": c["id"], "rerun": command(c, scale),
                     "rerun_seconds": round(seconds, 1),
                     "rerun_wall": humanfriendly.format_timespan(round(seconds)) if seconds else "—",
                     "rerun_disk": humanfriendly.format_size(disk, binary=True),
                     "rerun_unmeasured_jobs": int(totals["unmeasured jobs"].sum()) if len(totals) else 0})
    return pd.DataFrame(rows, columns=COLUMNS)


@cli
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", required=True, choices=targets.SCALES)
    ap.add_argument("--results", default="results")
    ap.add_argument("--out", help="CSV to write (default: print a Markdown table)")
    args = ap.parse_args(argv)
    frame = table(args.results, args.scale)
    if not args.out:
        print(frame.to_markdown(index=False))
        return
    with atomic_path(args.out) as tmp:
        frame.to_csv(tmp, index=False)


if __name__ == "__main__":
    main()

"""Checks a `./reproduce <study>/<figure>` argument before Snakemake sees it:
a study that is not registered, or a figure its study does not have, is one
line naming what exists (Snakemake's own MissingRuleException names only
the rule it made of the argument).

    python -m lsmrepro.plan.target_names lsm-eval/fig7 baseline ...
        exit 0 when every study/figure argument names a target, else 2.
Arguments without a '/' are left alone: they may be any rule (engines,
smoke, a study).
"""
import sys

from base.errors import InputError, cli
from lsmrepro.plan import studies


def check(arg):
    study, _, figure = arg.partition("/")
    known = studies.studies_with_specs()
    if study not in known:
        raise InputError(arg, "study", f"no study {study!r}; studies: {', '.join(known)}"
                         " (./reproduce --list)")
    figures = list(studies.figures(study))
    if figure not in figures:
        raise InputError(arg, "figure", f"{study} has no {figure}; its targets: "
                         f"{', '.join(figures)} (./reproduce --list)")


@cli
def main(argv=None):
    for arg in sys.argv[1:] if argv is None else argv:
        if "/" in arg:
            check(arg)


if __name__ == "__main__":
    main()

"""Reading tidy tables (written by lsmrepro/tidy/aggregate.py) back: what the
figures (paper/figure.py) and the claims (lsmrepro/claims/evaluate.py) start from."""
import io

import pandas as pd

from lsmrepro.tidy.aggregate import COLUMNS

TIDY_DTYPES = {"run": str, "dataset": str, "engine": str, "point": str, "note": str}


def read_tidy(paths):
    """One tidy table, or several (a figure's experiments) read as one: the
    columns of any of them, blank where a table has none."""
    if isinstance(paths, (list, tuple)) and len(paths) == 1:
        paths = paths[0]  # a study's table: read once, not joined
    if isinstance(paths, (list, tuple)):
        frames = [_read_one(p) for p in paths]
        if not frames:
            return pd.DataFrame(columns=COLUMNS)
        buf = io.StringIO()
        pd.concat(frames, ignore_index=True).to_csv(buf, index=False)
        buf.seek(0)
        return _read_one(buf)
    return _read_one(paths)


def _read_one(path):
    tidy = pd.read_csv(path, dtype=TIDY_DTYPES, keep_default_na=False, na_values=[""])
    # A grid factor that only some figures have (e.g. slr_segments) is read
    # as float (2.0) because of the others' blanks; integers stay integers,
    # so selections by "2" (claims, figures) find them.
    for column in tidy.columns:
        values = tidy[column]
        if column != "value" and values.dtype.kind == "f" and values.isna().any() \
                and (values.dropna() % 1 == 0).all():
            tidy[column] = values.astype("Int64")
    return tidy

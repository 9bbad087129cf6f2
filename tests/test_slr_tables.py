"""Study slr: Tables 1 and 2 are cut from the data by their stated rules
(not picked by hand), and Figure 3's linearity numbers are least-squares
errors; checked on SOSD files with a planted linear run and a planted gap."""
import json

import numpy as np
import pandas as pd
import pytest

from paper import figure as lsm_figure


def sosd(path, keys):
    keys = np.asarray(keys, dtype="<u8")
    np.concatenate([np.array([len(keys)], dtype="<u8"), keys]).tofile(path)
    with open(f"{path}.manifest.json", "w") as f:
        json.dump({"dataset": "osm", "file": path.name, "count": len(keys), "stand_in": True,
                   "stands_in_for": "osm_cellids_800M_uint64"}, f)
    return str(path)


@pytest.fixture
def planted(tmp_path):
    """Noisy keys, one window of 16 exactly evenly spaced keys (error 0) at
    keys 1600..1615, and one huge gap after key 3007 (in the middle 90%)."""
    rng = np.random.default_rng(1)
    steps = rng.integers(1, 1000, size=4000).astype(np.uint64)
    steps[1601:1616] = 7  # window 100 (keys 1600..1615): a straight line
    steps[3008] = 10**15  # the gap between keys 3007 and 3008
    return sosd(tmp_path / "osm_uint64", np.cumsum(steps) + np.uint64(10**12))


def test_tab1_is_the_window_whose_line_fits_best(planted):
    _, table, error = lsm_figure.make("slr", "tab1", pd.DataFrame(), [planted])
    assert error is None
    assert list(table["location"]) == list(range(1600, 1616))
    assert np.abs(table["error"]).max() < 1e-6


def test_tab2_is_centred_on_the_largest_gap_and_two_segments_fit_better(planted):
    _, table, error = lsm_figure.make("slr", "tab2", pd.DataFrame(), [planted])
    assert error is None
    locations = list(table["location"])
    assert locations == list(range(3000, 3016))
    assert int(table["key"][8]) - int(table["key"][7]) >= 10**15
    assert np.abs(table["two segments: error"]).max() < np.abs(table["one line: error"]).max()


def test_fig3_linearity_is_the_least_squares_error(tmp_path):
    line = sosd(tmp_path / "osm_uint64", np.arange(1, 2001, dtype=np.uint64) * 5)
    other = sosd(tmp_path / "twitter_uint64", np.arange(1, 2001, dtype=np.uint64) ** 2)
    _, table, error = lsm_figure.make("slr", "fig3", pd.DataFrame(), [line, other])
    assert error is None
    assert table.loc[0, "20 segments: worst error"] < 1e-6
    assert table.loc[1, "1 segment: worst error"] > table.loc[1, "20 segments: worst error"] > 0

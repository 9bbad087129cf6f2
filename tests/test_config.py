from pathlib import Path
import copy

import pytest
import yaml

from lsmrepro.plan import config
from lsmrepro.plan import studies
from base.errors import InputError

REPO = Path(__file__).resolve().parent.parent  # the repository root

BASE = yaml.safe_load((REPO / "config" / "config.yaml").read_text())


def test_every_scale_file_is_valid():
    for scale in ("smoke", "local", "paper"):
        c = dict(BASE, scale=scale)
        assert config.check(c)["counts"]["figures"] is not None


def test_unknown_scale_names_field_and_choices():
    with pytest.raises(InputError) as e:
        config.check(dict(BASE, scale="huge"))
    msg = str(e.value)
    assert "config.yaml" in msg and "scale" in msg and "smoke, local, paper" in msg and "'huge'" in msg


def _bad_smoke(tmp_path, mutate):
    """The InputError of loading a copy of config/ whose smoke scale
    `mutate` changed."""
    cfg = tmp_path / "config"
    (cfg / "scales").mkdir(parents=True)
    for f in ("schema.yaml", "scale.schema.yaml"):
        (cfg / f).write_text((REPO / "config" / f).read_text())
    smoke = copy.deepcopy(yaml.safe_load((REPO / "config" / "scales" / "smoke.yaml").read_text()))
    mutate(smoke)
    (cfg / "scales" / "smoke.yaml").write_text(yaml.safe_dump(smoke))
    with pytest.raises(InputError) as e:
        studies.load_scale("smoke", cfg)
    return str(e.value)


def test_wrong_type_in_scale_file_names_file_field_and_type(tmp_path):
    msg = _bad_smoke(tmp_path, lambda s: s["counts"].__setitem__("max_ops", "many"))
    assert "smoke.yaml" in msg and "counts.max_ops" in msg and "expected integer" in msg


@pytest.mark.parametrize("entry, expected", [
    ({"repetitions": 2, "load_repetitions": 0}, "minimum of 1"),
    ({"repetitions": 2, "load_repetitions": 3}, "at most the figure's 2 repetitions at this scale expected, got 3"),
    ({"repetitions": 2, "load_repetitions": "one"}, "expected integer"),
])
def test_bad_load_repetitions_names_file_field_and_expectation(tmp_path, entry, expected):
    msg = _bad_smoke(tmp_path, lambda s: s["counts"]["figures"].__setitem__("bourbon/fig9", entry))
    assert "smoke.yaml" in msg and "counts.figures.bourbon/fig9.load_repetitions" in msg and expected in msg, msg


def test_scale_entry_of_a_figure_without_runs_is_rejected(tmp_path):
    # fig7 draws key CDFs: no runs to count
    msg = _bad_smoke(tmp_path, lambda s: s["counts"]["figures"].__setitem__("bourbon/fig7", {"repetitions": 1}))
    assert "smoke.yaml" in msg and "counts.figures.bourbon/fig7" in msg and "with runs expected" in msg, msg


def test_unknown_top_level_field_is_rejected():
    with pytest.raises(InputError) as e:
        config.check(dict(BASE, scael="smoke"))
    assert "scael" in str(e.value)

from pathlib import Path
import copy

import pytest
import yaml

from lsmrepro import config
from lsmrepro.errors import InputError

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


def test_wrong_type_in_scale_file_names_file_field_and_type(tmp_path):
    cfg = tmp_path / "config"
    (cfg / "scales").mkdir(parents=True)
    for f in ("schema.yaml", "scale.schema.yaml"):
        (cfg / f).write_text((REPO / "config" / f).read_text())
    smoke = yaml.safe_load((REPO / "config" / "scales" / "smoke.yaml").read_text())
    bad = copy.deepcopy(smoke)
    bad["counts"]["max_ops"] = "many"
    (cfg / "scales" / "smoke.yaml").write_text(yaml.safe_dump(bad))
    with pytest.raises(InputError) as e:
        config.load_scale("smoke", cfg)
    msg = str(e.value)
    assert "smoke.yaml" in msg and "counts.max_ops" in msg and "expected integer" in msg


@pytest.mark.parametrize("entry, field, expected", [
    ({"repetitions": 2, "load_repetitions": 0}, "counts.figures.bourbon/fig9.load_repetitions", "minimum of 1"),
    ({"repetitions": 2, "load_repetitions": 3}, "counts.figures.bourbon/fig9.load_repetitions",
     "at most the figure's 2 repetitions at this scale expected, got 3"),
    ({"repetitions": 2, "load_repetitions": "one"}, "counts.figures.bourbon/fig9.load_repetitions", "expected integer"),
])
def test_bad_load_repetitions_names_file_field_and_expectation(tmp_path, entry, field, expected):
    cfg = tmp_path / "config"
    (cfg / "scales").mkdir(parents=True)
    for f in ("schema.yaml", "scale.schema.yaml"):
        (cfg / f).write_text((REPO / "config" / f).read_text())
    smoke = yaml.safe_load((REPO / "config" / "scales" / "smoke.yaml").read_text())
    smoke["counts"]["figures"]["bourbon/fig9"] = entry
    (cfg / "scales" / "smoke.yaml").write_text(yaml.safe_dump(smoke))
    with pytest.raises(InputError) as e:
        config.load_scale("smoke", cfg)
    msg = str(e.value)
    assert "smoke.yaml" in msg and field in msg and expected in msg, msg


def test_scale_entry_of_a_figure_without_runs_is_rejected(tmp_path):
    cfg = tmp_path / "config"
    (cfg / "scales").mkdir(parents=True)
    for f in ("schema.yaml", "scale.schema.yaml"):
        (cfg / f).write_text((REPO / "config" / f).read_text())
    smoke = yaml.safe_load((REPO / "config" / "scales" / "smoke.yaml").read_text())
    smoke["counts"]["figures"]["bourbon/fig7"] = {"repetitions": 1}  # key CDFs: no runs
    (cfg / "scales" / "smoke.yaml").write_text(yaml.safe_dump(smoke))
    with pytest.raises(InputError) as e:
        config.load_scale("smoke", cfg)
    assert "smoke.yaml" in str(e.value) and "counts.figures.bourbon/fig7" in str(e.value)


def test_unknown_top_level_field_is_rejected():
    with pytest.raises(InputError) as e:
        config.check(dict(BASE, scael="smoke"))
    assert "scael" in str(e.value)

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


def test_unknown_top_level_field_is_rejected():
    with pytest.raises(InputError) as e:
        config.check(dict(BASE, scael="smoke"))
    assert "scael" in str(e.value)

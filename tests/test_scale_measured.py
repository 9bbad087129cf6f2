"""The measured half of a scale (config/scales/<scale>.measured.yaml,
lsmrepro/plan/scale_measured.py): tool-written, merged when the scale is
loaded, refused in the hand-set file, one error naming its file and field."""
import shutil

import pytest
import yaml

from base.errors import InputError
from lsmrepro.plan import scale_measured, studies

CONFIG = studies.CONFIG_DIR
MEASURED = {"noise": {"figures": {"baseline/point": {"cv": 0.05, "df": 9, "source": "results/x of today"}}},
            "claims_underpowered": {"aa-leveldb-uniform-throughput": "a reason long enough"}}


def _config(tmp_path, measured=None, hand_edit=None):
    """A copy of config/ with smoke.yaml (edited by `hand_edit`) and, when
    given, a smoke.measured.yaml of `measured` (a dict or text)."""
    (tmp_path / "scales").mkdir()
    for f in ("scale.schema.yaml", "scale.measured.schema.yaml"):
        shutil.copy(CONFIG / f, tmp_path / f)
    hand = yaml.safe_load((CONFIG / "scales" / "smoke.yaml").read_text())
    if hand_edit:
        hand_edit(hand)
    (tmp_path / "scales" / "smoke.yaml").write_text(yaml.safe_dump(hand))
    if measured is not None:
        text = measured if isinstance(measured, str) else yaml.safe_dump(measured)
        (tmp_path / "scales" / "smoke.measured.yaml").write_text(text)
    return tmp_path


def test_every_measured_file_is_as_its_tools_write_it():
    """Rendered again from its data, each file is byte for byte itself: an
    entry typed in by hand in another form, or out of order, shows here."""
    files = sorted((CONFIG / "scales").glob(f"*{scale_measured.SUFFIX}"))
    assert files, "config/scales/local.measured.yaml expected"
    for f in files:
        scale = scale_measured.scale_of(f)
        assert (CONFIG / "scales" / f"{scale}.yaml").is_file(), f"{f.name} has no hand-set scale beside it"
        assert scale_measured.render(scale, scale_measured.read(f, CONFIG)) == f.read_text(), f.name


def test_the_measured_half_is_merged_into_the_scale(tmp_path):
    cfg = studies.load_scale("smoke", _config(tmp_path, MEASURED, lambda h: h["noise"].update(
        figures={"baseline/point": 0.3, "bourbon/fig8": 0.2})))
    assert cfg["noise"]["default"] == 0.1  # hand-set
    assert cfg["noise"]["figures"]["baseline/point"]["cv"] == 0.05  # measured replaces declared
    assert cfg["noise"]["figures"]["bourbon/fig8"] == 0.2  # declared, not measured: kept
    assert cfg["claims_underpowered"] == MEASURED["claims_underpowered"]


@pytest.mark.parametrize("edit, field", [
    (lambda h: h.__setitem__("claims_underpowered", {"x": "a reason long enough"}), "claims_underpowered"),
    (lambda h: h["noise"].__setitem__("claims", {"x": {"cv": 0.1, "df": 2, "source": "results/x today"}}),
     "noise.claims"),
    (lambda h: h["noise"].__setitem__("figures", {"s/f": {"cv": 0.1, "df": 2, "source": "results/x today"}}),
     "noise.figures.s/f"),
])
def test_a_tool_written_field_in_the_hand_set_scale_is_refused(tmp_path, edit, field):
    with pytest.raises(InputError) as e:
        studies.load_scale("smoke", _config(tmp_path, hand_edit=edit))
    msg = str(e.value)
    assert f"smoke.yaml: {field}: tool-written" in msg and "smoke.measured.yaml" in msg


@pytest.mark.parametrize("measured, expected", [
    ({"noise": {"figures": {"s/f": {"cv": 0.05, "source": "results/x of today"}}}},
     "smoke.measured.yaml: noise.figures.s/f: 'df' is a required property"),
    ({"noise": {"default": 0.2}}, "smoke.measured.yaml: noise: unknown field"),  # declared: hand-set
    ({"counts": {"figures": {}}}, "smoke.measured.yaml: (top level): unknown field"),
    ({"claims_underpowered": {"x": "short"}}, "smoke.measured.yaml: claims_underpowered.x: 'short' is too short"),
    ("noise: [", "smoke.measured.yaml: valid YAML expected"),
])
def test_a_malformed_measured_file_is_one_error_naming_it_and_the_field(tmp_path, measured, expected):
    with pytest.raises(InputError) as e:
        studies.load_scale("smoke", _config(tmp_path, measured))
    assert expected in str(e.value)


def test_measured_noise_needs_the_hand_set_default(tmp_path):
    with pytest.raises(InputError, match=r"smoke.measured.yaml: noise: a noise section with its default in smoke.yaml"):
        studies.load_scale("smoke", _config(tmp_path, MEASURED, lambda h: h.pop("noise")))


def test_each_writer_keeps_the_others_section(tmp_path):
    path = _config(tmp_path, MEASURED) / "scales" / "smoke.measured.yaml"
    scale_measured.write(path, underpowered={})
    assert studies.load_scale("smoke", tmp_path)["noise"]["figures"] == MEASURED["noise"]["figures"]
    scale_measured.write(path, underpowered=MEASURED["claims_underpowered"])
    scale_measured.write(path, figures={})
    cfg = studies.load_scale("smoke", tmp_path)
    assert "figures" not in cfg["noise"] and cfg["claims_underpowered"] == MEASURED["claims_underpowered"]
    with pytest.raises(InputError, match="a scale's measured file"):
        scale_measured.write(tmp_path / "scales" / "smoke.yaml", figures={})

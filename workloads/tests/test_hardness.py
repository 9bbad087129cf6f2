"""workloads/hardness.py: the published curve at k*e, and the comparison a
regime row reads (lsmrepro/tidy/regime.py data_hardness)."""
import math

import pytest

from workloads import catalogue, hardness, materialize
from workloads_fixtures import datagen, lidx_hardness  # noqa: F401 (fixtures)

PUB = {"keys": 200, "segments": {"fb": {128: 1000, 256: 250}}}


def test_interpolates_log_log_between_published_epsilons():
    assert math.isclose(hardness.published_at(PUB["segments"]["fb"], 128), 1000)
    assert math.isclose(hardness.published_at(PUB["segments"]["fb"], 181.019), 500, rel_tol=1e-3)
    assert hardness.published_at(PUB["segments"]["fb"], 300) is None


def test_our_epsilon_maps_to_k_times_it_on_the_full_set():
    # 5 keys of a 200-key set: k = 40, so our eps 4 is the full set's 160
    got = hardness.compare("fb", 5, {"4": 600, "100": 1}, PUB)
    assert list(got) == ["4"] and got["4"]["published_eps"] == 160
    assert 600 / got["4"]["published_segments"] > 0.5
    assert hardness.compare("wiki", 5, {"4": 1}, PUB) == {}


def test_the_published_file_names_its_source():
    pub = hardness.load_yaml(hardness.PUBLISHED)
    assert "gre4index/GRE" in pub["source"] and set(pub["segments"]) == {"fb", "osm", "books"}


@pytest.fixture(scope="module")
def local_standins(tmp_path_factory, datagen, lidx_hardness):  # noqa: F811
    """fb, books and osm stand-ins built as the dataset rule builds them at
    local (5M keys), manifests with their hardness."""
    out = tmp_path_factory.mktemp("local")
    return {name: materialize.dataset(name, "local", out / f"{name}_uint64", datagen, out / "nodata",
                                      "prefer", lidx_hardness=lidx_hardness) | {"path": out / f"{name}_uint64"}
            for name in ("fb", "books", "osm", "wiki")}


@pytest.mark.parametrize("name", ["fb", "books", "osm"])
def test_local_standins_are_within_2x_of_the_real_sets_hardness(local_standins, name):
    """issue 55 item 4: at e = 4 and 32 (the real set's 160 and 1280) each
    stand-in's PLA segments are within 2x of GRE's published count."""
    block = local_standins[name]["hardness"]
    assert block["source"].startswith("Wongkham") and set(block["epsilons"]) == {"4", "32"}
    for eps, h in block["epsilons"].items():
        ratio = h["segments"] / h["published_segments"]
        assert 0.5 <= ratio <= 2.0, f"{name} e={eps}: {h['segments']} vs {h['published_segments']}"


def test_wiki_has_our_segments_and_says_why_none_is_published(local_standins):
    block = local_standins["wiki"]["hardness"]
    assert "wiki_revid" in block["unpublished"] and block["epsilons"]["4"]["segments"] > 0
    assert "published_segments" not in block["epsilons"]["4"]
    assert "wiki_revid" in hardness.describe(block)


@pytest.mark.parametrize("name", ["fb", "books", "osm"])
def test_a_40_fold_downsample_at_e_has_the_full_sets_segments_at_40e(local_standins, name, lidx_hardness):  # noqa: F811
    """The mapping hardness.compare uses, checked on a set made at both sizes:
    the 5M-key stand-in at 160 and 1280 against its every-40th key at 4 and 32."""
    path = local_standins[name]["path"]
    full = hardness.measure(lidx_hardness, path, (160, 1280))["segments"]
    down = hardness.measure(lidx_hardness, path, (4, 32), every=40)["segments"]
    for e_full, e_down in (("160", "4"), ("1280", "32")):
        assert 0.8 <= down[e_down] / full[e_full] <= 1.25, (name, full, down)


def test_the_dataset_table_shows_ours_beside_the_real_set(local_standins):
    cat = catalogue.load()
    cat["datasets"] = {k: v for k, v in cat["datasets"].items() if k in ("fb", "osm", "wiki")}
    rows = {r["dataset"]: r for r in catalogue.table1_rows(cat, local_standins["fb"]["path"].parent)}
    assert set(rows) == {"Facebook ID (stand-in)", "OSM Cell ID (stand-in)", "Wikipedia Timestamp (stand-in)"}
    assert rows["Facebook ID (stand-in)"]["pla_segments_vs_real"].startswith("e=4: ")
    assert " vs " in rows["OSM Cell ID (stand-in)"]["pla_segments_vs_real"]
    assert "wiki_revid" in rows["Wikipedia Timestamp (stand-in)"]["pla_segments_vs_real"]

"""workloads/hardness.py: the published curve at k*e, and the comparison a
regime row reads (lsmrepro/tidy/regime.py data_hardness)."""
import math

from workloads import hardness

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

"""The catalogue validates, names only generators datagen has, and a bad
catalogue fails with one line naming the file, the field and the problem."""
import copy
import json
import subprocess

import pytest
import yaml

from base.errors import InputError
from lsmrepro.plan import studies
from workloads import catalogue
from workloads_fixtures import datagen  # noqa: F401 (pytest fixtures)


@pytest.fixture(scope="module")
def cat():
    return catalogue.load()


def test_catalogue_is_valid(cat):
    assert {"fb", "osm", "wiki", "books", "books32", "uden", "uspr", "norm", "logn"} <= set(cat["datasets"])


def test_every_generator_exists_in_datagen(cat, datagen):
    names = {g["name"] for g in json.loads(subprocess.check_output([str(datagen), "list"]))}
    for name, e in cat["datasets"].items():
        gen, _, _, stand_in = catalogue.generator_of(e)
        assert gen in names, name
        assert stand_in == (e["kind"] == "real")


def _write(tmp_path, data):
    p = tmp_path / "datasets.yaml"
    p.write_text(yaml.safe_dump(data))
    return p


@pytest.mark.parametrize("mutate, field, expected", [
    (lambda d: d["datasets"]["fb"].update(colour="red"), "datasets.fb", "unknown field"),
    (lambda d: d["datasets"]["fb"]["real"].update(md5="xyz"), "datasets.fb.real.md5", "does not match"),
    (lambda d: d["datasets"]["uspr"]["size"].pop("paper"), "datasets.uspr.size", "'paper' is a required property"),
    (lambda d: d["datasets"]["uspr"].update(kind="made-up"), "datasets.uspr.kind", "expected one of real, synthetic"),
    (lambda d: d["size_sets"]["udb"].update(pairs_with="nope"), "size_sets.udb.pairs_with", "expected a dataset name"),
    (lambda d: d["datasets"]["fb"]["uses"][0].update(key_bytes=16), "datasets.fb.uses.0.key_bytes",
     "expected 8, the key size key_encoding be64 writes, got 16"),
    (lambda d: d["datasets"]["osm"]["uses"][2].update(key_bytes=8), "datasets.osm.uses.2.key_bytes",
     "expected 16, the key size key_encoding be64_pad16 writes"),
    (lambda d: d["datasets"]["ycsbgen_varlen"]["key_lengths"].update(uniform=[8, 20]),
     "datasets.ycsbgen_varlen.uses.0.key_bytes", "expected 20, the key size key_encoding decimal_var writes"),
    (lambda d: d["datasets"]["fb"]["uses"][0].update(study="lsm_eval"), "datasets.fb.uses.0.study",
     "a study of paper/studies.yaml"),
    (lambda d: d["datasets"]["ycsbgen_varlen"].pop("key_lengths"), "datasets.ycsbgen_varlen.key_lengths",
     "expected for key_encoding decimal_var"),
])
def test_bad_catalogue_is_one_clear_line(tmp_path, cat, mutate, field, expected):
    data = copy.deepcopy(cat)
    mutate(data)
    p = _write(tmp_path, data)
    with pytest.raises(InputError) as e:
        catalogue.load(p, studies=studies.registry())
    assert e.value.path == str(p)
    assert e.value.field == field
    assert expected in e.value.expected
    assert "\n" not in str(e.value)


def test_unknown_dataset(cat):
    with pytest.raises(InputError, match="datasets.nope: unknown dataset"):
        catalogue.entry(cat, "nope")


def test_table1_from_manifests_labels_stand_ins(tmp_path, cat):
    for name in ("ycsbgen_uniform", "ycsbgen_zipf090", "ycsbgen_zipf099", "fb", "osm", "wiki"):
        (tmp_path / f"{name}_uint64.manifest.json").write_text(
            json.dumps({"count": 1000, "stand_in": name in ("fb", "osm", "wiki")}))
    rows = catalogue.table1_rows(cat, tmp_path)
    assert [r["dataset"] for r in rows] == [
        "Facebook ID (stand-in)", "OSM Cell ID (stand-in)", "Wikipedia Timestamp (stand-in)",
        "Uniform", "Zipfian (θ = 0.9)", "Zipfian (θ = 0.99)"]
    assert rows[3]["key_bytes"] == 24 and rows[3]["value_bytes"] == 1000
    assert rows[0]["key_bytes"] == 8 and rows[0]["value_bytes"] == 8


def test_table1_needs_the_manifests(tmp_path, cat):
    with pytest.raises(InputError, match="manifest missing"):
        catalogue.table1_rows(cat, tmp_path)

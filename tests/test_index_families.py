"""Indexes named by family (lsmrepro/plan/index_selectors.py): lsm-eval's
grids and claims name families, not lists of ids. A selector plans exactly
the runs, and a claim judges exactly the members, of the list it replaced;
an unknown family or a misplaced selector is one error naming the file and
the field."""
import copy
import json
import shutil

import pytest
import yaml

from base.errors import InputError
from indexes import registry
from lsmrepro.claims import spec as claims_spec
from lsmrepro.plan import index_selectors, studies

REPO = studies.REPO
LSM_EVAL = REPO / "paper" / "lsm-eval"

# Each selector lsm-eval's files write, and the list it replaced (the files
# of commit 033d1180 spelled these 50 times).
SPELLED = {
    "{family: [clustered, unclustered]}": "[fp, plr, ft, pgm, rs, plex, rmi, alex, lipp, dili, lits]",
    "{family: [clustered, unclustered], learned: true}": "[plr, ft, pgm, rs, plex, rmi, alex, lipp, dili, lits]",
    "{family: clustered}": "[fp, plr, ft, pgm, rs, plex, rmi]",
    "{family: clustered, learned: true}": "[plr, ft, pgm, rs, plex, rmi]",
    "{family: unclustered}": "[alex, lipp, dili, lits]",
}
# The registry those lists were written against: an index registered since
# joins its family (tests/test_add_index.py), not the lists above.
IDS_THEN = ["fp", "plr", "ft", "pgm", "rs", "plex", "rmi", "rmi-sized", "slr-eq", "slr-ea",
            "alex", "lipp", "dili", "lits"]


@pytest.fixture
def registry_then(tmp_path, monkeypatch):
    data = json.loads(registry.MANIFEST.read_text())
    data["indexes"] = [e for e in data["indexes"] if e["id"] in IDS_THEN]
    path = tmp_path / "registry.json"
    path.write_text(json.dumps(data))
    monkeypatch.setattr(registry, "MANIFEST", path)


@pytest.fixture
def spelled_paper(tmp_path):
    """A copy of paper/ whose lsm-eval files spell every family as its list."""
    paper = tmp_path / "paper"
    shutil.copytree(REPO / "paper", paper, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    for name in ("experiments.yaml", "claims.yaml"):
        text = (paper / "lsm-eval" / name).read_text()
        for selector, ids in SPELLED.items():
            text = text.replace(f": {selector}", f": {ids}")
        assert "{family:" not in text, f"lsm-eval/{name}: a selector SPELLED does not list"
        (paper / "lsm-eval" / name).write_text(text)
    return paper


def _planned(scale_cfg):
    frame = studies.runs(scale_cfg)
    return sorted(json.dumps([r.study, r.figure, r.point, r.rep, r.load, r.load_args, r.run_args, r.group])
                  for r in frame.itertuples())


@pytest.mark.parametrize("scale", ["smoke", "local"])
def test_families_plan_the_runs_the_lists_did(scale, registry_then, spelled_paper, monkeypatch):
    scale_cfg = studies.load_scale(scale)
    studies.load_spec.cache_clear()
    try:
        named = _planned(scale_cfg)
        monkeypatch.setattr(studies, "PAPER", spelled_paper)
        studies.load_spec.cache_clear()
        spelled = _planned(scale_cfg)
    finally:
        studies.load_spec.cache_clear()
    assert sum('"lsm-eval"' in r for r in named) > 50
    assert named == spelled


def test_families_judge_the_members_the_lists_did(registry_then, spelled_paper):
    named = claims_spec.load_claims(LSM_EVAL / "claims.yaml")
    spelled = claims_spec.load_claims(spelled_paper / "lsm-eval" / "claims.yaml")
    assert len(named) > 50 and named == spelled


def _index_lists(node, key=None, claim=None):
    """(key, ids, claim) of every list at an index-valued key of a YAML tree."""
    if isinstance(node, dict):
        if "paper" in node and "measure" in node:
            claim = node
        for k, v in node.items():
            yield from _index_lists(v, k, claim)
    elif isinstance(node, list):
        if key in ("index", "lower", "higher", "members") and all(isinstance(x, str) for x in node):
            yield key, node, claim
        for v in node:
            yield from _index_lists(v, key, claim)


def test_lsm_eval_spells_no_family_as_a_list():
    """What lists remain name indexes the paper names: fewer than a family,
    or the members the paper gives a number for (Figure 8's table)."""
    families = [set(registry.family_members(f, learned)) for f in (["clustered"], ["unclustered"],
                                                                   ["clustered", "unclustered"])
                for learned in (None, True)]
    ids = set(registry.table_ids())
    for name in ("experiments.yaml", "claims.yaml"):
        for key, values, claim in _index_lists(yaml.safe_load((LSM_EVAL / name).read_text())):
            if not set(values) <= ids:
                continue  # datasets, workloads
            paper_members = set(claim["paper"].get("members", {})) if claim else set()
            if key == "members" and set(values) == paper_members:
                continue
            assert set(values) not in families, f"lsm-eval/{name}: {key}: {values} is a family"


def _spec_with(tmp_path, monkeypatch, index):
    spec = copy.deepcopy(yaml.safe_load((LSM_EVAL / "experiments.yaml").read_text()))
    spec["figures"]["fig7"]["grid"]["leveldb-learned"][0]["index"] = index
    (tmp_path / "lsm-eval").mkdir()
    (tmp_path / "lsm-eval" / "experiments.yaml").write_text(yaml.safe_dump(spec))
    monkeypatch.setattr(studies, "PAPER", tmp_path)
    studies.load_spec.cache_clear()


@pytest.mark.parametrize("index, field, expected", [
    ({"family": "clusterd"}, "figures.fig7.grid.leveldb-learned.0.index.family",
     "a family of registry.json expected (clustered, unclustered, other), got 'clusterd'"),
    ({"family": ["clustered", "nope"]}, "figures.fig7.grid.leveldb-learned.0.index.family", "got 'nope'"),
    # slr-eq/slr-ea are "other", and no table index
    ({"family": "other"}, "figures.fig7.grid.leveldb-learned.0.index", "at least one table index"),
    ({"family": "clustered", "learnd": True}, "figures.fig7.grid.leveldb-learned.0.index",
     "unknown field (Additional properties are not allowed ('learnd' was unexpected))"),
    ({"families": "clustered"}, "figures.fig7.grid.leveldb-learned.0.index", "'family' is a required property"),
])
def test_a_bad_family_is_one_error_naming_file_and_field(tmp_path, monkeypatch, index, field, expected):
    _spec_with(tmp_path, monkeypatch, index)
    try:
        with pytest.raises(InputError) as e:
            studies.load_spec("lsm-eval")
    finally:
        studies.load_spec.cache_clear()
    msg = str(e.value)
    assert "lsm-eval/experiments.yaml" in msg and field in msg and expected in msg, msg


def test_a_family_only_where_members_are_indexes(tmp_path):
    claims = yaml.safe_load((LSM_EVAL / "claims.yaml").read_text())["claims"]
    ordering = next(c for c in claims if c["measure"]["kind"] == "ordering"
                    and index_selectors.is_selector(c["measure"]["lower"]))
    bad = copy.deepcopy(ordering)
    bad["measure"]["by"] = "dataset"
    path = tmp_path / "lsm-eval" / "claims.yaml"
    path.parent.mkdir()
    path.write_text(yaml.safe_dump({"claims": [bad]}))
    with pytest.raises(InputError) as e:
        claims_spec.load_claims(path)
    assert "claims.0.measure.lower" in str(e.value) and "by is 'dataset'" in str(e.value)
    bad["measure"]["by"] = "index"
    bad["measure"]["where"]["index"] = {"family": "unclustred"}
    path.write_text(yaml.safe_dump({"claims": [bad]}))
    with pytest.raises(InputError) as e:
        claims_spec.load_claims(path)
    assert "claims.0.measure.where.index.family" in str(e.value) and "'unclustred'" in str(e.value)


def test_a_family_is_its_table_indexes_but_variants_in_registry_order():
    assert registry.family_members(["clustered"]) == ["fp", "plr", "ft", "pgm", "rs", "plex", "rmi"]
    assert "rmi-sized" in registry.table_ids()  # a variant: reached by its id only
    assert registry.family_members(["unclustered", "clustered"], learned=True)[:1] == ["plr"]

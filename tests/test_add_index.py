"""Follows indexes/README.md's "Adding an index" with a throwaway index:
one Entry line in lidx's registry (here through the test-only
LIDX_EXTRA_ENTRIES hook of registry.h, as a real index adds it in its
section), `lidx_list` regenerating the manifest, and then the id reaches
the learned engine's option parsing (learned_table_config.cc, which the
adapter's `index` choices and its option errors come from), the differential
suite's `{each_table_index}` groups, lsm-eval's index families and labels,
its planned runs and its family claims' members, with no other file naming
it (the planning is checked without building the index)."""
import json
import subprocess

import pytest

from engines import difftest
from indexes import registry
from lsmrepro.claims import spec as claims_spec
from lsmrepro.plan import index_selectors, studies
from paper import lsm_eval
from tests.test_leveldb_learned import REPO

# A new id over an existing class (PGM): what is under test is the path an
# id takes, not an index.
ENTRY = ('{{"zz-throwaway", "THROWAWAY", "clustered", true, false, lidx::BoundaryKind::kError, '
         '"epsilon", "epsilon_recursive:2"}, &Construct<PgmIndex<K>, K>},')
LAYER = REPO / "engines/leveldb-learned/overlay"

PROBE = r'''
#include <cstdio>
#include "layers/learned/learned_table_config.h"
int main(int argc, char** argv) {
  leveldb::LearnedTableConfig c;
  std::string err;
  if (!leveldb::ParseLearnedTableConfig(argv[1], &c, &err) ||
      !leveldb::CheckLearnedTableConfig(c, &err)) {
    std::printf("error: %s\n", err.c_str());
    return 1;
  }
  for (const auto& [k, v] : leveldb::TableIndexKnobs(c, 1000)) std::printf("%s=%s\n", k.c_str(), v.c_str());
  for (const std::string& id : leveldb::TableIndexIds()) std::printf("table %s\n", id.c_str());
  return 0;
}
'''


def compile_(tmp_path, name, *sources):
    out = tmp_path / name
    subprocess.run(["g++", "-std=gnu++17", "-O0", f"-DLIDX_EXTRA_ENTRIES={ENTRY}",
                    "-I", str(REPO / "indexes/include"), "-I", str(LAYER), *map(str, sources),
                    "-o", str(out)], check=True, capture_output=True)
    return out


@pytest.mark.e2e  # compiles lidx twice (~1 min)
def test_a_registered_index_reaches_engine_difftest_and_study(tmp_path):
    probe_src = tmp_path / "probe.cc"
    probe_src.write_text(PROBE)
    probe = compile_(tmp_path, "probe", probe_src, LAYER / "layers/learned/learned_table_config.cc")
    lidx_list = compile_(tmp_path, "lidx_list", REPO / "indexes/tools/lidx_list.cc")

    # The engine's option parsing: accepted, its boundary mapped to its knob.
    r = subprocess.run([str(probe), "index=zz-throwaway,position_boundary=16"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout
    assert "epsilon=8" in r.stdout and "epsilon_recursive=2" in r.stdout
    assert "table zz-throwaway" in r.stdout
    # ... and an unknown id's error lists it among the table indexes.
    r = subprocess.run([str(probe), "index=nope"], capture_output=True, text=True)
    assert r.returncode == 1 and "zz-throwaway" in r.stdout and "nope" in r.stdout

    # The manifest: regenerated, it carries the new id; the committed one
    # must then differ (lidx_manifest_test would fail until it is updated).
    manifest = tmp_path / "registry.json"
    manifest.write_text(subprocess.run([str(lidx_list)], check=True, capture_output=True,
                                       text=True).stdout)
    entries = json.loads(manifest.read_text())["indexes"]
    assert entries[-1]["id"] == "zz-throwaway" and entries[-1]["boundary"] == "error"
    assert subprocess.run([str(lidx_list), "--check", str(REPO / "indexes/registry.json")],
                          capture_output=True).returncode == 1

    # The differential suite and the study read it from the manifest.
    from indexes import registry
    orig = registry.MANIFEST
    try:
        registry.MANIFEST = manifest
        suite = difftest.load_suite(REPO / "engines/difftest.yaml")
    finally:
        registry.MANIFEST = orig
    assert "leveldb-learned:index=zz-throwaway" in suite["learned-dups"]["runs"]
    assert "leveldb-learned:index=zz-throwaway,keep_keys=true" in suite["learned-keep-keys-decimal24"]["runs"]
    clustered, _, labels = lsm_eval.index_families(manifest)
    assert clustered[-1] == "zz-throwaway" and labels["zz-throwaway"] == "THROWAWAY"


def test_committed_manifest_is_the_registry():
    # Without a build: what paper/lsm_eval.py and difftest see today.
    from indexes import registry
    ids = [e["id"] for e in registry.load()]
    assert len(ids) == len(set(ids)) and "pgm" in registry.table_ids()
    assert lsm_eval.ORDER == lsm_eval.CLUSTERED + lsm_eval.UNCLUSTERED
    assert set(lsm_eval.ORDER) == set(registry.table_ids())


# The manifest line lidx_list writes for ENTRY (the e2e test above checks it does).
THROWAWAY = {"id": "zz-throwaway", "label": "THROWAWAY", "family": "clustered", "table": True,
             "exact": False, "boundary": "error", "knob": "epsilon", "fixed": "epsilon_recursive:2",
             "learned": True, "variant_of": ""}


@pytest.fixture
def registered(tmp_path, monkeypatch):
    """Registers manifest entries (as `lidx_list` would print them after an
    Entry line) for the rest of the test."""
    def add(*entries):
        data = json.loads(registry.MANIFEST.read_text())
        data["indexes"] += list(entries)
        path = tmp_path / "registry.json"
        path.write_text(json.dumps(data))
        monkeypatch.setattr(registry, "MANIFEST", path)
        studies.load_spec.cache_clear()
    yield add
    studies.load_spec.cache_clear()


def _with_index(points, old, new):
    return {p.replace(f"index={old}+", f"index={new}+") for p in points}


def test_a_registered_index_joins_lsm_evals_runs(registered):
    registered(THROWAWAY, dict(THROWAWAY, id="zz-variant", variant_of="pgm"))
    runs = studies.runs(None, "lsm-eval")  # the paper's whole grid
    mine = runs[runs["index"] == "zz-throwaway"]
    # Every figure that runs PGM (a data-clustered learned index, as the
    # throwaway) runs the throwaway at the same points; a variant joins none.
    for fig, pts in runs.groupby("figure"):
        pgm = set(pts.loc[pts["index"] == "pgm", "point"])
        assert _with_index(pgm, "pgm", "zz-throwaway") == set(pts.loc[pts["index"] == "zz-throwaway", "point"]), fig
    assert set(mine["figure"]) == set(runs.loc[runs["index"] == "pgm", "figure"]) and len(mine) > 100
    assert "zz-variant" not in set(runs["index"])
    # At smoke too: fig8 runs every index.
    smoke = studies.runs(studies.load_scale("smoke"), "lsm-eval", "fig8")
    assert "zz-throwaway" in set(smoke["index"])


def _selectors(claim):
    """(field, selector) of a raw claim's index families."""
    for n, m in [("measure", claim["measure"])] + [(f"context.{j}.measure", c["measure"])
                                                   for j, c in enumerate(claim.get("context", []))]:
        for name in index_selectors.WHERES:
            if index_selectors.is_selector(m.get(name, {}).get("index")):
                yield (n, name, "index"), m[name]["index"]
        for name in index_selectors.MEMBER_LISTS:
            if index_selectors.is_selector(m.get(name)):
                yield (n, name), m[name]


def _at(claim, field):
    node = claim
    for part in ".".join(field).split("."):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def test_a_registered_index_joins_its_family_claims(registered):
    import yaml
    raw = yaml.safe_load((REPO / "paper/lsm-eval/claims.yaml").read_text())["claims"]
    registered(THROWAWAY)
    claims = claims_spec.load_claims(REPO / "paper/lsm-eval/claims.yaml")
    joined = 0
    for before, after in zip(raw, claims):
        for field, selector in _selectors(before):
            families = selector["family"] if isinstance(selector["family"], list) else [selector["family"]]
            assert ("zz-throwaway" in _at(after, field)) == ("clustered" in families), (after["id"], field)
            joined += "clustered" in families
    assert joined > 20

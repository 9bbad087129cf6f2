"""Follows engines/leveldb-learned/README.md's "Adding an index" with a
throwaway index: one Entry line in lidx's registry (here through the
test-only LIDX_EXTRA_ENTRIES hook of registry.h, as a real index adds it in
its section), `lidx_list` regenerating the manifest, and then the id reaches
the learned engine's option parsing (learned_table_config.cc, which the
adapter's `index` choices and its option errors come from), the differential
suite's `{each_table_index}` groups and lsm-eval's index families and labels,
with no other file naming it."""
import json
import subprocess

import pytest

from engines import difftest
from paper import lsm_eval
from tests.test_leveldb_learned import REPO

pytestmark = pytest.mark.e2e  # compiles lidx twice (~1 min)

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

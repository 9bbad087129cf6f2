"""engines/registry.py: the real engines.yaml and sources.yaml pass their
schemas; a bad entry is one error naming the file, the field and what was
expected; the files hashed into a build id are the Snakemake rule's inputs."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from engines import build_engine, registry
from base.errors import InputError

REPO = registry.REPO


def test_real_files_pass_their_schemas():
    variants = registry.load_variants()
    assert registry.engine_ids() == list(variants)
    assert set(registry.load_sources()) >= {v["source"] for v in variants.values()}


def _write(tmp_path, variants, sources=None):
    (tmp_path / "sources.yaml").write_text(yaml.safe_dump(
        sources if sources is not None else registry.load_sources()))
    (tmp_path / "engines.yaml").write_text(yaml.safe_dump(variants))
    return tmp_path / "engines.yaml", tmp_path / "sources.yaml"


@pytest.mark.parametrize("edit, field, expected", [
    (lambda v: v["leveldb"].pop("library"), "leveldb", "'library' is a required property"),
    (lambda v: v["leveldb"].update(libary="x.a"), "leveldb", "unknown field"),
    (lambda v: v["leveldb"].update(library="libleveldb.so"), "leveldb.library", r"does not match"),
    (lambda v: v["leveldb"].update(layers="leveldb-hooks"), "leveldb.layers",
     "expected array, got str"),
    (lambda v: v["leveldb"].update(cmake_args=["LEVELDB_INSTALL=OFF"]), "leveldb.cmake_args.0",
     "does not match"),
    (lambda v: v.update(LevelDB=v["leveldb"]), "(top level)", "does not match"),
])
def test_schema_violation_names_file_field_and_expectation(tmp_path, edit, field, expected):
    variants = registry.load_variants()
    edit(variants)
    path, sources = _write(tmp_path, variants)
    with pytest.raises(InputError, match=expected) as e:
        registry.load_variants(path, sources)
    assert e.value.path == str(path) and e.value.field == field


def test_source_must_be_pinned_and_layers_must_exist(tmp_path):
    variants = registry.load_variants()
    variants["leveldb"]["source"] = "leveldb-2"
    path, sources = _write(tmp_path, variants)
    with pytest.raises(InputError, match=r"leveldb.source: expected a source of sources.yaml"):
        registry.load_variants(path, sources)
    variants = registry.load_variants()
    variants["leveldb"]["layers"] = ["no-such-layer"]
    path, sources = _write(tmp_path, variants)
    with pytest.raises(InputError, match=r"leveldb.layers.0: expected a folder engines/no-such-layer/"):
        registry.load_variants(path, sources)


def test_bad_pin_is_named(tmp_path):
    sources = registry.load_sources()
    sources["leveldb"]["sha256"] = "9A37"
    _, path = _write(tmp_path, {}, sources)
    with pytest.raises(InputError) as e:
        registry.pin("leveldb", path)
    assert e.value.field == "leveldb.sha256" and "does not match" in e.value.expected


def test_build_inputs_cover_everything_compiled_in():
    files = {str(p.relative_to(REPO)) for p in registry.build_inputs("leveldb")}
    for must in ("indexes/include/lidx/pgm.h", "engines/driver/src/main.cc",
                 "engines/driver/src/key_codec.h", "engines/driver/log_schema.yaml",
                 "engines/driver/CMakeLists.txt", "workloads/sosd/sosd_format.h",
                 "workloads/ycsb/core_workload.cc", "engines/engines.yaml"):
        assert must in files, must
    assert not any(f.startswith("engines/driver/tests/") for f in files)


def test_an_engine_hashes_its_own_adapter_only():
    """An edit to bourbon's adapter reruns bourbon's results, not leveldb's."""
    adapters = lambda name: {p.name for p in registry.build_inputs(name) if p.name.endswith("_engine.cc")}
    assert adapters("leveldb") == {"leveldb_engine.cc"}
    assert adapters("bourbon") == {"bourbon_engine.cc"}
    assert adapters("rocksdb-doblix") == {"rocksdb_engine.cc"}
    assert REPO / "engines/driver/src/leveldb_engine.h" in registry.build_inputs("bourbon")


def test_layers_are_build_inputs():
    layer = REPO / "engines" / "leveldb"  # the default layer: the variant's own folder
    variants = {"leveldb": registry.load_variants()["leveldb"]}
    if layer.is_dir():
        assert set(layer.rglob("*.patch")) <= set(registry.build_inputs("leveldb", variants))
    variants["leveldb"]["layers"] = ["bourbon"]  # any existing folder stands in for a layer
    inputs = registry.build_inputs("leveldb", variants)
    assert REPO / "engines/bourbon/overlay/layers/bourbon/bourbon.h" in inputs


def test_build_inputs_are_what_the_build_reads():
    """Of a layer folder, its overlay and patches; not its README, scripts,
    log fields or tests. Of the shared folders, sources; not YCSB's specs."""
    for engine in registry.engine_ids():
        for p in registry.build_inputs(engine):
            rel = p.relative_to(REPO)
            if rel.parts[0] == "engines" and rel.parts[1] not in ("driver", "engines.yaml", "build_engine.py"):
                assert rel.parts[2] in (registry.OVERLAY, registry.PATCHES), rel
            assert p.suffix not in (".md", ".py") or rel == Path("engines/build_engine.py"), rel
            assert not rel.is_relative_to("workloads/ycsb") or p.suffix in registry.SOURCE_SUFFIXES, rel


def _toy_tree(tmp_path, monkeypatch):
    """engines/toy/ with code to build and the files beside it a build never reads."""
    root = tmp_path / "engines"
    for rel, text in {"toy/overlay/layers/toy/toy.cc": "int toy;\n", "toy/patches/0001-toy.patch": "--- a\n",
                      "toy/README.md": "# toy\n", "toy/bench.py": "print()\n", "toy/tests/toy_test.cc": "\n",
                      "toy/log.yaml": "{}\n", "driver/src/toy_engine.cc": "\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    variants = {"toy": {"source": "leveldb", "adapter": "toy", "layers": ["toy"]}}
    monkeypatch.setattr(registry, "HERE", root)
    monkeypatch.setattr(registry, "REPO", tmp_path)
    monkeypatch.setattr(registry, "DRIVER", root / "driver")
    monkeypatch.setattr(registry, "load_variants", lambda *a, **k: variants)
    monkeypatch.setattr(build_engine, "REPO", tmp_path)
    return root / "toy"


def test_a_readme_beside_an_engine_keeps_its_build_id(tmp_path, monkeypatch):
    toy = _toy_tree(tmp_path, monkeypatch)
    before = build_engine.overlay_hash("toy")
    for rel in ("README.md", "bench.py", "tests/toy_test.cc", "log.yaml"):
        (toy / rel).write_text("edited\n")
        assert build_engine.overlay_hash("toy") == before, rel
    for rel in ("overlay/layers/toy/toy.cc", "patches/0001-toy.patch"):
        (toy / rel).write_text("edited\n")
        assert build_engine.overlay_hash("toy") != before, rel
        before = build_engine.overlay_hash("toy")


def test_build_id_follows_the_content_of_every_input(monkeypatch, tmp_path):
    header = tmp_path / "extra.h"
    header.write_text("// v1\n")
    monkeypatch.setattr(build_engine, "REPO", tmp_path)
    monkeypatch.setattr(registry, "build_inputs", lambda name: [header])
    before = build_engine.overlay_hash("leveldb")
    header.write_text("// v2\n")
    assert build_engine.overlay_hash("leveldb") != before


def test_snakemake_rule_inputs_are_the_hashed_files(tmp_path):
    """A build whose outputs are older than an index header is out of date,
    and the reason Snakemake gives names that header."""
    build = tmp_path / "build"
    binary = build / "engines/leveldb/bin/lsmbench"
    binary.parent.mkdir(parents=True)
    for f in (binary, build / "engines/leveldb/build_id.json",
              build / "sources" / registry.pin("leveldb")["file"]):
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("")
        os.utime(f, (1, 1))
    r = subprocess.run([sys.executable, "-m", "snakemake", "-n", str(binary),
                        "--config", f"build_dir={build}", f"results_dir={tmp_path}/results"],
                       cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = r.stdout + r.stderr
    assert "rule build_engine" in out
    reason = out[out.index("reason:"):].splitlines()[0]
    hashed = {str(p.relative_to(REPO)) for p in registry.build_inputs("leveldb")}
    assert "indexes/include/lidx/pgm.h" in reason
    named = {w.strip(",") for w in reason.split(":", 2)[-1].split()}
    assert named - {f"{build}/sources/{registry.pin('leveldb')['file']}"} == hashed


def test_every_layer_follows_the_one_overlay_convention_and_patch_format():
    """A LevelDB layer's files live under overlay/layers/<layer>/ (compiled in
    by leveldb-layers, listed first); a RocksDB layer is a plugin under
    overlay/plugin/; every patch is a git diff (engines/README.md, step 2)."""
    variants = registry.load_variants()
    for name, v in variants.items():
        folders = registry.layers(name, variants)
        with_code = [f for f in folders if (f / registry.OVERLAY).is_dir() or (f / registry.PATCHES).is_dir()]
        for folder in with_code:
            files = [p for p in (folder / registry.OVERLAY).rglob("*") if p.is_file()]
            home = "layers" if v["source"] == "leveldb" else "plugin"
            for p in files:
                rel = p.relative_to(folder / registry.OVERLAY).parts
                assert rel[0] == home and len(rel) >= 3, f"{name}: {p.relative_to(REPO)} outside overlay/{home}/<name>/"
            # one folder of its own a layer
            assert len({p.relative_to(folder / registry.OVERLAY).parts[1] for p in files}) <= 1, folder
            for patch in sorted((folder / registry.PATCHES).glob("*.patch")):
                assert patch.read_text().startswith("diff --git a/"), f"{patch.relative_to(REPO)}: not a git diff"
        if v["source"] == "leveldb" and with_code:
            assert folders[0].name == "leveldb-layers", f"{name}: layers must start with leveldb-layers"

"""The engine registry: engines/engines.yaml (the variants, keyed by engine id)
and engines/sources.yaml (their pinned tarballs), each validated against its
JSON schema wherever it is read, and the files an engine build depends on.

Every other place that needs an engine id, a variant or a pin reads it from
here: engines/build_engine.py, engines/fetch.py, the Snakemake rules
(workflow/common.smk) and the tests.
"""
from pathlib import Path

from base.yamlio import load_yaml, validate
from base.errors import InputError

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
VARIANTS = HERE / "engines.yaml"
SOURCES = HERE / "sources.yaml"
DRIVER = HERE / "driver"

# What a build reads of each layer folder (build_engine.apply_overlay): the
# files copied over the pristine tree and the patches applied to it; not
# its README, scripts, log fields or tests, whose edits must not rebuild it
# (and invalidate every result of the engine).
OVERLAY, PATCHES = "overlay", "patches"
# What every lsmbench is made of besides the variant's own layers: the
# driver (its log schema gives the writer its version), the workload and
# index code it compiles in, the variant list and the script that builds.
# Relative to the repository; of a folder, only its C and C++ sources (a
# YCSB spec file beside core_workload.cc is read at run time, not built).
_SHARED_INPUTS = ("engines/driver/src", "engines/driver/CMakeLists.txt",
                  "engines/driver/log_schema.yaml", "workloads/sosd", "workloads/ycsb", "workloads/gen",
                  "indexes/include", "engines/engines.yaml", "engines/build_engine.py")
SOURCE_SUFFIXES = (".h", ".hpp", ".cc", ".cpp", ".c", ".inc")


def load_sources(path=SOURCES):
    """sources.yaml as a dict: source name -> pin, validated."""
    data = load_yaml(path)
    validate(data, HERE / "sources.schema.yaml", path)
    return data


def load_variants(path=VARIANTS, sources=SOURCES):
    """engines.yaml as a dict: engine id -> variant, validated against its
    schema and against what a schema cannot see: each `source` is a pin of
    sources.yaml and each named layer is a folder under engines/."""
    data = load_yaml(path)
    validate(data, HERE / "engines.schema.yaml", path)
    pins = load_sources(sources)
    for name, variant in data.items():
        if variant["source"] not in pins:
            raise InputError(path, f"{name}.source",
                             f"expected a source of {Path(sources).name} "
                             f"({', '.join(sorted(pins))}), got {variant['source']!r}")
        donor = variant.get("library_from")
        if donor is not None and (donor not in data or "library_from" in data[donor]):
            raise InputError(path, f"{name}.library_from",
                             f"expected an engine of {Path(path).name} that builds its own library, got {donor!r}")
        for i, layer in enumerate(variant.get("layers", [])):
            if not (HERE / layer).is_dir():
                raise InputError(path, f"{name}.layers.{i}",
                                 f"expected a folder engines/{layer}/, none exists")
    return data


def engine_ids(path=VARIANTS):
    """Every engine id, in the file's order."""
    return list(load_variants(path))


def variant(name, path=VARIANTS):
    variants = load_variants(path)
    if name not in variants:
        raise InputError(path, name, f"no such engine; known: {', '.join(variants)}")
    return variants[name]


def pin(name, path=SOURCES):
    pins = load_sources(path)
    if name not in pins:
        raise InputError(path, name, f"no such source; known: {', '.join(sorted(pins))}")
    return pins[name]


def layers(name, variants=None):
    """The folders under engines/ laid over the pristine tree, in order: a
    variant's `layers` (shared hooks first, e.g. [leveldb-hooks, wisckey,
    bourbon]), or just its own folder (which may not exist: no own code)."""
    v = (variants or load_variants())[name]
    return [HERE / layer for layer in v.get("layers", [name])]


def _files_under(root, suffixes=None):
    if root.is_file():
        return [root]
    if root.is_dir():
        return [p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                and (suffixes is None or p.suffix in suffixes)]
    return []


def build_inputs(name, variants=None):
    """Every file of ours the build of engine `name` reads, sorted: its
    layers' overlays and patches, the driver, the sources it compiles in,
    engines.yaml and the build script. The build
    id hashes exactly these and the Snakemake rule lists exactly these as
    inputs, so an edit to any of them both changes the id and rebuilds.
    A variant with `library_from` links that variant's library, so that
    variant's layers count too."""
    variants = variants or load_variants()
    owners = [name] + ([variants[name]["library_from"]] if "library_from" in variants[name] else [])
    files = [p for n in owners for layer in layers(n, variants) for part in (OVERLAY, PATCHES)
             for p in _files_under(layer / part)]
    files += [p for shared in _SHARED_INPUTS for p in _files_under(REPO / shared, SOURCE_SUFFIXES)]
    # lsmbench compiles one adapter (driver/CMakeLists.txt): another
    # engine's adapter is not part of this binary, and an edit to it must
    # not rerun this engine's results.
    own = DRIVER / "src" / f"{variants[name]['adapter']}_engine.cc"
    return sorted({p for p in files
                   if not (p.parent == DRIVER / "src" and p.name.endswith("_engine.cc")) or p == own})

"""engines/README.md's variant table lists every engine id of engines.yaml
with its layers, and every layer folder it names exists."""
import re

from engines import registry

README = registry.HERE / "README.md"


def table_rows():
    text = README.read_text()
    section = text[text.index("## Variants\n"):text.index("## Adding an engine variant")]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and re.fullmatch(r"`[\w-]+`", cells[0]):
            rows[cells[0].strip("`")] = re.findall(r"`([\w-]+)`", cells[2])
    return rows


def test_every_variant_is_in_the_readme_with_its_layers():
    rows = table_rows()
    variants = registry.load_variants()
    assert sorted(rows) == sorted(variants)
    for name, variant in variants.items():
        if "library_from" in variant:
            continue
        assert rows[name] == variant.get("layers", []), name
        for layer in rows[name]:
            assert (registry.HERE / layer).is_dir(), layer

"""Engine log fields declared beside each variant (engines/<folder>/log.yaml):
the fragments merge into the log schema's engine record, and the generic
flattener (lsmrepro/tidy/engine_rows.py) turns them into tidy rows and back."""
import shutil

import pytest

from base.errors import InputError
from engines import log_fields
from lsmrepro.tidy import engine_rows

REPO = log_fields.HERE.parent


def _row(metric, value, unit, op="", subset="", **columns):
    return {"metric": metric, "value": value, "unit": unit, "subset": subset, **columns}


def test_every_fragment_field_joins_the_engine_record():
    props = log_fields.log_schema()["$defs"]["engine"]["properties"]
    for path in log_fields.fragment_paths():
        for name in log_fields.load_yaml(path):
            assert name in props, (path, name)


def test_generic_code_names_no_engine_section():
    """aggregate and runlog know no variant: their fields live in the fragments
    (a name another record also has, like the breakdown's `steps`, aside)."""
    driver = log_fields.load_yaml(log_fields.LOG_SCHEMA)["$defs"]
    shared = {f for record in driver.values() for f in (record.get("properties") or {}) if isinstance(record, dict)}
    for module in ("lsmrepro/tidy/aggregate.py", "lsmrepro/tidy/runlog.py", "lsmrepro/tidy/engine_rows.py"):
        text = (REPO / module).read_text()
        for section in set(log_fields.fields()) - shared:
            assert f'"{section}"' not in text, (module, section)


def test_numbers_and_functions_become_rows_and_trace_back():
    record = {"type": "engine",
              "hooks": {"levels": [], "compactions": [], "compaction_totals": {"count": 3, "seconds": 1.5}},
              "learned": {"index": "pgm", "tables_open": 2, "build_failures": 0, "flag": True},
              "doblix": {"model_misses": 4, "agent_episodes": [
                  {"episode": 0, "state": "pla/E128/B4K", "action": "keep", "next_state": "pla/E128/B4K",
                   "distribution_shift": False, "reward": 0.5}]},
              "steps": None}
    rows = engine_rows.rows(record, _row)
    by = {(r["metric"], r["subset"]): r for r in rows}
    assert by[("hooks_compaction_seconds", "")]["unit"] == "s"
    assert by[("learned_tables_open", "")]["value"] == 2
    assert ("learned_flag", "") not in by  # booleans are not numbers unless a mapping says so
    agent = by[("agent_reward", "0")]
    assert agent["agent_block"] == "B4K" and "action=keep" in agent["note"]
    for r in rows:
        assert engine_rows.field(r["metric"], record, r["subset"]) == r["value"], r
    assert {"agent_state", "agent_model", "agent_block"} <= set(engine_rows.columns())


def _fragments(tmp_path, extra):
    root = tmp_path / "engines"
    (root / "driver").mkdir(parents=True)
    shutil.copy(log_fields.LOG_SCHEMA, root / "driver" / "log_schema.yaml")
    for folder, text in extra.items():
        (root / folder).mkdir()
        (root / folder / "log.yaml").write_text(text)
    return root


def test_a_throwaway_variant_declares_a_field_and_its_rows(tmp_path):
    root = _fragments(tmp_path, {"toy": "toy:\n  schema: {type: object}\n  rows:\n"
                                        "    - python: rows.py:rows\n      field: rows.py:field\n      prefix: toy_\n"})
    (root / "toy" / "rows.py").write_text("def rows(v, row):\n    return [row('toy_n', v['n'], '')]\n"
                                          "def field(metric, v, subset, file):\n    return v['n']\n")
    assert "toy" in log_fields.log_schema(root)["$defs"]["engine"]["properties"]
    m = log_fields.fields(root)["toy"][0]
    assert m["python"]({"n": 7}, _row) == [_row("toy_n", 7, "")]


@pytest.mark.parametrize("extra, field, expected", [
    ({"a": "x:\n  schema: {}\n", "b": "x:\n  schema: {}\n"}, "x", "a field no other folder declares"),
    ({"a": "index_bytes:\n  schema: {}\n"}, "index_bytes", "the driver's engine record"),
    ({"a": "x:\n  rows: []\n"}, "x", "'schema' is a required property"),
    ({"a": "x:\n  schema: {}\n  rows:\n    - python: gone.py:f\n      field: gone.py:f\n      prefix: x_\n"},
     "x.rows.0.python", "an existing Python file"),
])
def test_bad_fragment_is_one_clear_line(tmp_path, extra, field, expected):
    root = _fragments(tmp_path, extra)
    with pytest.raises(InputError) as e:
        log_fields.log_schema(root)
        log_fields.fields(root)
    assert e.value.field == field and expected in e.value.expected


def test_a_row_outside_its_prefix_is_refused(monkeypatch):
    m = {"python": lambda v, row: [row("other_n", 1, "")], "field": None, "prefix": "toy_"}
    monkeypatch.setattr(log_fields, "fields", lambda: {"toy": [m]})
    with pytest.raises(InputError, match="start with 'toy_'"):
        engine_rows.rows({"toy": {}}, _row, "log.jsonl")

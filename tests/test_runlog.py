import json

import pytest

from lsmrepro.tidy import runlog
from base.errors import InputError


def test_valid_log_parses_with_line_numbers(tmp_path, sample_records, write_log):
    log = runlog.read(write_log(tmp_path / "a.jsonl", sample_records()))
    assert log.run["engine"] == "leveldb"
    assert [r.line for r in log.records] == list(range(1, 10))
    assert log.of_type("check")[0].data["verified"] == 100


def test_log_cut_mid_line_is_rejected_naming_file_and_line(tmp_path, sample_records):
    path = tmp_path / "killed.jsonl"
    text = "\n".join(json.dumps(r) for r in sample_records()[:4]) + "\n" + json.dumps(sample_records()[4])[:40]
    path.write_text(text)
    with pytest.raises(InputError) as e:
        runlog.read(path)
    msg = str(e.value)
    assert "killed.jsonl" in msg and "line 5" in msg and "cut off" in msg


def test_log_without_end_record_is_rejected(tmp_path, sample_records, write_log):
    with pytest.raises(InputError) as e:
        runlog.read(write_log(tmp_path / "a.jsonl", sample_records()[:-1]))
    assert "`end` record expected" in str(e.value)


def test_record_of_wrong_shape_names_the_field(tmp_path, sample_records, write_log):
    records = sample_records()
    records[4]["p99"] = "fast"
    with pytest.raises(InputError) as e:
        runlog.read(write_log(tmp_path / "a.jsonl", records))
    msg = str(e.value)
    assert "line 5" in msg and "latency" in msg


def test_unknown_record_type_and_wrong_schema_version(tmp_path, sample_records, write_log):
    records = sample_records()
    records.insert(1, {"type": "gossip"})
    with pytest.raises(InputError) as e:
        runlog.read(write_log(tmp_path / "a.jsonl", records))
    assert "'gossip'" in str(e.value)
    records = sample_records()
    records[0]["schema_version"] = 2
    with pytest.raises(InputError):
        runlog.read(write_log(tmp_path / "b.jsonl", records))


def test_failed_run_is_not_a_result(tmp_path, sample_records, write_log):
    records = sample_records(wrong=3)
    records[-1]["status"] = "wrong_answers"
    with pytest.raises(InputError) as e:
        runlog.read(write_log(tmp_path / "a.jsonl", records))
    assert "end.status" in str(e.value)

import pytest

from tests.helpers import sample_records, write_log


@pytest.fixture
def make_log(tmp_path):
    def make(name="leveldb__uniform__r0.jsonl", **kw):
        return str(write_log(tmp_path / name, sample_records(**kw)))
    return make

"""The DobLIX diagnosis scripts (engines/rocksdb-doblix: bench.py, steps.py,
ab.py) share bench.py's arguments, the doblix study's Figure 9 read-only
point, so what they measure is what the figure measures."""
import importlib
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "engines" / "rocksdb-doblix"))

bench = importlib.import_module("bench")


def test_bench_runs_the_studys_read_only_point_on_both_tables():
    args = bench.study_args("smoke", "AMZN", 1000)
    assert set(args) == set(bench.SYSTEMS)
    for engine, table in bench.SYSTEMS.items():
        a = args[engine]
        assert a[a.index("--phase") + 1] == "all" and a[a.index("--ops") + 1] == "1000"
        # §IV-A: no block cache for any system, zipfian reads
        assert f"table={table}" in a and "block_cache_bytes=0" in a and "requestdistribution=zipfian" in a
    assert list(bench.datasets()) == ["WIKI", "AMZN", "FB", "OSM", "LOGN", "UNI"]
    cached = bench._with_item(args["rocksdb"], "block_cache_bytes=", 8)
    assert "block_cache_bytes=8" in cached and "block_cache_bytes=0" not in cached
    assert len(cached) == len(args["rocksdb"])


@pytest.mark.parametrize("name, argv", [
    ("bench", ["--out", "unused.json", "--datasets", "NOPE"]),
    ("steps", ["--datasets", "NOPE"]),
    ("ab", ["--dataset", "NOPE", "--work", "unused", "a=lsmbench:block"]),
])
def test_each_script_rejects_an_unknown_dataset_naming_the_studys(capsys, name, argv):
    """Each script reads the dataset labels from bench.py (the study's), so
    a bad label is one error listing them, before anything is built."""
    with pytest.raises(SystemExit) as e:
        importlib.import_module(name).main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and "NOPE" in err and "one of WIKI, AMZN, FB, OSM, LOGN, UNI" in err, err


def test_bench_rejects_an_unknown_long_key_dataset(capsys):
    """The 64-byte-key comparisons take the study's labels too, checked
    before anything is built."""
    with pytest.raises(SystemExit) as e:
        bench.main(["--out", "unused.json", "--long-key-datasets", "WIKI,NOPE"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "--long-key-datasets" in err and "NOPE" in err, err
    assert "one of WIKI, AMZN, FB, OSM, LOGN, UNI, or none" in err, err

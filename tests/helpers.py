"""Shared by the tests in tests/: the repository root and sample run logs."""
import json
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def write_log(path, records, newline_at_end=True):
    text = "\n".join(json.dumps(r) for r in records) + ("\n" if newline_at_end else "")
    Path(path).write_text(text)
    return path


def sample_records(engine="leveldb", rep=0, harness=10.0, engine_ns=1000.0, wrong=0, run_name=None):
    return [
        {"type": "run", "schema_version": 1, "engine": engine, "build_id": {"id": "b1"},
         "options": {}, "dataset": {"path": "d_uint64", "count": 10, "duplicates": 0, "distinct": 10,
                                    "manifest": None},
         "workload": {"kind": "point"}, "seed": 7,
         "meta": {"study": "baseline", "experiment": "point", "scale": "smoke",
                  "dataset": "uniform", "repetition": str(rep)},
         "attached": {"fingerprint": {"id": "fp1"}}},
        {"type": "phase", "phase": "load", "ops": 10, "seconds": 0.5, "ops_per_sec": 20.0},
        {"type": "phase", "phase": "settle", "ops": 0, "seconds": 0.1, "ops_per_sec": 0.0},
        {"type": "phase", "phase": "run", "ops": 100, "seconds": 0.01, "ops_per_sec": 10000.0},
        {"type": "latency", "op": "get", "subset": "all", "unit": "ns", "count": 100, "mean": 1234.5,
         "min": 900, "p50": 1200, "p90": 1500, "p99": 2000, "p999": 2500, "max": 3000,
         "buckets": [[896, 927, 1], [1184, 1215, 99]]},
        {"type": "breakdown", "scope": "driver", "ops": 100, "unit": "ns",
         "steps": {"engine_call": engine_ns * 100, "harness": harness * 100},
         "per_op": {"engine_call": engine_ns, "harness": harness}},
        {"type": "engine", "index_bytes": 4096, "files_per_level": [0, 1], "compaction_seconds": 0.0,
         "blocks_read": None},
        {"type": "check", "verified": 100, "wrong": wrong, "examples": []},
        {"type": "end", "status": "ok"},
    ]



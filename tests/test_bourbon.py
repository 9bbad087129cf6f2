"""bourbon answers exactly like pristine leveldb in every learning mode and
granularity (the `bourbon-dups` differential group: long duplicate runs,
overwrites, deletes, absent keys, scans), and its model paths really served
lookups and started scans in those runs. The full matrix is documented in engines/bourbon/README.md."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engines import difftest
from tests import checkout_snakemake

REPO = Path(__file__).resolve().parent.parent  # the repository root

pytestmark = pytest.mark.e2e


def engine_record(log):
    return next(json.loads(x) for x in log.read_text().splitlines() if '"type": "engine"' in x
                or '"type":"engine"' in x)


def test_bourbon_group_agrees_and_uses_its_models(built, tmp_path):
    built("leveldb", "bourbon")
    r = subprocess.run([sys.executable, "-m", "engines.difftest", "--suite", str(difftest.SUITE),
                        "--group", "bourbon-dups", "--work", str(tmp_path)],
                       cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "identical answers" in r.stdout
    logs = sorted(tmp_path.rglob("run*.jsonl"))
    shares, seeks = {}, {}
    for log in logs:
        rec = engine_record(log)
        if "bourbon" not in rec:
            continue
        run = json.loads(log.read_text().splitlines()[0])
        label = f"{run['options']['learning']}/{run['options']['granularity']}"
        by_path = rec["bourbon"]["internal_lookups_by_path"]
        shares[label] = (by_path["file_model"] + by_path["level_model"]) / max(1, sum(by_path.values()))
        assert rec["bourbon"]["files_unlearnable"] == 0
        if label.endswith("/file"):  # the stream's scans started in learned tables with their models
            seeks[label] = rec["bourbon"]["model_seeks"]
            assert rec["bourbon"]["table_iterators_by_path"]["file_model"] > 0, label
    assert set(shares) == {"offline/file", "always/file", "cba/file", "always/level"}
    assert all(s > 0.1 for s in shares.values()), shares
    assert all(n > 0 for n in seeks.values()), seeks


def load_then_run(tmp_path, *run_options):
    """A small shuffled load (--phase load), then a run on it (--phase run,
    which never settles) with these options; returns the run's status and log."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    keys = tmp_path / "keys_uint64"
    n = 50_000
    keys.write_bytes(n.to_bytes(8, "little") + b"".join((7 * i + 3).to_bytes(8, "little") for i in range(n)))
    binary = REPO / "build" / "engines" / "bourbon" / "bin" / "lsmbench"
    common = ["--dataset", str(keys), "--db", str(tmp_path / "db"), "--load-order", "shuffled",
              "--key-encoding", "be64_pad16", "--value-bytes", "64", "--workload", "point", "--ops", "20000",
              "--seed", "1", "--progress", "never", "-o", "bloom_bits=10", "-o", "write_buffer_size=262144",
              "-o", "max_file_size=131072"]
    extra = [x for option in run_options for x in ("-o", option)]
    for phase, opts in (("load", []), ("run", extra)):
        r = subprocess.run([str(binary), *common, "--phase", phase, *opts, "--log", str(tmp_path / f"{phase}.jsonl")],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return r, None
    return r, tmp_path / "run.jsonl"


@pytest.mark.parametrize("granularity,path", [("file", "file_model"), ("level", "level_model")])
def test_offline_learns_when_a_run_opens_a_loaded_database(built, disk_tmp_path, granularity, path):
    """The pipeline loads once (--phase load) and runs on a copy (--phase
    run), which never settles: learning=offline must still learn the tables
    the copy holds before the run, or every lookup takes WiscKey's path.
    On the disk: in RAM the run was over before the level model was learned
    (1,759 of 24,383 lookups on it, 2026-12-01)."""
    tmp_path = disk_tmp_path
    built("bourbon")
    r, log = load_then_run(tmp_path, "learning=offline", f"granularity={granularity}")
    assert log is not None, r.stderr
    rec = engine_record(log)["bourbon"]
    by_path = rec["internal_lookups_by_path"]
    # level models serve L1 and below only (L0's tables overlap)
    assert by_path[path] > 0.1 * sum(by_path.values()), by_path


def test_learn_at_open_has_every_table_learned_before_the_run(built, tmp_path):
    """learn_at_open with learning=always (Figures 10, 11: "models
    available"): no table the run found at open serves a lookup on WiscKey's
    path; learning=always alone leaves them to the learner thread, T_wait and
    a queue away, while lookups go on."""
    built("bourbon")
    r, log = load_then_run(tmp_path, "learning=always", "learn_at_open=true")
    assert log is not None, r.stderr
    files = engine_record(log)["bourbon"]["files"]
    # The tables a reopened database holds are stamped with one time, the
    # open's (tables compactions write later have their own).
    opened = min(f["created_s"] for f in files)
    at_open = [f for f in files if f["created_s"] == opened]
    assert len(at_open) >= 4, files
    baseline = {f["number"]: f["internal_lookups_positive"]["baseline"] + f["internal_lookups_negative"]["baseline"]
                for f in at_open}
    assert sum(baseline.values()) == 0, baseline
    assert all(f["state"] == "learned" for f in at_open), [f["state"] for f in at_open]

    r, log = load_then_run(tmp_path / "never", "learning=never", "learn_at_open=true")
    assert log is None and r.returncode != 0
    assert "learn_at_open" in r.stderr and "never" in r.stderr, r.stderr


def test_learned_table_iterator_answers_like_leveldbs(tmp_path):
    """engines/bourbon/tests/model_iterator_test.cc, built against the
    bourbon layers by LevelDB's upstream test harness: the model-seeking
    table iterator against LevelDB's own on the same table files; and, in
    the same build, bourbon_learner_test.cc: LearnAll beside the running
    learner installs each file's model once (issue 54: a replaced model was
    freed under lookups); bourbon_corruption_test.cc: flipped data under an
    open learned reader, and the flip/truncate sweep of a table at stride
    4093 (BOURBON_SWEEP_STRIDE=257 is the long run)."""
    tarball = "build/sources/leveldb-1.23.tar.gz"
    r = checkout_snakemake.build(tarball)
    assert r.returncode == 0, r.stderr[-3000:]
    r = subprocess.run([sys.executable, "engines/leveldb-hooks/upstream_tests.py", "bourbon",
                        "--tarball", tarball, "--work", str(tmp_path / "up"), "--format", "error_bound=8",
                        "--tests", "model_iterator_test,bourbon_learner_test,bourbon_corruption_test"],
                       cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
    assert "model_iterator_test: 15 cases, 0 failed" in r.stdout
    assert "bourbon_learner_test: 1 cases, 0 failed" in r.stdout
    assert "bourbon_corruption_test: 2 cases, 0 failed" in r.stdout


def test_upstream_corruption_tests_pass_on_bourbons_table_format(tmp_path):
    """LevelDB's CorruptionTest, all 12 cases and none skipped, with every
    table in Bourbon's format and learned on open, over LevelDB's own value
    path (--without wisckey: the cases run on an in-memory Env, which the
    value log cannot use; engines/bourbon/README.md, "Checksums")."""
    tarball = "build/sources/leveldb-1.23.tar.gz"
    r = checkout_snakemake.build(tarball)
    assert r.returncode == 0, r.stderr[-3000:]
    r = subprocess.run([sys.executable, "engines/leveldb-hooks/upstream_tests.py", "bourbon", "--without", "wisckey",
                        "--tarball", tarball, "--work", str(tmp_path / "up"), "--format", "error_bound=8",
                        "--tests", "corruption_test"],
                       cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
    assert "corruption_test: 12 cases, 0 failed" in r.stdout
    assert "skip CorruptionTest" not in r.stdout


def _counts(log):
    """What a run counted, not timed: internal lookups by path and level
    (files, hooks), the traced gets' path steps and hooks' steps (calls),
    and the hooks' counters (key comparisons, bytes loaded, tables probed)."""
    records = [json.loads(x) for x in Path(log).read_text().splitlines()]
    eng = next(r for r in records if r["type"] == "engine")

    def lookups(levels):
        return [{k: v for k, v in lv.items() if k.startswith("internal_lookups_")} for lv in levels]

    out = {"by_path": eng["bourbon"]["internal_lookups_by_path"], "bourbon_levels": lookups(eng["bourbon"]["levels"]),
           "hooks_levels": lookups(eng["hooks"]["levels"])}
    for b in (r for r in records if r["type"] == "breakdown"):
        if b["scope"] == "lookup":
            counters = {k: v for k, v in b["counters"].items() if not k.endswith("_per_lookup")}
            out["lookup"] = {"ops": b["ops"], "step_calls": b["step_calls"], **counters}
        elif b["scope"] == "lookup_paths":
            out["paths"] = {p: {"positive": v["internal_lookups_positive"], "negative": v["internal_lookups_negative"],
                                "calls": {s: st["calls"] for s, st in v["steps"].items()}}
                            for p, v in b["paths"].items()}
    return out


def test_interleaved_runs_count_their_own_paths(built, tmp_path):
    """lsmbench --interleave on three copies of one load, WiscKey's path
    (learning=never), file models and level models (learning=offline), step
    timers on: each member's internal lookups by path, its traced path steps
    and the hooks' steps and counters are those of the same run alone, not
    the members' sums, so the adapter's Pause and Resume keep the thread's
    traces and level hint apart. A member whose learner works in the
    background (cba) does not take turns, and the error names it."""
    built("bourbon")
    lsmbench = str(REPO / "build/engines/bourbon/bin/lsmbench")
    keys = tmp_path / "keys_uint64"
    n = 50_000
    keys.write_bytes(n.to_bytes(8, "little") + b"".join((7 * i + 3).to_bytes(8, "little") for i in range(n)))
    # no seek compactions: a run's tree is its load's, whatever the turns
    common = ["--dataset", str(keys), "--load-order", "shuffled", "--key-encoding", "be64_pad16", "--value-bytes",
              "64", "--seed", "1", "--progress", "never", "-o", "bloom_bits=10", "-o", "write_buffer_size=262144",
              "-o", "max_file_size=131072", "-o", "seek_compaction=false"]
    subprocess.run([lsmbench, "--phase", "load", "--db", str(tmp_path / "load"), "--log", str(tmp_path / "load.jsonl"),
                    *common], check=True, capture_output=True, text=True)
    run = [*common, "--phase", "run", "--workload", "point", "--negative-share", "0.2", "--ops", "6000",
           "-o", "timers=on"]
    members = {"never": ["learning=never"], "file": ["learning=offline"],
               "level": ["learning=offline", "granularity=level"]}

    def copy(name):
        subprocess.run(["cp", "-a", str(tmp_path / "load"), str(tmp_path / name)], check=True)
        return str(tmp_path / name)

    alone = {}
    for m, options in members.items():
        log = tmp_path / f"alone-{m}.jsonl"
        subprocess.run([lsmbench, "--db", copy(f"alone-{m}"), "--log", str(log), *run,
                        *[x for o in options for x in ("-o", o)]], check=True, capture_output=True, text=True)
        alone[m] = _counts(log)
    assert alone["never"]["by_path"]["baseline"] > 3000 and alone["file"]["by_path"]["file_model"] > 3000, alone
    assert alone["level"]["by_path"]["level_model"] > 0 and alone["level"]["paths"]["level_model"]["calls"], alone
    spec = {"members": [{"db": copy(f"turns-{m}"), "log": str(tmp_path / f"turns-{m}.jsonl"), "options": options}
                        for m, options in members.items()]}
    (tmp_path / "members.json").write_text(json.dumps(spec))
    subprocess.run([lsmbench, "--interleave", str(tmp_path / "members.json"), "--interleave-batch", "7", *run],
                   check=True, capture_output=True, text=True)
    for m in members:
        assert _counts(tmp_path / f"turns-{m}.jsonl") == alone[m], m

    # the interleaved run removed its copies
    spec["members"] = [{"db": copy(f"cba-{m}"), "log": str(tmp_path / f"cba-{m}.jsonl"), "options": options}
                       for m, options in {"never": ["learning=never"], "cba": ["learning=cba"]}.items()]
    (tmp_path / "members.json").write_text(json.dumps(spec))
    r = subprocess.run([lsmbench, "--interleave", str(tmp_path / "members.json"), *run], capture_output=True, text=True)
    assert r.returncode != 0 and f"{tmp_path / 'cba-cba'}: bourbon does not interleave" in r.stderr, r.stderr

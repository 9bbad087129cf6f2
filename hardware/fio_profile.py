"""Device calibration: run the fio job files, parse fio's JSON into a profile.

    python -m hardware.fio_profile --jobs-dir hardware/fio --dir <db filesystem dir> \\
        --ramp S --runtime S --size SIZE --out profile.json
    python -m hardware.fio_profile --parse fio.json [--out profile.json]

Each `*.fio` file in --jobs-dir is one measurement (fio's INI format, with
${FIO_DIR}, ${FIO_SIZE}, ${FIO_RAMP}, ${FIO_RUNTIME} taken from the
environment); each is run by its own fio process with `--output-format=json`,
one after the other, in the order of MEASUREMENT_ORDER (others after, by name).

The profile has, per measurement: the direction(s) that did I/O with IOPS,
bandwidth (bytes/s), bytes moved, and completion latency (clat) mean, stddev,
p50, p90, p99, p99.9, p99.99 in nanoseconds; the job's options as fio
reports them (global and job sections merged), fio's version, and, when run
here, the filesystem and block device of --dir, the fingerprint id and the load
average before and after (the calibration shares the machine with whatever else
runs: the load says how much).
"""
import argparse
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from base.atomic import write_text
from base.errors import InputError, cli

from base.sizes import parse_size

SCHEMA = "lsmbench/device-profile/1"
MEASUREMENT_ORDER = ["seqwrite-1m", "seqread-1m", "randread-4k-qd1",
                     "randread-4k-qd32", "randwrite-4k"]
PERCENTILES = {"p50": "50.000000", "p90": "90.000000", "p99": "99.000000",
               "p99.9": "99.900000", "p99.99": "99.990000"}
DATA_FILE = "lsmbench-fio.dat"


def load_fio_json(path):
    """fio's JSON output. fio may print notes ('fio: ...') before the JSON
    object; they are skipped. InputError when there is no JSON object."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as e:
        raise InputError(path, None, f"a readable fio JSON output ({e.strerror})")
    start = text.find("{")
    if start < 0:
        raise InputError(path, None, "fio JSON output (fio --output-format=json); "
                                     "found no JSON object")
    try:
        data, _ = json.JSONDecoder().raw_decode(text[start:])
    except json.JSONDecodeError as e:
        raise InputError(path, f"line {e.lineno}", f"valid JSON ({e.msg})")
    if not isinstance(data, dict) or "jobs" not in data or "fio version" not in data:
        raise InputError(path, "jobs", "fio JSON output with 'fio version' and 'jobs'")
    return data


def _direction(d):
    clat = d.get("clat_ns", {})
    pct = clat.get("percentile", {}) or {}
    return {
        "iops": d["iops"],
        "bw_bytes": d["bw_bytes"],
        "io_bytes": d["io_bytes"],
        "runtime_ms": d.get("runtime"),
        "total_ios": d.get("total_ios"),
        "clat_ns": {"mean": clat.get("mean"), "stddev": clat.get("stddev"),
                    "min": clat.get("min"), "max": clat.get("max"),
                    **{k: pct.get(v) for k, v in PERCENTILES.items()}},
        "lat_ns_mean": d.get("lat_ns", {}).get("mean"),
    }


def parse_fio(data, source="fio.json"):
    """{measurement name: record} from one fio JSON output."""
    out = {}
    glob = data.get("global options", {})
    for job in data["jobs"]:
        name = job.get("jobname")
        if not name:
            raise InputError(source, "jobs[].jobname", "a job name")
        if job.get("error"):
            raise InputError(source, f"jobs[{name}].error",
                             f"0 (fio reported error {job['error']})")
        opts = {**glob, **job.get("job options", {})}
        rec = {"job_options": opts,
               "rw": opts.get("rw"), "bs": opts.get("bs"),
               "iodepth": int(opts.get("iodepth", 1)),
               "ioengine": opts.get("ioengine"),
               "direct": int(opts.get("direct", 0)),
               "usr_cpu": job.get("usr_cpu"), "sys_cpu": job.get("sys_cpu")}
        dirs = {}
        for direction in ("read", "write", "trim"):
            d = job.get(direction)
            if d and d.get("io_bytes", 0) > 0:
                dirs[direction] = _direction(d)
        if not dirs:
            raise InputError(source, f"jobs[{name}]", "a job that moved some bytes "
                             "(io_bytes > 0 in read, write or trim)")
        rec.update(dirs)
        # the headline: the direction this job is about (the one with most I/O)
        main = max(dirs, key=lambda k: dirs[k]["io_bytes"])
        rec["direction"] = main
        rec["iops"] = dirs[main]["iops"]
        rec["bw_bytes"] = dirs[main]["bw_bytes"]
        rec["clat_ns"] = dirs[main]["clat_ns"]
        out[name] = rec
    return out


def profile_from_outputs(outputs):
    """A profile from [(job file or None, fio JSON dict, source)]."""
    versions = sorted({d["fio version"] for _, d, _ in outputs})
    prof = {"schema": SCHEMA, "fio_version": versions[0] if len(versions) == 1 else versions,
            "measurements": {}, "disk_util": {}}
    for job_file, data, source in outputs:
        for name, rec in parse_fio(data, source).items():
            if job_file:
                rec["job_file"] = job_file
            prof["measurements"][name] = rec
        for du in data.get("disk_util", []):
            prof["disk_util"].setdefault(du.get("name", "?"), []).append(du)
    return prof


def find_fio(fio=None):
    exe = fio or os.environ.get("FIO") or "fio"
    path = shutil.which(exe)
    if path is None:
        raise InputError(exe, "fio", "the fio executable on PATH (Debian: apt-get "
                                     "install fio), needed to calibrate the device")
    return path


def fio_version(exe):
    return subprocess.run([exe, "--version"], capture_output=True, text=True,
                          check=True).stdout.strip()


def job_files(jobs_dir):
    d = Path(jobs_dir)
    files = sorted(d.glob("*.fio")) if d.is_dir() else []
    if not files:
        raise InputError(d, None, "a directory of fio job files (*.fio)")
    rank = {n: i for i, n in enumerate(MEASUREMENT_ORDER)}
    return sorted(files, key=lambda f: (rank.get(f.stem, len(rank)), f.stem))


def loadavg():
    try:
        return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]
    except OSError:
        return None


def run_profile(jobs_dir, directory, ramp, runtime, size, fio=None, keep=False, log=sys.stderr):
    exe = find_fio(fio)
    files = job_files(jobs_dir)
    directory = Path(directory)
    if not directory.is_dir():
        raise InputError(directory, "--dir", "an existing directory on the filesystem "
                                             "that holds the databases")
    if not os.access(directory, os.W_OK):
        raise InputError(directory, "--dir", "a directory fio may write its test file in")
    size_bytes = parse_size(size, "--size")
    free = shutil.disk_usage(directory).free
    data_file = directory / DATA_FILE
    have = data_file.stat().st_size if data_file.exists() else 0
    if size_bytes - have > free:
        raise InputError(directory, "--size", f"at most the free space there "
                                              f"({free} bytes); got {size_bytes}")
    if ramp < 0 or runtime <= 0:
        raise InputError("--runtime", f"{ramp}/{runtime}",
                         "ramp >= 0 and runtime > 0 seconds")
    env = dict(os.environ, FIO_DIR=str(directory.resolve()), FIO_SIZE=str(size_bytes),
               FIO_RAMP=str(int(ramp)) if float(ramp).is_integer() else str(ramp),
               FIO_RUNTIME=str(int(runtime)) if float(runtime).is_integer() else str(runtime))
    outputs, load = [], {"loadavg_before": loadavg()}
    started = dt.datetime.now(dt.timezone.utc)
    t0 = time.monotonic()
    try:
        with tempfile.TemporaryDirectory(prefix="lsmbench-fio-") as tmp:
            for f in files:
                out = Path(tmp) / f"{f.stem}.json"
                print(f"fio_profile: {f.stem} ({ramp} s ramp + {runtime} s)", file=log)
                p = subprocess.run([exe, "--output-format=json", f"--output={out}", str(f)],
                                   env=env, capture_output=True, text=True)
                if p.returncode != 0:
                    msg = (p.stderr.strip() or p.stdout.strip()).splitlines()
                    raise InputError(f, "fio", f"a job fio can run (fio exit {p.returncode}: "
                                               f"{msg[-1] if msg else 'no message'})")
                outputs.append((f.name, load_fio_json(out), str(out)))
    finally:
        if not keep and data_file.exists():
            data_file.unlink()
    load["loadavg_after"] = loadavg()
    prof = profile_from_outputs(outputs)
    prof["parameters"] = {"ramp_s": ramp, "runtime_s": runtime, "size_bytes": size_bytes,
                          "size": str(size), "directory": str(directory.resolve()),
                          "jobs_dir": str(jobs_dir)}
    prof["started_at"] = started.isoformat(timespec="seconds")
    prof["wall_seconds"] = round(time.monotonic() - t0, 1)
    prof["load"] = load
    prof["fio_binary_version"] = fio_version(exe)
    try:
        from hardware import fingerprint
        prof["storage"] = fingerprint.storage_of(directory)
        prof["host"] = fingerprint.hostname()
        prof["fingerprint_id"] = fingerprint.collect(directory)["id"]
    except Exception as e:     # the profile is still good without these
        prof["storage_error"] = f"{type(e).__name__}: {e}"
    return prof


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m hardware.fio_profile",
                                description="Calibrate the database device with fio.")
    p.add_argument("--parse", metavar="FIO_JSON", nargs="+",
                   help="parse recorded fio JSON output(s) instead of running fio")
    p.add_argument("--jobs-dir", default=str(Path(__file__).parent / "fio"))
    p.add_argument("--dir", help="directory on the filesystem that holds the databases")
    p.add_argument("--ramp", type=float, default=1.0, help="seconds of ramp per job")
    p.add_argument("--runtime", type=float, default=5.0, help="seconds measured per job")
    p.add_argument("--size", default="256MiB", help="size of the test file")
    p.add_argument("--fio", default=None, help="the fio executable (default: fio on PATH)")
    p.add_argument("--keep", action="store_true", help="keep the test file")
    p.add_argument("--out", help="write the profile here (default: stdout)")
    a = p.parse_args(argv)
    if not a.parse and not a.dir:
        raise InputError("fio_profile", "--dir", "a directory to calibrate (or --parse FILE)")
    return a


@cli
def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    if a.parse:
        prof = profile_from_outputs([(None, load_fio_json(f), f) for f in a.parse])
    else:
        prof = run_profile(a.jobs_dir, a.dir, a.ramp, a.runtime, a.size, a.fio, a.keep)
    text = json.dumps(prof, indent=2) + "\n"
    if a.out:
        write_text(a.out, text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

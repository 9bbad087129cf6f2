"""Run one benchmark job under a memory limit, page cache counted, swap off.

    python -m hardware.cgroup_run --memory 4GiB|512MiB|1073741824|70%|none \\
        [--drop-caches] [--evict PATH]... [--allow-unenforced] [--timeout S] \\
        --report R.json -- CMD ARGS...

How the limit is enforced, by what the machine offers (`--mechanism auto`):
  systemd-run  where systemd is PID 1: a transient scope with MemoryMax= and
               MemorySwapMax=0 (`--user` when not root), the way systemd
               delegates cgroups;
  cgroup-v2    memory.max, memory.swap.max=0, memory.oom.group=1;
               read back: memory.peak, memory.events (max, oom_kill);
  cgroup-v1    memory.limit_in_bytes, memory.memsw.limit_in_bytes when the
               kernel accounts swap; read back: memory.max_usage_in_bytes,
               memory.failcnt, memory.oom_control (oom_kill).
A cgroup charges page cache to the cgroup that first reads a page, so pages
cached before the run are not counted: cold runs ask for --drop-caches (sync,
then /proc/sys/vm/drop_caches) or --evict the database files (sync and
POSIX_FADV_DONTNEED per file, which disturbs nothing else).

The job's cgroup is made below the runner's own cgroup, in `lsmbench/`, and is
removed on every exit path: normal exit, timeout, SIGTERM/SIGINT/SIGHUP to the
runner, an exception, and SIGKILL of the runner (a guard process in its own
session waits for the runner's pipe to close and cleans up). Cgroups left by a
runner killed before its guard started are removed by the next run.

Exit status: the job's (128+N when killed by signal N), 124 on timeout, and
never 0 when the OOM killer struck inside the job's cgroup. Without the
permission it needs, the runner stops with one line (status 2) unless
--allow-unenforced, and then the report says what was not enforced and why.

The report (written atomically, also on failure):
  limit_bytes, enforced, mechanism, peak_bytes, oom_kills, failcnt,
  swap_limited, cache_dropped, not_enforced_reason, exit_status, wall_seconds
plus oom_killed, timed_out, signal, limit_spec, memory_total_bytes,
swap_total_bytes, swap_enforcement, peak_source, cgroup, command, started_at,
and what else used the CPUs meanwhile (hardware/contention.py): host_cpus,
host_busy_cpu_seconds, job_cpu_seconds, other_cpu_seconds, other_cpu_share,
steal_seconds, loadavg_start, loadavg_end, and who that was:
other_kernel_threads_cpu_seconds, other_processes_cpu_seconds,
runner_cpu_seconds, other_unattributed_cpu_seconds, other_top.
With --cache-after-open BYTES (a run whose page cache is a share of its
database): db_bytes, cache_budget_bytes, own_bytes_at_open (the job's charged
memory less page cache when its open was done), limit_initial_bytes, and
cache_bytes_at_run (the page cache left after the limit became own + BYTES).
The job sees LSMBENCH_MEMORY_LIMIT_BYTES, LSMBENCH_CGROUP_MECHANISM and
LSMBENCH_CGROUP in its environment.
"""
import argparse
import datetime as dt
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from base.atomic import write_text
from base.errors import InputError, cli

from hardware.cgroups import Host, NotPermitted, choose_backend
from hardware.contention import HostSample, contention
from base.sizes import human
from hardware.limits import mem_total_bytes, parse_limit, swap_total_bytes
from hardware.pagecache import evict

REPO_ROOT = Path(__file__).resolve().parent.parent
TIMEOUT_STATUS = 124
OOM_STATUS = 137
MECHANISMS = ("auto", "systemd-run", "cgroup-v2", "cgroup-v1", "none")


def _status(returncode):
    """Popen returncode -> shell-style exit status."""
    return returncode if returncode >= 0 else 128 - returncode


def drop_caches(host):
    """sync, then drop page cache, dentries and inodes (needs root)."""
    os.sync()
    try:
        with open(host.drop_caches, "w") as f:
            f.write("3")
    except OSError as e:
        raise NotPermitted(f"--drop-caches needs write access to {host.drop_caches} "
                           f"(root) to start the run with a cold page cache "
                           f"({os.strerror(e.errno) if e.errno else e})") from e


class Runner:
    def __init__(self, args, host=None, fs=None):
        self.args, self.host, self.fs = args, host or Host(), fs
        self.cg = None            # direct cgroup (v1/v2)
        self.backend = None
        self.guard = None
        self.unit = None          # systemd scope name
        self.probe_out = None
        self.got_signal = None
        self.reasons = []
        self.report = {}

    # -- what to enforce ------------------------------------------------------
    def _not_enforced(self, message, needed=True):
        """A requirement cannot be met: stop, or go on and say so."""
        if not needed:          # no limit asked: only the peak goes unmeasured
            self.report["measurement_note"] = message
            return
        if not self.args.allow_unenforced:
            raise InputError("cgroup_run", "permission", message)
        self.reasons.append(message)
        print(f"cgroup_run: NOT ENFORCED: {message}", file=sys.stderr)

    def _systemd_available(self):
        return os.path.isdir(self.host.systemd_dir) and shutil.which("systemd-run")

    def setup(self, limit):
        a = self.args
        mech = a.mechanism
        swap_total = swap_total_bytes(self.host.meminfo)
        if mech == "auto":
            mech = "systemd-run" if self._systemd_available() else "cgroup"
        if mech == "systemd-run":
            if not shutil.which("systemd-run"):
                raise InputError("--mechanism", "systemd-run", "systemd-run on PATH")
            self.unit = f"lsmbench-{os.getpid()}-{os.urandom(4).hex()}.scope"
            return "systemd-run"
        if mech in ("cgroup", "cgroup-v1", "cgroup-v2"):
            prefer = None if mech == "cgroup" else mech
            backend = choose_backend(self.host, parent=a.parent, fs=self.fs,
                                     prefer=prefer, swap_total=swap_total)
            if backend is None:
                self._not_enforced(
                    f"needs a memory cgroup (v2 with the memory controller, or the v1 "
                    f"memory hierarchy) to limit the job's memory; none is mounted "
                    f"for this process", needed=limit is not None)
                return "none"
            self.backend = backend
            try:
                self.cg = backend.create(limit)
            except NotPermitted as e:
                self._not_enforced(str(e), needed=limit is not None)
                return "none"
            self._start_guard(self.cg.mechanism, str(self.cg.path))
            return self.cg.mechanism
        # --mechanism none: asked for explicitly
        if limit is not None:
            self._not_enforced("--mechanism none: the limit is not applied")
        return "none"

    def _start_guard(self, mechanism, target, extra=()):
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(REPO_ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        self.guard = subprocess.Popen(
            [sys.executable, "-m", "hardware._guard", mechanism, target, *extra],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
            start_new_session=True, env=env, cwd=str(REPO_ROOT))

    def _stop_guard(self):
        if self.guard is not None:
            try:
                self.guard.stdin.close()
                self.guard.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                pass
            self.guard = None

    # -- the job --------------------------------------------------------------
    def _command(self, limit):
        cmd = list(self.args.cmd)
        if self.unit is None:
            return cmd
        user = [] if os.geteuid() == 0 else ["--user"]
        fd, self.probe_out = tempfile.mkstemp(prefix="lsmbench-scope-", suffix=".json")
        os.close(fd)
        os.unlink(self.probe_out)
        props = ["-p", "MemoryAccounting=yes", "-p", "OOMPolicy=continue"]
        if limit is not None:
            props += ["-p", f"MemoryMax={limit}", "-p", "MemorySwapMax=0"]
        env = ["--setenv", f"PYTHONPATH={REPO_ROOT}"]
        self._start_guard("systemd-run", self.unit, user)
        return (["systemd-run", *user, "--scope", "--quiet", "--collect",
                 f"--unit={self.unit}", *props, *env, "--",
                 sys.executable, "-m", "hardware._scope_probe",
                 "--out", self.probe_out, "--"] + cmd)

    def _signal_job(self, proc, sig):
        if self.cg is not None:
            self.cg.signal_all(sig)
        if proc.poll() is None:
            try:
                proc.send_signal(sig)
            except ProcessLookupError:
                pass

    def _kill_job(self, proc):
        if self.unit is not None:
            user = [] if os.geteuid() == 0 else ["--user"]
            subprocess.run(["systemctl", *user, "kill", "--signal=SIGKILL", self.unit],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if self.cg is not None:
            self.cg.kill_all()
        if proc.poll() is None:
            proc.kill()

    def run(self):
        a = self.args
        limit = parse_limit(a.memory, "--memory", self.host.meminfo)
        started = dt.datetime.now(dt.timezone.utc)
        t0 = time.monotonic()
        r = self.report
        r.update(limit_spec=a.memory, limit_bytes=limit, enforced=False,
                 mechanism="none", peak_bytes=None, peak_source=None, oom_kills=None,
                 oom_killed=False, failcnt=None, swap_limited=False,
                 swap_enforcement=None, cache_dropped=False, evicted_files=None,
                 not_enforced_reason=None, exit_status=None, signal=None,
                 timed_out=False, wall_seconds=None, cgroup=None,
                 memory_total_bytes=mem_total_bytes(self.host.meminfo),
                 swap_total_bytes=swap_total_bytes(self.host.meminfo),
                 command=list(a.cmd), started_at=started.isoformat(timespec="seconds"))
        old = {sig: signal.signal(sig, self._on_signal)
               for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
        try:
            mechanism = self.setup(limit)
            r["mechanism"] = mechanism
            if self.cg is not None:
                r["cgroup"] = str(self.cg.path)
                if limit is not None:
                    r["limit_bytes"] = self.cg.limit_bytes
                r["swap_limited"] = self.cg.swap_limited
                r["swap_enforcement"] = self.cg.swap_enforcement
            if a.evict:
                r["evicted_files"] = evict(a.evict)
            if a.drop_caches:
                try:
                    drop_caches(self.host)
                    r["cache_dropped"] = True
                except NotPermitted as e:
                    self._not_enforced(str(e))
            status = self._run_job(limit, t0)
        finally:
            self._cleanup()
            for sig, handler in old.items():
                signal.signal(sig, handler)
        if self.unit is not None:
            self._read_probe(limit)
        r["wall_seconds"] = round(time.monotonic() - t0, 3)
        if r["peak_bytes"] is None and mechanism == "none":
            # RSS of the largest child only: page cache is not in it
            r["peak_bytes"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
            r["peak_source"] = "rusage ru_maxrss (largest process RSS; page cache not counted)"
        r["oom_killed"] = bool(r["oom_kills"])
        if r["oom_killed"] and status == 0:
            status = OOM_STATUS
        if self.got_signal and status == 0:
            status = 128 + self.got_signal
        r["exit_status"] = status
        if self.unit is not None and self.reasons and not a.allow_unenforced:
            # found out only after the job ran: fail the run visibly
            print(f"error: cgroup_run: permission: {self.reasons[-1]}", file=sys.stderr)
            status = status or 2
        r["not_enforced_reason"] = "; ".join(self.reasons) or None
        asked = limit is not None or a.drop_caches
        r["enforced"] = not self.reasons and (mechanism != "none" or not asked)
        self._write_report()
        self._summary()
        return status

    def _ready_file(self, env):
        """--cache-after-open: the file the job creates when its open is done
        (LSMBENCH_READY_FILE), or None when there is nothing to wait for."""
        a, r = self.args, self.report
        r["db_bytes"] = a.db_bytes
        if a.cache_after_open is None:
            return None
        r["cache_budget_bytes"] = a.cache_after_open
        if self.cg is None:
            self._not_enforced(f"--cache-after-open needs a cgroup of its own (mechanism {r['mechanism']})")
            return None
        fd, path = tempfile.mkstemp(prefix="lsmbench-ready-")
        os.close(fd)
        os.unlink(path)
        env["LSMBENCH_READY_FILE"] = path
        return path

    def _limit_after_open(self):
        """The job's own memory (charged, less page cache) plus the page-cache
        budget becomes its limit; lowering it makes the kernel reclaim the
        cache down to the budget before the job goes on."""
        r = self.report
        usage, cache = self.cg.memory_split()
        own = usage - (cache or 0)
        limit = own + self.args.cache_after_open
        r.update(own_bytes_at_open=own, limit_initial_bytes=self.cg.limit_bytes)
        if self.cg.limit_bytes is None or limit < self.cg.limit_bytes:
            try:
                self.cg.set_limit(limit)
            except OSError as e:
                self._not_enforced(f"lowering the limit to {limit} bytes after the open failed ({e})")
        r["limit_bytes"] = self.cg.limit_bytes
        usage, cache = self.cg.memory_split()
        r["cache_bytes_at_run"] = cache

    def _run_job(self, limit, t0):
        a, r = self.args, self.report
        env = dict(os.environ)
        env["LSMBENCH_MEMORY_LIMIT_BYTES"] = "" if limit is None else str(limit)
        env["LSMBENCH_CGROUP_MECHANISM"] = r["mechanism"]
        env["LSMBENCH_CGROUP"] = r["cgroup"] or ""
        ready = self._ready_file(env)
        cmd = self._command(limit)
        preexec = None
        if self.cg is not None:
            procs = self.cg.procs_file

            def preexec():
                fd = os.open(procs, os.O_WRONLY)
                try:
                    os.write(fd, b"0")
                finally:
                    os.close(fd)
        if self.got_signal:
            return 128 + self.got_signal
        before = HostSample.take(self.host.stat, self.host.loadavg)
        job_t0 = time.monotonic()
        try:
            proc = subprocess.Popen(cmd, env=env, preexec_fn=preexec)
        except FileNotFoundError:
            raise InputError(cmd[0], "command", "an executable on PATH")
        except subprocess.SubprocessError as e:
            raise InputError(self.cg.procs_file, "permission",
                             f"write access to move the job into its cgroup ({e})")
        deadline = t0 + a.timeout if a.timeout else None
        stop_sent = None
        while True:
            try:
                rc = proc.wait(timeout=0.05)
                break
            except subprocess.TimeoutExpired:
                pass
            if ready and os.path.exists(ready):
                self._limit_after_open()
                os.unlink(ready)
            now = time.monotonic()
            if stop_sent is None:
                if self.got_signal:
                    stop_sent = now
                    self._signal_job(proc, self.got_signal)
                elif deadline and now > deadline:
                    r["timed_out"] = True
                    print(f"cgroup_run: timeout after {a.timeout} s; stopping the job",
                          file=sys.stderr)
                    stop_sent = now
                    self._signal_job(proc, signal.SIGTERM)
            elif now - stop_sent > a.kill_after:
                self._kill_job(proc)
        r.update(contention(before, HostSample.take(self.host.stat, self.host.loadavg),
                            time.monotonic() - job_t0))
        if self.cg is not None:
            r.update(self.cg.stats())
        if rc < 0:
            r["signal"] = signal.Signals(-rc).name
        if r["timed_out"]:
            return TIMEOUT_STATUS
        return _status(rc)

    def _read_probe(self, limit):
        r = self.report
        try:
            stats = json.loads(Path(self.probe_out).read_text())
            Path(self.probe_out).unlink()
        except (OSError, ValueError):
            self.reasons.append("systemd-run: the scope's counters could not be read "
                                "(the job or its scope was killed before the probe wrote them)")
            return
        for k in ("peak_bytes", "peak_source", "oom_kills", "failcnt", "cgroup"):
            if k in stats:
                r[k] = stats[k]
        if limit is not None:
            got = stats.get("limit_bytes")
            if got is None or abs(got - limit) > 4096:
                # e.g. a user manager without the memory controller delegated:
                # systemd accepts MemoryMax= and enforces nothing
                self.reasons.append(
                    f"systemd-run: the scope's memory.max is {got if got is not None else 'absent'}, "
                    f"not {limit}: the memory controller is not delegated to this systemd "
                    f"(for --user: Delegate=memory on user@.service)")
            else:
                r["limit_bytes"] = got
            swap = stats.get("swap_max")
            r["swap_limited"] = swap == 0 or r["swap_total_bytes"] == 0
            r["swap_enforcement"] = ("MemorySwapMax=0" if swap == 0 else
                                     "no swap on the host" if r["swap_total_bytes"] == 0 else
                                     "not limited (memory.swap.max unavailable)")

    def _on_signal(self, signum, frame):
        if self.got_signal is None:
            self.got_signal = signum
            print(f"cgroup_run: got {signal.Signals(signum).name}; stopping the job",
                  file=sys.stderr)

    def _cleanup(self):
        try:
            if self.cg is not None:
                self.cg.remove()
                self.backend.remove_parent_if_empty()
        finally:
            self._stop_guard()

    def _write_report(self):
        if self.args.report:
            write_text(self.args.report, json.dumps(self.report, indent=2) + "\n")

    def _summary(self):
        r = self.report
        what = ("no limit" if r["limit_bytes"] is None and r["limit_spec"].lower() == "none"
                else f"limit {human(r['limit_bytes'])}")
        enforced = "enforced" if r["enforced"] else "NOT enforced"
        print(f"cgroup_run: {what} ({r['mechanism']}, {enforced}), "
              f"peak {human(r['peak_bytes'])}, oom kills {r['oom_kills']}, "
              f"exit {r['exit_status']}, {r['wall_seconds']} s", file=sys.stderr)
        if r["oom_killed"]:
            print(f"cgroup_run: the job was OOM-killed under {what}", file=sys.stderr)


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="python -m hardware.cgroup_run",
        description="Run a benchmark job under a memory limit (page cache counted, "
                    "swap off) and report what was enforced.")
    p.add_argument("--memory", required=True,
                   help="limit: 4GiB, 512MiB, 1073741824 (bytes), 70%% (of RAM) or none")
    p.add_argument("--drop-caches", action="store_true",
                   help="sync and drop the page cache before the job (cold-cache runs)")
    p.add_argument("--evict", action="append", default=[], metavar="PATH",
                   help="sync and drop the cached pages of these files/dirs only")
    p.add_argument("--allow-unenforced", action="store_true",
                   help="run even when the limit or cache drop cannot be enforced, "
                        "and say so in the report")
    p.add_argument("--cache-after-open", type=int, default=None, metavar="BYTES",
                   help="when the job's open is done (lsmbench: LSMBENCH_READY_FILE), set its limit to "
                        "its own memory then (charged, not page cache) plus BYTES of page cache")
    p.add_argument("--db-bytes", type=int, default=None, metavar="BYTES",
                   help="the database's size, for the report's cached fraction")
    p.add_argument("--timeout", type=float, default=None, metavar="S",
                   help="stop the job after S seconds (exit status 124)")
    p.add_argument("--kill-after", type=float, default=5.0, metavar="S",
                   help="SIGKILL this long after SIGTERM (default 5)")
    p.add_argument("--mechanism", choices=MECHANISMS, default="auto")
    p.add_argument("--parent", default=None,
                   help="cgroup directory to create job cgroups in "
                        "(default: <own cgroup>/lsmbench)")
    p.add_argument("--report", default=None, metavar="R.json")
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    args = p.parse_args(argv)
    if args.cmd and args.cmd[0] == "--":
        args.cmd = args.cmd[1:]
    if not args.cmd:
        raise InputError("cgroup_run", "command", "a command after `--`")
    if args.timeout is not None and args.timeout <= 0:
        raise InputError("--timeout", repr(args.timeout), "a positive number of seconds")
    return args


@cli
def main(argv=None, host=None, fs=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    return Runner(args, host=host, fs=fs).run()


if __name__ == "__main__":
    sys.exit(main())

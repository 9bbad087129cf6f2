"""Each test module's cost, for the test command's budget (README, "The test
command"): `pytest --module-costs FILE` writes a row per module with its
wall seconds and the CPU seconds (user + sys) of the process that ran it and
of every child it waited for (lsmbench, Snakemake and its jobs), summed over
its tests' set-up, call and tear-down, so module-scoped fixtures count
where they ran. CPU seconds stay comparable on a shared machine, where wall
seconds do not. Under pytest-xdist each worker appends its own modules'
rows (`--dist loadfile` keeps a module on one worker), each when its last
test is done."""
import os
import resource
import time
from collections import defaultdict

import pytest

HEADER = "module\ttests\twall_s\tcpu_s\tworker\n"


def pytest_addoption(parser):
    parser.addoption("--module-costs", metavar="FILE",
                     help="write each test module's wall and CPU seconds to FILE (tests/costs.py)")


def _cpu():
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class ModuleCosts:
    def __init__(self, path, worker):
        self.path, self.worker = path, worker
        self.costs = defaultdict(lambda: [0, 0.0, 0.0])  # module -> [tests, wall, cpu]

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        wall, cpu = time.monotonic(), _cpu()
        yield
        module = item.nodeid.split("::")[0]
        row = self.costs[module]
        row[0] += 1
        row[1] += time.monotonic() - wall
        row[2] += _cpu() - cpu
        if nextitem is None or nextitem.nodeid.split("::")[0] != module:
            self.write(module)  # its last test: a run stopped later keeps the row

    def write(self, module):
        n, wall, cpu = self.costs.pop(module)
        with open(self.path, "a") as out:  # one write: two workers append whole rows
            out.write(f"{module}\t{n}\t{wall:.1f}\t{cpu:.1f}\t{self.worker}\n")

    def pytest_sessionfinish(self):
        for module in sorted(self.costs):  # a module whose tests did not run to its last
            self.write(module)


def pytest_configure(config):
    path = config.getoption("--module-costs")
    if not path:
        return
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    if worker == "main":  # the controller (or the only process) starts the file
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w") as out:
            out.write(HEADER)
    config.pluginmanager.register(ModuleCosts(path, worker), "module-costs")

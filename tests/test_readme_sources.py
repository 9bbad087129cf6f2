"""READMEs are entry points (issue 51 step 4): a measured number in a
hand-written README names the file it comes from. A paragraph (or table,
or list item) of engines/, indexes/ or paper/ READMEs that holds a
measured quantity, a time a step (ns, µs), a throughput (ops/s,
MB/s) or the machine's load average, must name its source: a dated
measurements log (a measurements.md, as indexes/measurements.md), a
results/ file or table, or a log, table or run file (.log, .csv, .json,
.jsonl). The verdict blocks readme_verdicts writes are generated from
results/ and are skipped.

No README holds one (the issue's done-when): the paragraphs this test
found at its writing were moved into their component's measurements.md. A
paragraph a sentence names a source for passes, whatever its numbers: the
test cannot tell a measured number from a quoted one, so it asks only the
cheap, checkable half (is a source named?), not whether it is the right
one."""
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# Not ms or s: those are as often settings (T_wait 50 ms, a 10 s phase) as
# measurements; a time a step in ns or µs, a rate or a load average is a measurement.
MEASURED = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?\s?(?:ns|µs|us|ops/s|[kM]ops/s|[KMG]i?B/s)\b|load average")
SOURCE = re.compile(r"measurements\.md|results/|\.(?:log|csv|jsonl?)\b")


def readmes():
    out = subprocess.run(["git", "ls-files", "*README.md"], cwd=REPO, capture_output=True, text=True, check=True)
    return [p for p in out.stdout.split() if p.startswith(("engines/", "indexes/", "paper/"))]


def paragraphs(text):
    """(first line number, lines) of each blank-line separated block,
    without the generated verdict blocks."""
    block, start, generated = [], 0, False
    for i, line in enumerate(text.splitlines() + [""], 1):
        generated = (generated or "verdicts:begin" in line) and "verdicts:end" not in line
        if line.strip() and not generated and "verdicts:end" not in line:
            start = start if block else i
            block.append(line)
        elif block:
            yield start, block
            block = []


def unsourced(path):
    """Line numbers of the paragraphs holding a measured number and no source."""
    return [start for start, block in paragraphs((REPO / path).read_text())
            if MEASURED.search("\n".join(block)) and not SOURCE.search("\n".join(block))]


def test_a_measured_number_in_a_readme_names_its_file():
    found = [f"{path}: lines {lines}" for path in readmes() if (lines := unsourced(path))]
    assert not found, ("paragraphs with a measured number and no source: name the file each number comes from "
                       "(a measurements.md, results/..., a .log/.csv/.json), or move the paragraph into the "
                       "component's measurements.md:\n" + "\n".join(found))


def test_the_rule_sees_a_measured_number_and_its_source():
    assert list(paragraphs("a\nb\n\n<!-- verdicts:begin -->\n9 ns\n<!-- verdicts:end -->\n\nc\n")) == \
        [(1, ["a", "b"]), (8, ["c"])]
    assert MEASURED.search("a get takes 1,234 ns") and MEASURED.search("at load average 4-5")
    assert not MEASURED.search("a 64-byte key, boundary 16, 8 MiB cache")
    assert SOURCE.search("see [measurements.md](measurements.md)") and SOURCE.search("results/local/tables/x.csv")

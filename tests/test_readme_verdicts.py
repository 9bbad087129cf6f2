"""lsmrepro.publish.readme_verdicts: a study README's verdicts block written from a
reference folder, and --check failing when the README and the CSVs part.
The reference folder's claims and regime tables are made by the pipeline's
own code (lsmrepro.tidy.aggregate, lsmrepro.claims, lsmrepro.tidy.regime) from sample
run logs; only the run manifest and the fingerprint are written here."""
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from lsmrepro.tidy import aggregate
from lsmrepro.claims import evaluate as claims
from lsmrepro.publish import readme_verdicts
from lsmrepro.tidy import regime
from lsmrepro.plan import studies
from base.errors import InputError

REPO = Path(__file__).resolve().parents[1]
RUN = {"commit": "0123456789abcdef", "started": "2026-11-27T08:00:00+00:00", "wall_seconds": 9000,
       "jobs": 812,
       "host_load": {"host_loadavg_start": {"median": 1.1, "max": 2.5, "runs": 40}}}
PROSE_ABOVE, PROSE_BELOW = "A cause measured by hand, kept as prose.", "More prose after the table."


def _gen(ref, paper, check=False):
    """The generator in this process (the CLI's exit codes are tested once)."""
    return readme_verdicts.run(["baseline"], ref, paper, check)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "lsmrepro.publish.readme_verdicts", *map(str, args)], cwd=REPO,
                          capture_output=True, text=True)


@pytest.fixture
def reference(tmp_path, make_log):
    """A reference folder with the baseline study's verdicts and regime table
    from three sample runs, and a paper folder with its README."""
    ref = tmp_path / "reference" / "local"
    logs = [make_log(f"leveldb__uniform__r{i}.jsonl", rep=i, harness=10 + i, engine_ns=1000.0) for i in range(3)]
    tidy_csv = tmp_path / "tidy.csv"
    aggregate.aggregate(logs, tidy_csv)
    tidy = pd.read_csv(tidy_csv, dtype={"run": str})
    # the A/A claims (aa-) compare replicas, which these sample runs do not have
    mine = [c for c in claims.load_claims(claims.claim_files("baseline")) if not c["id"].startswith("aa-")]
    verdicts = claims.check("baseline", tidy, mine)
    (ref / "claims").mkdir(parents=True)
    verdicts.to_csv(ref / "claims" / "baseline.csv", index=False)
    rows = regime.table("baseline", regime._read_tidy(tidy_csv), studies.figures("baseline"),
                        studies.spec_path("baseline"))
    regime.write(rows, ref / "tables" / "baseline" / "regime.csv", ref / "tables" / "baseline" / "regime.md")
    (ref / "run.json").write_text(json.dumps(RUN))
    (ref / "hardware").mkdir()
    (ref / "hardware" / "fingerprint.json").write_text(json.dumps(
        {"stable": {"cpu": {"model": "Test CPU", "threads": 2}}, "volatile": {"loadavg": [1.0, 2.0, 3.0]}}))
    paper = tmp_path / "paper"
    (paper / "baseline").mkdir(parents=True)
    (paper / "baseline" / "README.md").write_text(
        f"# baseline\n\n{PROSE_ABOVE}\n\n{readme_verdicts.BEGIN} reference=local -->\nan old hand-copied table\n"
        f"{readme_verdicts.END}\n\n{PROSE_BELOW}\n")
    return ref, paper, verdicts


def test_the_block_is_written_from_the_csvs_and_check_then_passes(reference):
    ref, paper, verdicts = reference
    assert verdicts["verdict"].tolist() == ["reproduced"]  # the sample runs' harness is ~1% of a get
    assert _gen(ref, paper) == [f"{paper / 'baseline' / 'README.md'}: verdicts rewritten from {ref}"]
    text = (paper / "baseline" / "README.md").read_text()
    assert "an old hand-copied table" not in text
    assert PROSE_ABOVE in text and text.rstrip().endswith(PROSE_BELOW)  # nothing outside the block changes
    block = text[text.index(readme_verdicts.BEGIN):text.index(readme_verdicts.END)]
    assert "commit `0123456789ab`" in block and "2 hours and 30 minutes" in block and "812 jobs" in block
    assert "2 threads of Test CPU" in block and "load average at the runs' starts 1.10 median, 2.50 max" in block
    assert "**1 reproduced** of 1 claims" in block
    row = next(line for line in block.splitlines() if "`driver-overhead-leveldb`" in line)
    reached = pd.read_csv(ref / "tables" / "baseline" / "regime.csv").iloc[0]
    cells = [c.strip() for c in row.strip("|").split(" | ")]
    assert cells[1] == verdicts.loc[0, "figure"] and cells[2] == verdicts.loc[0, "paper_value"]
    assert cells[3].startswith(f"{verdicts.loc[0, 'measured']:.4g} [") and cells[3].endswith(", n = 3")
    assert cells[4] == "**reproduced**" and cells[5] == f"{reached['reached']}: {reached['why']}"
    assert _gen(ref, paper, check=True) == []


def test_check_fails_naming_the_readme_after_one_changed_cell(reference):
    ref, paper, verdicts = reference
    _gen(ref, paper)
    changed = verdicts.copy()
    changed.loc[0, "measured"] = verdicts.loc[0, "measured"] * 2
    changed.to_csv(ref / "claims" / "baseline.csv", index=False)
    r = _cli("--check", "--reference", ref, "--paper-dir", paper, "--study", "baseline")
    assert r.returncode == 1
    readme = paper / "baseline" / "README.md"
    first = r.stderr.splitlines()[0]
    line = readme.read_text().splitlines().index(
        next(x for x in readme.read_text().splitlines() if "`driver-overhead-leveldb`" in x)) + 1
    assert first.startswith(f"{readme}:{line}: differs from ") and "driver-overhead-leveldb" in r.stderr
    # the README is left alone by --check; a rewrite makes it agree again
    assert _gen(ref, paper, check=True) and _gen(ref, paper) and _gen(ref, paper, check=True) == []


def test_a_hand_edit_inside_the_block_fails_the_check(reference):
    ref, paper, _ = reference
    _gen(ref, paper)
    readme = paper / "baseline" / "README.md"
    readme.write_text(readme.read_text().replace("**reproduced**", "**inconclusive**"))
    (message,) = _gen(ref, paper, check=True)
    assert message.startswith(f"{readme}:") and "**inconclusive**" in message


def test_no_reference_shipped_is_one_line_and_check_holds_it(reference, tmp_path):
    _, paper, _ = reference
    empty = tmp_path / "nothing" / "local"
    _gen(empty, paper)
    lines = (paper / "baseline" / "README.md").read_text().splitlines()
    block = lines[lines.index(f"{readme_verdicts.BEGIN} reference=local -->") + 1:lines.index(readme_verdicts.END)]
    assert len(block) == 2 and block[0].startswith("<!-- generated by")
    assert block[1].startswith("No reference run is shipped yet") and "claims/baseline.csv" in block[1]
    assert _gen(empty, paper, check=True) == []


def test_bad_reference_and_readme_are_one_clear_error_each(reference):
    ref, paper, _ = reference
    (ref / "run.json").write_text(json.dumps({k: v for k, v in RUN.items() if k != "jobs"}))
    with pytest.raises(InputError, match=r"run.json: jobs: the fields of a run manifest"):
        readme_verdicts.run(["baseline"], ref, paper, check=True)
    (ref / "run.json").write_text(json.dumps({**RUN, "commit": "fedcba"}))
    with pytest.raises(InputError, match=r"claims/baseline.csv: commit: the commit of"):
        with_commit = pd.read_csv(ref / "claims" / "baseline.csv").assign(commit="0123456789abcdef")
        with_commit.to_csv(ref / "claims" / "baseline.csv", index=False)
        readme_verdicts.run(["baseline"], ref, paper, check=True)
    (ref / "run.json").write_text(json.dumps(RUN))
    (paper / "baseline" / "README.md").write_text("# no block\n")
    with pytest.raises(InputError, match=r"README.md: verdicts block: one line starting `<!-- verdicts:begin"):
        _gen(ref, paper, check=True)


def test_a_run_in_parts_takes_each_studys_claims_at_its_own_parts_commit(reference):
    """ship stamps a part's claims with the commit it shipped from; run.json's
    commit is the first part's."""
    ref, paper, _ = reference
    pd.read_csv(ref / "claims" / "baseline.csv").assign(commit="0123456789abcdef").to_csv(
        ref / "claims" / "baseline.csv", index=False)
    parts = [{"studies": ["slr"], "commit": "fedcba"}, {"studies": ["baseline"], "commit": "0123456789abcdef"}]
    (ref / "run.json").write_text(json.dumps({**RUN, "commit": "fedcba", "parts": parts}))
    assert _gen(ref, paper) and _gen(ref, paper, check=True) == []
    parts[1]["commit"] = "fedcba"
    (ref / "run.json").write_text(json.dumps({**RUN, "commit": "0123456789abcdef", "parts": parts}))
    with pytest.raises(InputError, match=r"claims/baseline.csv: commit: the commit of baseline's part in"):
        _gen(ref, paper, check=True)


def test_the_repositorys_readmes_agree_with_the_shipped_reference():
    """Every study README's block is what results/reference/local gives
    (until a reference run is shipped: the line saying none is)."""
    assert readme_verdicts.run(list(studies.registry()), REPO / "results" / "reference" / "local",
                               REPO / "paper", check=True) == []


def test_the_counts_line_says_how_many_are_flagged_underpowered_and_their_verdicts():
    claims_ = pd.DataFrame({
        "verdict": ["reproduced", "inconclusive", "not reproduced", "reproduced"],
        "underpowered": ["", "", "yes", "yes"],
        "detail": ["", "interval straddles the band", "ratio 3", ""]})
    line = readme_verdicts.counts_line(claims_, REPO / "results/reference/local/claims/x.csv")
    assert line.startswith("**2 reproduced, 1 not reproduced, 1 inconclusive** of 4 claims")
    assert line.endswith(" 2 are flagged underpowered at this scale (the power check's claims_underpowered,"
                         " tool-written in config/scales/local.measured.yaml; a flag, the verdict is the data's):"
                         " 1 reproduced, 1 not reproduced.")


LISTED_THEN = ("underpowered at scale local (config/scales/local.yaml claims_underpowered): P(reproduced | paper) 0.51,"
               " P(not reproduced | outside) 0.52 at 2 repetitions; fix repetitions of s/fig9: 2 -> 3; the data alone: ")


def test_a_table_from_before_issue_52_shows_what_the_data_gave_and_where_the_list_lives_now():
    """A shipped verdict table whose listed claims the list made
    inconclusive (the rule before issue 52; the reference run of 89cef94):
    the counts line says so and where the list is written now, each such
    row shows the data's own verdict and detail, not the list's reason."""
    claims_ = pd.DataFrame({
        "claim": ["a", "b", "c"], "figure": ["fig9 (Figure 9)"] * 3, "paper_value": ["less"] * 3,
        "verdict": ["inconclusive", "inconclusive", "reproduced"], "measured": [0.85, 0.96, 0.9],
        "ci_low": [0.77, 0.94, 0.8], "ci_high": [0.95, 0.98, 0.95], "n": [2, 6, 3], "unit": ["x / y"] * 3,
        "detail": [LISTED_THEN + "reproduced (1 of 1 members reproduced; m: 0.85 [0.77, 0.95] reproduced)",
                   LISTED_THEN + "inconclusive", ""]})
    line = readme_verdicts.counts_line(claims_, REPO / "results/reference/local/claims/x.csv")
    assert line.startswith("**1 reproduced, 2 inconclusive** of 3 claims")
    assert " 2 were made inconclusive by the run's list of underpowered claims, as the rule was before issue 52" in line
    assert "the data alone: 1 reproduced, 1 inconclusive. The list is now tool-written in" \
        " config/scales/local.measured.yaml" in line
    rows = [[c.strip() for c in r.strip("|").split(" | ")] for r in readme_verdicts.claims_table(claims_, {})[2:]]
    assert rows[0][3] == "1 of 1 members reproduced (mean 0.85 [0.77, 0.95] x / y, n = 2)"
    assert rows[0][4] == "**inconclusive** (listed underpowered; the data alone: reproduced)"
    assert rows[1][3] == "0.96 [0.94, 0.98] x / y, n = 6"
    assert rows[1][4] == "**inconclusive** (listed underpowered; the data alone: inconclusive)"
    assert rows[2][4] == "**reproduced**" and "config/scales/local.yaml" not in "\n".join(map(str, rows))




def _aa_claims(path, rows):
    """A verdict table of A/A claims: (claim, verdict, ci_low, ci_high)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    t = pd.DataFrame(rows, columns=["claim", "verdict", "ci_low", "ci_high"])
    t.assign(study=path.stem, measured=t["ci_low"], n=3).to_csv(path, index=False)


def test_the_paper_readme_shows_the_aa_coverage_of_every_shipped_run(reference):
    """Issue 52's done-when in paper/README.md, generated: per shipped run
    (the reference and the runs beside it) and over all of them, how many
    A/A intervals hold 1 and how many were judged not reproduced."""
    ref, paper, _ = reference
    again = ref.parent / "local-again"
    _aa_claims(again / "claims" / "slr.csv", [("aa-a", "reproduced", 0.98, 1.01), ("aa-b", "not reproduced", 1.02, 1.1),
                                             ("paper-claim", "not reproduced", 3.0, 4.0)])
    _aa_claims(again / "claims" / "doblix.csv", [("aa-c", "inconclusive", 0.8, 1.3), ("aa-d", "no data", None, None)])
    (again / "run.json").write_text(json.dumps({**RUN, "commit": "fedcba9876543210", "parts": [
        {"commit": "aaaabbbbccccdddd", "studies": ["slr"]}, {"commit": "1111222233334444", "studies": ["doblix"]}]}))
    (paper / "README.md").write_text(f"# paper\n\nprose\n\n{readme_verdicts.AA_BEGIN}\nold\n{readme_verdicts.AA_END}\nafter\n")
    assert f"{paper / 'README.md'}: A/A rewritten from {ref}" in _gen(ref, paper)
    text = (paper / "README.md").read_text()
    assert text.startswith("# paper\n\nprose\n\n<!-- aa:begin -->") and text.endswith("<!-- aa:end -->\nafter\n")
    # the reference's baseline claims have no A/A claim: only the run beside it has a row
    row = [s for s in text.splitlines() if s.startswith(f"| `{again}`")]
    assert len(row) == 1 and "`aaaabbbbcccc`, `111122223333`" in row[0] and "| doblix, slr |" in row[0]
    assert "2 of 3 A/A comparisons (67%) have a 90% interval that holds their true ratio 1, which falls short of" \
           " the 85%" in row[0] and "1 of 4 were judged not reproduced" in row[0] and "1 had no interval" in row[0]
    assert "All shipped runs together (1): 2 of 3 A/A comparisons" in text
    assert _gen(ref, paper, check=True) == []
    _aa_claims(again / "claims" / "slr.csv", [("aa-a", "reproduced", 0.98, 1.01), ("aa-b", "reproduced", 0.99, 1.1)])
    [msg] = _gen(ref, paper, check=True)
    assert msg.startswith(f"{paper / 'README.md'}:") and "differs from" in msg


def test_a_studys_counts_line_gives_its_own_aa_coverage():
    claims_ = pd.DataFrame({"claim": ["aa-x", "aa-y", "p"], "verdict": ["reproduced", "inconclusive", "reproduced"],
                            "ci_low": [0.9, 1.01, 2.0], "ci_high": [1.1, 1.2, 3.0]})
    line = readme_verdicts.counts_line(claims_, REPO / "results/reference/local/claims/x.csv")
    assert line.endswith(" The checker on itself (paper/README.md, \"A/A\"): 1 of 2 A/A comparisons (50%) have a 90%"
                         " interval that holds their true ratio 1, which falls short of the 85% the verdicts' intervals"
                         " need; 0 of 2 were judged not reproduced (the test's level: 5%).")

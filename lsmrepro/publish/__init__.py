"""Stage publish: what a reader sees. `report` writes the one-page report,
`compare` sets a run beside a reference run, `ship` makes a reference run
of results/<scale>, `readme_verdicts` writes each study README's verdict
block from it, `timing` splits job wall times, `rerun` gives each claim
its ./reproduce command and price. Input: tables, claims, logs;
output: results/<scale>/report, compare, tables/rerun.csv, and
results/reference/."""

"""The pipeline's Python, one package per stage, each importing only the
stages before it (tests/test_imports.py holds the order):

    plan  ->  run  ->  tidy  ->  claims  ->  publish

plan     studies and scales into runs, loads and targets; nothing is run
run      a benchmark job: a load, a run or an interleaved group under the runner
tidy     raw logs into tidy tables (a row per run and metric, with its source)
claims   tidy tables into verdicts, and the power and noise checks of the rule
publish  verdicts and tables into the report, a reference run, README blocks

Snakemake's rules for each stage are in workflow/rules/<stage>.smk."""

"""Stage claims: tidy tables into verdicts. `spec` reads and validates
paper/<study>/claims.yaml, `measure` selects a claim's rows and pairs its
samples, `rule` and `stats` decide (equivalence and direction tests on the
interval), `prior` and `noise` hold the run-to-run noise a scale expects,
`power` simulates whether a claim can decide, `evaluate` runs it all
(`python -m lsmrepro.claims`), `verdict_text` words a verdict.
Input: tidy/*.csv and the scale; output: claims/*.{csv,md}."""

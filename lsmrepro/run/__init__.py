"""Stage run: one benchmark job. `bench` loads a database (`load`) or runs
one point on a copy of its load (`run`) with lsmbench under the cgroup
runner, writing one raw log and its runner report, whole or not at all;
`bench_group` runs an interleaved job (runs taking turns in one lsmbench)
and hands each member its log; `stale_locks` removes Snakemake's locks left
by a killed Snakemake. Input: a scale's memory limit, lsmbench arguments and
the run's manifest, all from the rule (plan); output: raw/**.jsonl."""

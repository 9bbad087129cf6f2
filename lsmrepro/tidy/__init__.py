"""Stage tidy: raw logs into tidy tables. `runlog` reads and validates a
log, `engine_rows` flattens an engine's own records, `regime` measures the
regime a run was in (and tabulates it per figure), `aggregate` writes a
figure's tidy CSV (a row per run and metric with the log line it came
from), `table` reads one back. Input: raw/**.jsonl; output: tidy/*.csv."""

"""lsm-eval/fig11 (the paper's Figure 11): compaction time (bars), training
time (line) and entry I/O time per index under sustained inserts on
YCSB-Gen uniform with 1000-byte entries; right: training's share of
compaction time (Observation 5)."""
from paper import lsm_eval as le


def figure(rows, spec):
    return le.compaction_figure(rows, "YCSB-Gen uniform, 1000-byte entries")

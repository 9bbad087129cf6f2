"""lsm-eval/fig10d (the paper's Figure 10 D): compaction and learning time
under sustained inserts on Facebook ID with small (16-byte) entries."""
from paper import lsm_eval as le


def figure(rows, spec):
    return le.compaction_figure(rows, "Facebook ID, 16-byte entries")

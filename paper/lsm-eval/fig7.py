"""lsm-eval/fig7 (the paper's Figure 7, A–I): the YCSB-Gen skew panels
(paper/lsm_eval_skew.py), on every skew."""
from paper.lsm_eval_skew import figure  # noqa: F401

"""lsm-eval/tr-fig11 (technical report Figure 11): Figure 7's panels on
one dataset (`params.dataset`), from Figure 7's runs."""
from paper.lsm_eval_skew import on_one_dataset as figure  # noqa: F401

"""lsm-eval/tr-fig11 (technical report Figure 11): Figure 7's panels on
one dataset (`params.dataset`), from Figure 7's runs."""
import importlib.util
from pathlib import Path


def _fig7():
    spec = importlib.util.spec_from_file_location("lsm_eval_fig7", Path(__file__).with_name("fig7.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def figure(rows, spec):
    dataset = spec["params"]["dataset"]
    one = rows[rows["dataset"].astype(str) == dataset]
    return _fig7().figure(one.reset_index(drop=True), {**spec, "datasets": {dataset: dataset}})

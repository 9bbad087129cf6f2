# Functions of the paper rules: which products each study registers, and
# where each study's jobs put their logs.
import json

# study -> {"figures": {figure id: caption}, "logs": scale -> run log paths,
#           "raw": scale -> every raw file (logs and runner reports)}
STUDY_OUTPUTS = {}


def study_products(scale):
    files = []
    for study, spec in STUDY_OUTPUTS.items():
        for fig in spec["figures"]:
            files += [f"{RESULTS}/{scale}/figures/{study}/{fig}.png",
                      f"{RESULTS}/{scale}/tables/{study}/{fig}.csv"]
        files.append(f"{RESULTS}/{scale}/claims/{study}.csv")
    return files


def study_logs(scale):
    return [p for spec in STUDY_OUTPUTS.values() for p in spec["logs"](scale)]


def study_raw(scale):
    """Every raw file of every study. Targets request them besides the
    report: Snakemake does not regenerate a deleted intermediate whose
    dependents are up to date, and a deleted raw log must be run again."""
    return [p for spec in STUDY_OUTPUTS.values() for p in spec["raw"](scale)]


def studies_json():
    return json.dumps({s: {"figures": v["figures"]} for s, v in STUDY_OUTPUTS.items()})


def baseline_point_runs(scale):
    c = SCALES[scale]["baseline"]["point"]
    return [f"{RESULTS}/{scale}/raw/baseline/point/{e}__{d}__r{r}"
            for r in range(c["repetitions"]) for d in c["datasets"] for e in c["engines"]]


def baseline_point_logs(scale):
    return [f"{run}.jsonl" for run in baseline_point_runs(scale)]


def baseline_point_raw(scale):
    """Every raw file of the runs: lsmbench's log and the runner's report."""
    return [f"{run}{ext}" for run in baseline_point_runs(scale) for ext in (".jsonl", ".limits.json")]


def baseline_point_dataset(wildcards):
    c = SCALES[wildcards.scale]["baseline"]["point"]
    return dataset_file(wildcards.scale, c["datasets"][wildcards.dataset])


def baseline_point_peers(wildcards):
    """Every binary and dataset the experiment compares: no run starts before
    all are built, so repetitions interleave across engines and no build
    competes with a measurement."""
    c = SCALES[wildcards.scale]["baseline"]["point"]
    files = [engine_binary(e) for e in c["engines"]]
    return files + [dataset_file(wildcards.scale, d) for d in c["datasets"].values()]


def interleaved_priority(wildcards):
    # Repetition r of every configuration runs before repetition r+1 of any:
    # repetitions interleave, so drift in the machine spreads evenly.
    return 1000 - int(wildcards.rep)


STUDY_OUTPUTS["baseline"] = {
    "figures": {"point": "Point-lookup latency (mean, p99) and throughput of pristine LevelDB 1.23 and RocksDB 7.8.3."},
    "logs": baseline_point_logs,
    "raw": baseline_point_raw,
}

"""The helpers of workloads.smk: scale policy, which real files become
inputs, and the full list of files the `datasets` target builds."""
from workloads import catalogue, rules


def test_policy_defaults_and_config():
    scales = {"smoke": {}, "local": {"datasets": {"real": "require", "lookup_seed": 3}}, "paper": {}}
    assert rules.policy(scales, "smoke", "real") == "prefer"
    assert rules.policy(scales, "paper", "real") == "require"
    assert rules.policy(scales, "local", "real") == "require"
    assert rules.policy(scales, "local", "lookup_seed") == 3


def test_real_input_only_when_required_or_present(tmp_path):
    cat = catalogue.load()
    scales = {"smoke": {}, "local": {}, "paper": {}}
    assert rules.real_input(cat, scales, tmp_path, "fb", "local") == []
    assert rules.real_input(cat, scales, tmp_path, "fb", "paper") == [f"{tmp_path}/fb_200M_uint64"]
    (tmp_path / "fb_200M_uint64").write_bytes(b"")
    assert rules.real_input(cat, scales, tmp_path, "fb", "local") == [f"{tmp_path}/fb_200M_uint64"]
    assert rules.real_input(cat, scales, tmp_path, "uspr", "paper") == []


def test_dataset_files_cover_the_catalogue():
    cat = catalogue.load()
    files = rules.dataset_files(cat, "results", "local")
    assert "results/local/datasets/books32_uint32" in files
    assert "results/local/datasets/ycsbgen_varlen_keylen_uint32" in files
    assert "results/local/datasets/sizes_up2x_value_uint32" in files
    assert sum(f.endswith(".manifest.json") for f in files) == len(cat["datasets"])


def test_only_checksummed_files_are_downloadable():
    cat = catalogue.load()
    cat["datasets"]["fb"]["real"]["md5"] = None  # as twitter's: no published checksum
    d = rules.downloadable(cat)
    assert "fb_200M_uint64" not in d and d["wiki_ts_200M_uint64"] == "wiki"
    assert "twitter_users_uint64" not in d

"""The fingerprint says which node and which image ran a job: the node is
recorded beside the id, the image is part of it."""
import json

from hardware import fingerprint


def test_slurm_node_recorded_not_hashed(tmp_path, monkeypatch):
    plain = fingerprint.collect(tmp_path)
    assert plain["node"]["name"] == plain["host"] and plain["node"]["scheduler"] is None
    monkeypatch.setenv("SLURM_JOB_ID", "42")
    monkeypatch.setenv("SLURMD_NODENAME", "n017")
    monkeypatch.setenv("SLURM_JOB_PARTITION", "bench")
    fp = fingerprint.collect(tmp_path)
    assert fp["node"]["name"] == "n017" and fp["node"]["slurm_job_id"] == "42"
    assert fp["node"]["scheduler"] == "slurm" and fp["node"]["slurm_partition"] == "bench"
    assert fp["id"] == plain["id"]


def test_image_identity_changes_the_id(tmp_path, monkeypatch):
    # what the runtime says must not mask the image identity under test
    # (this test also runs inside the image: containers/test.sh)
    monkeypatch.setattr(fingerprint, "CONTAINERENV", tmp_path / "no-containerenv")
    for var in ("LSMBENCH_IMAGE_INFO", "LSMBENCH_CONTAINER_IMAGE", "LSMBENCH_CONTAINER_IMAGE_ID"):
        monkeypatch.delenv(var, raising=False)
    plain = fingerprint.collect(tmp_path)
    info = tmp_path / "image.json"
    ids = set()
    for commit in ("a" * 40, "b" * 40):
        info.write_text(json.dumps({"name": "localhost/lsmrepro:x", "git_commit": commit}))
        monkeypatch.setenv("LSMBENCH_IMAGE_INFO", str(info))
        fp = fingerprint.collect(tmp_path)
        c = fp["stable"]["container"]
        assert c["inside"] and c["build"]["git_commit"] == commit
        assert c["image"] == "localhost/lsmrepro:x" and c["image_id"]
        ids.add(fp["id"])
    assert len(ids) == 2 and plain["id"] not in ids
    monkeypatch.setenv("LSMBENCH_CONTAINER_IMAGE_ID", "0123abcd")
    assert fingerprint.collect(tmp_path)["stable"]["container"]["image_id"] == "0123abcd"


def test_bad_image_info_is_one_clear_error(tmp_path, monkeypatch):
    info = tmp_path / "image.json"
    info.write_text("{not json")
    monkeypatch.setenv("LSMBENCH_IMAGE_INFO", str(info))
    try:
        fingerprint.collect(tmp_path)
    except fingerprint.InputError as e:
        assert str(info) in str(e) and "containers/build.sh" in str(e)
    else:
        raise AssertionError("a malformed image identity must fail")

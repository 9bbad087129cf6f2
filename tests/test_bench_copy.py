"""lsmrepro.run.bench's database copy for a run: tables and value logs linked,
everything an engine may rewrite copied, so a run never changes its load."""
import os

from lsmrepro.run import bench


def _load(tmp_path):
    src = tmp_path / "load"
    src.mkdir()
    for name, text in {"000005.ldb": "table", "000007.sst": "table", "000003.vlog": "values",
                       "MANIFEST-000002": "manifest", "CURRENT": "MANIFEST-000002\n", "000004.log": "wal"}.items():
        (src / name).write_text(text)
    return src


def test_a_run_copy_links_tables_and_copies_what_engines_rewrite(tmp_path):
    src = _load(tmp_path)
    dst = tmp_path / "runs" / "r0"
    assert bench.copy_db(src, dst) == "link"
    assert sorted(p.name for p in dst.iterdir()) == sorted(p.name for p in src.iterdir())
    for name in ("000005.ldb", "000007.sst", "000003.vlog"):
        assert os.path.samefile(src / name, dst / name)
    for name in ("MANIFEST-000002", "CURRENT", "000004.log"):
        assert not os.path.samefile(src / name, dst / name)
    # what a run does to its copy: append to its manifest, delete a compacted table
    with open(dst / "MANIFEST-000002", "a") as f:
        f.write("edit")
    (dst / "000005.ldb").unlink()
    assert (src / "MANIFEST-000002").read_text() == "manifest"
    assert (src / "000005.ldb").read_text() == "table"
    bench.read_once(dst)  # a warm run's read of every file


def test_a_database_with_a_folder_is_copied_not_linked(tmp_path):
    src = _load(tmp_path)
    (src / "archive").mkdir()
    (src / "archive" / "x").write_text("x")
    dst = tmp_path / "r0"
    assert bench.copy_db(src, dst) in ("reflink", "copy")
    assert (dst / "archive" / "x").read_text() == "x"
    assert not os.path.samefile(src / "000005.ldb", dst / "000005.ldb")


def test_a_copy_with_pages_of_its_own_never_links(tmp_path):
    src = _load(tmp_path)
    dst = tmp_path / "r0"
    assert bench.copy_db(src, dst, own_pages=True) in ("reflink", "copy")
    for name in ("000005.ldb", "000007.sst", "000003.vlog"):
        assert not os.path.samefile(src / name, dst / name)
        assert (dst / name).read_text() == (src / name).read_text()

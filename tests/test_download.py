"""base/download.py against a real HTTP server on the loopback interface:
a cut-off download resumes with a Range request, a wrong hash leaves
nothing behind, an unreachable URL is reported as such; and engines/fetch.py
builds its private deb-src entries from the machine's apt sources."""
import hashlib
import http.server
import threading

import pytest

from base import download
from engines import fetch
from base.errors import InputError

PAYLOAD = bytes(range(256)) * 4096  # 1 MiB


class _RangeHandler(http.server.BaseHTTPRequestHandler):
    ranges = []

    def do_GET(self):
        if self.path != "/file.bin":
            self.send_error(404)
            return
        start = 0
        rng = self.headers.get("Range")
        self.ranges.append(rng)
        if rng:
            start = int(rng.removeprefix("bytes=").rstrip("-"))
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(PAYLOAD) - 1}/{len(PAYLOAD)}")
        else:
            self.send_response(200)
        self.send_header("Content-Length", str(len(PAYLOAD) - start))
        self.end_headers()
        self.wfile.write(PAYLOAD[start:])

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    _RangeHandler.ranges = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _RangeHandler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_download_verifies_and_renames(server, tmp_path):
    sha = hashlib.sha256(PAYLOAD).hexdigest()
    dest = download.download(f"{server}/file.bin", tmp_path / "f.bin", "sha256", sha)
    assert dest.read_bytes() == PAYLOAD and not (tmp_path / "f.bin.part").exists()
    assert _RangeHandler.ranges == [None]


def test_partial_download_resumes(server, tmp_path):
    (tmp_path / "f.bin.part").write_bytes(PAYLOAD[:300000])
    dest = download.download(f"{server}/file.bin", tmp_path / "f.bin", "md5",
                             hashlib.md5(PAYLOAD).hexdigest())
    assert dest.read_bytes() == PAYLOAD
    assert _RangeHandler.ranges == ["bytes=300000-"]


def test_wrong_hash_leaves_nothing(server, tmp_path):
    with pytest.raises(InputError) as e:
        download.download(f"{server}/file.bin", tmp_path / "f.bin", "sha256", "0" * 64)
    assert e.value.field == "sha256" and e.value.expected.startswith(f"expected {'0' * 64}, got ")
    assert list(tmp_path.iterdir()) == []


def test_http_error_is_unreachable(server, tmp_path):
    with pytest.raises(download.Unreachable, match="404"):
        download.download(f"{server}/missing", tmp_path / "f.bin", retries=0)


def test_fetch_takes_the_first_url_that_answers(server, tmp_path):
    sha = hashlib.sha256(PAYLOAD).hexdigest()
    sources = tmp_path / "sources.yaml"
    sources.write_text(f"demo: {{version: '1', file: demo.tar.gz, sha256: {sha}, top_dir: demo,"
                       f" urls: ['{server}/missing', '{server}/file.bin']}}\n")
    out = tmp_path / "out" / "demo.tar.gz"
    fetch.fetch("demo", out, tmp_path / "empty-drop", sources)
    assert out.read_bytes() == PAYLOAD


def test_deb_src_entries_from_the_machines_sources(tmp_path):
    (tmp_path / "sources.list.d").mkdir()
    (tmp_path / "sources.list.d" / "debian.sources").write_text(
        "Types: deb\nURIs: http://mirror.invalid/debian\nSuites: bookworm bookworm-updates\n"
        "Components: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\n"
        "Types: deb\nURIs: http://mirror.invalid/other\nSuites: trixie\nComponents: main\n")
    (tmp_path / "sources.list").write_text(
        "# comment\ndeb http://mirror.invalid/old bookworm main contrib\n"
        "deb-src http://mirror.invalid/old bookworm main\n")
    stanzas, lines = fetch.deb_src_entries(tmp_path, codename="bookworm")
    assert [dict(s) for s in stanzas] == [{
        "Types": "deb-src", "URIs": "http://mirror.invalid/debian", "Suites": "bookworm",
        "Components": "main", "Signed-By": "/usr/share/keyrings/debian-archive-keyring.gpg"}]
    assert lines == ["deb-src http://mirror.invalid/old bookworm main contrib"]

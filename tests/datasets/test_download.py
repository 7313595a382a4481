"""Downloads against a loopback HTTP server: resume with Range, verification, atomic results, registry."""

from __future__ import annotations

import hashlib
import io
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from file_server import FileServer

from jiancha._util.cache import default_cache_dir
from jiancha.datasets import download as dl
from jiancha.datasets.download import DownloadError, download_dataset, download_file, file_url
from jiancha.datasets.registry import (
    REGISTRY,
    DatasetSpec,
    RemoteFile,
    dataset_dir,
    get_dataset,
)
from jiancha.errors import ConfigError

BODY = bytes(range(256)) * 1200  # 307,200 bytes, several chunks
SHA = hashlib.sha256(BODY).hexdigest()


@pytest.fixture
def server():
    with FileServer() as srv:
        srv.state.files["/f.bin"] = BODY
        yield srv


def test_plain_download_verified(server, tmp_path):
    res = download_file(server.url + "/f.bin", tmp_path / "out" / "f.bin", size=len(BODY), sha256=SHA)
    assert (tmp_path / "out" / "f.bin").read_bytes() == BODY
    assert (res.size, res.sha256, res.resumed, res.skipped) == (len(BODY), SHA, False, False)
    assert not (tmp_path / "out" / "f.bin.part").exists()
    assert server.state.requests == [("/f.bin", None)]


def test_cut_connection_then_resume_with_range(server, tmp_path):
    server.state.cut_after["/f.bin"] = 100_000
    dest = tmp_path / "f.bin"
    with pytest.raises(DownloadError, match="run the same command again to resume"):
        download_file(server.url + "/f.bin", dest, size=len(BODY), sha256=SHA, retries=0)
    part = tmp_path / "f.bin.part"
    assert not dest.exists() and part.stat().st_size == 100_000
    res = download_file(server.url + "/f.bin", dest, size=len(BODY), sha256=SHA, retries=0)
    assert server.state.requests == [("/f.bin", None), ("/f.bin", "bytes=100000-")]
    assert res.resumed and res.sha256 == SHA and dest.read_bytes() == BODY and not part.exists()


def test_retry_resumes_within_one_call(server, tmp_path):
    server.state.cut_after["/f.bin"] = 65_536
    res = download_file(server.url + "/f.bin", tmp_path / "f.bin", sha256=SHA, retries=2, backoff=0)
    assert res.resumed and res.sha256 == SHA
    assert [r for _, r in server.state.requests] == [None, "bytes=65536-"]


def test_server_ignoring_range_restarts(server, tmp_path):
    server.state.ignore_range = True
    (tmp_path / "f.bin.part").write_bytes(BODY[:5000])
    res = download_file(server.url + "/f.bin", tmp_path / "f.bin", size=len(BODY), sha256=SHA)
    assert not res.resumed and (tmp_path / "f.bin").read_bytes() == BODY


def test_complete_part_file_gets_416_and_is_verified(server, tmp_path):
    (tmp_path / "f.bin.part").write_bytes(BODY)
    res = download_file(server.url + "/f.bin", tmp_path / "f.bin", sha256=SHA)
    assert res.sha256 == SHA and server.state.requests == [("/f.bin", f"bytes={len(BODY)}-")]


def test_checksum_mismatch_keeps_nothing(server, tmp_path):
    wrong = "0" * 64
    with pytest.raises(DownloadError) as ei:
        download_file(server.url + "/f.bin", tmp_path / "f.bin", sha256=wrong)
    msg = str(ei.value)
    assert f"SHA-256 {SHA}, expected {wrong}" in msg and "--no-verify" in msg
    assert list(tmp_path.iterdir()) == []


def test_size_mismatch_and_404(server, tmp_path):
    with pytest.raises(DownloadError, match=f"size {len(BODY)} bytes, expected 1000"):
        download_file(server.url + "/f.bin", tmp_path / "f.bin", size=1000)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(DownloadError, match="HTTP 404"):
        download_file(server.url + "/missing", tmp_path / "m.bin")


def test_present_and_verified_file_is_not_fetched_again(server, tmp_path):
    (tmp_path / "f.bin").write_bytes(BODY)
    res = download_file(server.url + "/f.bin", tmp_path / "f.bin", size=len(BODY), sha256=SHA)
    assert res.skipped and server.state.requests == []
    (tmp_path / "f.bin").write_bytes(b"stale")
    res = download_file(server.url + "/f.bin", tmp_path / "f.bin", size=len(BODY), sha256=SHA)
    assert not res.skipped and (tmp_path / "f.bin").read_bytes() == BODY


def test_progress_bar_is_driven(server, tmp_path):
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(file=io.StringIO())) as progress:
        download_file(server.url + "/f.bin", tmp_path / "f.bin", size=len(BODY), progress=progress)
        assert progress.tasks == []  # finished tasks are removed


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_download_dataset_with_zip_optional_and_manual_step(server, tmp_path, monkeypatch):
    zbytes = _zip({"candidates1/1/10.json": b"{}", "candidates1/2/20.json": b"{}"})
    q = b'{"ridx": 1, "q": "x"}\n'
    spec = DatasetSpec(id="toy", kind="lecard-v1", description="", homepage="", license="", cache_name="toy",
                       base_url="https://example.invalid",
                       files=(RemoteFile("data/query/query.json", len(q), hashlib.sha256(q).hexdigest()),
                              RemoteFile("data/others/criminal charges.txt"),
                              RemoteFile("data/query/common_query.json", optional=True),
                              RemoteFile("data/candidates/candidates1.zip", unpack=True)),
                       manual_step="put more files into {target}/extra")
    monkeypatch.setattr(dl, "get_dataset", lambda _id: spec)
    server.state.files.update({"/toy/data/query/query.json": q, "/toy/data/others/criminal%20charges.txt": b"c",
                               "/toy/data/candidates/candidates1.zip": zbytes})
    res = download_dataset("toy", cache_dir=tmp_path, base_url=server.url)
    root = tmp_path / "toy"
    assert res.target == root and (root / "data/query/query.json").read_bytes() == q
    assert res.missing_optional == ("data/query/common_query.json",)
    assert (root / "data/candidates/1/10.json").exists() and (root / "data/candidates/2/20.json").exists()
    assert res.manual_steps == (f"put more files into {root}/extra",)
    # a second run fetches nothing
    n = len(server.state.requests)
    again = download_dataset("toy", cache_dir=tmp_path, base_url=server.url)
    assert all(r.skipped for r in again.files) and len(server.state.requests) == n + 1  # only the optional 404


def test_download_dataset_checksum_from_registry(server, tmp_path, monkeypatch):
    monkeypatch.setenv("JIANCHA_DOWNLOAD_BASE", server.url)
    server.state.default = b"not the real file"
    spec = get_dataset("lecard-v2")
    monkeypatch.setattr(dl, "get_dataset", lambda _id: replace(spec, files=spec.files[2:3]))
    with pytest.raises(DownloadError, match="size 17 bytes, expected 1924830"):
        download_dataset("lecard-v2", to=tmp_path / "v2")
    assert server.state.requests[0][0] == "/lecard-v2/query/test_query.json"
    res = download_dataset("lecard-v2", to=tmp_path / "v2", verify=False)
    assert res.files[0].path == tmp_path / "v2" / "query" / "test_query.json"
    assert "candidate/" in res.manual_steps[0] and str(tmp_path / "v2") in res.manual_steps[0]


def test_zip_slip_is_refused(tmp_path):
    (tmp_path / "evil.zip").write_bytes(_zip({"../outside.txt": b"x"}))
    with pytest.raises(DownloadError, match="outside"):
        dl.unpack_zip(tmp_path / "evil.zip", tmp_path / "into")
    assert not (tmp_path / "outside.txt").exists()


def test_pdp_download_fails_fast_offline(tmp_path, monkeypatch, socket_connections):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(DownloadError, match="HF_HUB_OFFLINE is set.*huggingface-cli download"):
        download_dataset("pdp", to=tmp_path)
    assert socket_connections == []               # refused before any network use


# ---------------------------------------------------------------------------------------------- registry


def test_registry_ids_and_urls(monkeypatch):
    monkeypatch.delenv("JIANCHA_DOWNLOAD_BASE", raising=False)
    assert {"pdp", "pdp/test", "pdp/test_rq2", "lecard-v1", "lecard-v2", "lecard-v2/test", "cail2018"} <= set(REGISTRY)
    v1 = get_dataset("lecard-v1")
    paths = [f.path for f in v1.files]
    assert "data/candidates/candidates1.zip" in paths and "data/candidates/candidates2.zip" in paths
    charges = next(f for f in v1.files if f.path.endswith("charges.txt"))
    assert file_url(v1, charges) == "https://raw.githubusercontent.com/myx666/LeCaRD/main/data/others/criminal%20charges.txt"
    assert file_url(v1, charges, "http://mirror/") == "http://mirror/lecard-v1/data/others/criminal%20charges.txt"
    for spec in REGISTRY.values():
        assert spec.downloadable or spec.manual_step or spec.id == "pdp/sample", spec.id
        for f in spec.files:
            assert f.sha256 is None or len(f.sha256) == 64
    assert get_dataset("pdp/test").counts["records"] == 4630
    assert sum(v for k, v in get_dataset("pdp/test").counts.items() if k != "records") == 4630


def test_unknown_id_suggests(monkeypatch):
    with pytest.raises(ConfigError, match="did you mean 'lecard-v2'"):
        get_dataset("lecard-2")


def test_cache_dir_env(monkeypatch, tmp_path):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("JIANCHA_CACHE", str(tmp_path))
    assert default_cache_dir() == tmp_path
    assert dataset_dir(get_dataset("lecard-v2/test")) == tmp_path / "lecard-v2"
    monkeypatch.delenv("JIANCHA_CACHE")
    assert default_cache_dir() == Path.home() / ".cache" / "jiancha"

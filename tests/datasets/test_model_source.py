"""Model sources: a missing local path or an unusable hub fails at once with what to do; a cached model loads
offline. Nothing here touches the network beyond a refused connection to 127.0.0.1."""

from __future__ import annotations

import socket

import pytest
from typer.testing import CliRunner

from jiancha.datasets.model_source import resolve_model_source
from jiancha.errors import ConfigError

pytest.importorskip("huggingface_hub")


@pytest.fixture
def empty_hf_cache(tmp_path, monkeypatch):
    """An empty Hugging Face cache (HF_HOME and the hub cache constant, which is read at import time)."""
    import huggingface_hub.constants as hf_constants

    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setattr(hf_constants, "HF_HUB_CACHE", str(tmp_path / "hf" / "hub"))
    return tmp_path / "hf" / "hub"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_missing_local_path_fails_at_once_naming_it(tmp_path, socket_connections):
    missing = str(tmp_path / "no-such-model")
    with pytest.raises(ConfigError, match="does not exist") as exc:
        resolve_model_source(missing)
    assert socket_connections == []
    assert missing in str(exc.value) and "--model" in str(exc.value)
    with pytest.raises(ConfigError, match=r"model path \./nope/x/y \(/.*/nope/x/y\) does not exist"):
        resolve_model_source("./nope/x/y")


def test_existing_local_path_is_used_as_is(tmp_path):
    assert resolve_model_source(str(tmp_path)) == str(tmp_path)


def test_hub_id_with_hub_offline_and_empty_cache_fails_fast(empty_hf_cache, monkeypatch, socket_connections):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ConfigError) as exc:
        resolve_model_source("Qwen/Qwen3-0.6B")
    assert socket_connections == []
    msg = str(exc.value)
    assert "'Qwen/Qwen3-0.6B'" in msg and "HF_HUB_OFFLINE is set" in msg and str(empty_hf_cache) in msg
    assert "hf download Qwen/Qwen3-0.6B --local-dir DIR" in msg and "pass --model DIR" in msg


def test_hub_id_with_unreachable_endpoint_fails_fast(empty_hf_cache, monkeypatch, socket_connections):
    for var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"):
        monkeypatch.delenv(var, raising=False)
    port = _closed_port()
    endpoint = f"http://127.0.0.1:{port}"
    monkeypatch.setenv("HF_ENDPOINT", endpoint)
    with pytest.raises(ConfigError, match="cannot reach " + endpoint) as exc:
        resolve_model_source("org/model", option="--model-x")
    assert socket_connections == [("127.0.0.1", port)]   # one probe, no retries
    assert "pass --model-x DIR" in str(exc.value)


def test_cached_hub_model_resolves_offline_to_its_snapshot(empty_hf_cache, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    commit = "0123456789abcdef0123456789abcdef01234567"
    repo = empty_hf_cache / "models--org--tiny"
    (repo / "snapshots" / commit).mkdir(parents=True)
    (repo / "snapshots" / commit / "config.json").write_text("{}")
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    assert resolve_model_source("org/tiny") == str(repo / "snapshots" / commit)


def test_dense_cli_with_missing_model_fails_before_loading_any_data(tmp_path):
    from jiancha.cli.main import app

    missing = str(tmp_path / "st-model")
    res = CliRunner().invoke(app, ["retrieval", "eval", "--dataset", "lecard-v2", "--data-dir",
                                   str(tmp_path / "no-data"), "--method", "dense", "--model", missing,
                                   "--out", str(tmp_path / "out")])
    assert isinstance(res.exception, ConfigError), res.output
    assert missing in str(res.exception) and "does not exist" in str(res.exception)


def test_dense_with_offline_hub_id_fails_before_tokenising(empty_hf_cache, monkeypatch, tmp_path,
                                                         socket_connections):
    pytest.importorskip("sentence_transformers")
    from lecard_fixtures import write_v2

    from jiancha.retrieval import pipeline
    from jiancha.retrieval.dense import DenseConfig

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")

    def no_tokenising(*a, **k):
        raise AssertionError("the corpus was tokenised before the model was checked")

    monkeypatch.setattr(pipeline, "encode_corpus", no_tokenising)
    with pytest.raises(ConfigError, match="cannot load model 'org/st-model'.*HF_HUB_OFFLINE is set"):
        pipeline.run_and_evaluate("lecard-v2", write_v2(tmp_path / "v2"), "dense",
                                  dense=DenseConfig(model="org/st-model"), cache=tmp_path / "c")
    assert socket_connections == []

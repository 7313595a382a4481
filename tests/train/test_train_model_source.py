"""`jiancha train sft|dapo|gspo --model`: a missing local path or an unusable hub id fails at once (no minute of
hub retries) with a message saying what to pass instead."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from jiancha.errors import ConfigError

pytest.importorskip("trl")


def _invoke(*args: str):
    from jiancha.cli.main import app

    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("recipe", ["sft", "dapo", "gspo"])
def test_missing_model_path_fails_at_once_naming_it(recipe, pool_file, tmp_path):
    missing = str(tmp_path / "nonexistent-model")
    res = _invoke("train", recipe, "--preset", "tiny-cpu", "--model", missing, "--data", str(pool_file),
                  "--output-dir", str(tmp_path / "out"))
    assert isinstance(res.exception, ConfigError), res.output
    assert str(res.exception).startswith(f"model path {missing} does not exist")
    assert not (tmp_path / "out").exists()


def test_hub_id_offline_with_empty_cache_fails_fast(pool_file, tmp_path, monkeypatch, socket_connections):
    import huggingface_hub.constants as hf_constants

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setattr(hf_constants, "HF_HUB_CACHE", str(tmp_path / "hf" / "hub"))
    res = _invoke("train", "sft", "--preset", "tiny-cpu", "--model", "Qwen/Qwen3-0.6B", "--data", str(pool_file),
                  "--output-dir", str(tmp_path / "out"))
    assert socket_connections == []               # refused before any network use or data loading
    assert isinstance(res.exception, ConfigError), res.output
    msg = str(res.exception)
    assert "cannot load model 'Qwen/Qwen3-0.6B'" in msg and "HF_HUB_OFFLINE is set" in msg
    assert "--local-dir DIR" in msg and "pass --model DIR" in msg


def test_cached_hub_model_is_loaded_offline(tiny_model, tmp_path, monkeypatch):
    """A hub id already in the Hugging Face cache resolves to its snapshot and the tokenizer loads offline."""
    import shutil

    import huggingface_hub.constants as hf_constants

    from jiancha.train.models import load_tokenizer, resolve_model

    commit = "89abcdef0123456789abcdef0123456789abcdef"
    repo = tmp_path / "hub" / "models--jiancha-test--tiny-qwen3"
    shutil.copytree(tiny_model, repo / "snapshots" / commit)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(hf_constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    source = resolve_model("jiancha-test/tiny-qwen3")
    assert source == str(repo / "snapshots" / commit)
    assert load_tokenizer(source).pad_token is not None

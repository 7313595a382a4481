"""Lazy imports name the install command of their extra; one cache folder for every caller."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jiancha._util.cache import CACHE_ENV, default_cache_dir, resolve_cache_dir
from jiancha._util.lazy import require
from jiancha.errors import MissingExtraError


def test_require_returns_the_module():
    import json

    assert require("json", "core") is json


def test_a_missing_optional_module_names_the_install_command_from_the_checkout():
    with pytest.raises(MissingExtraError) as info:
        require("jiancha_no_such_module", "web")
    msg = str(info.value)
    assert msg.startswith("'jiancha_no_such_module' is needed for this feature but is not installed")
    assert "it comes with the extra 'web' with `.venv/bin/pip install -e '.[web]'` in the jiancha checkout" in msg
    assert "pip install 'jiancha" not in msg          # jiancha is not on PyPI


def test_a_missing_core_module_says_reinstall():
    with pytest.raises(MissingExtraError, match=r"core dependency: reinstall jiancha with `\.venv/bin/pip install "
                                                r"-e \.` in the jiancha checkout"):
        require("jiancha_no_such_module", "core")


def test_cache_folder_from_the_environment_or_home(monkeypatch, tmp_path):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    assert default_cache_dir() == tmp_path == resolve_cache_dir()
    assert resolve_cache_dir(tmp_path / "x") == tmp_path / "x"
    monkeypatch.setenv(CACHE_ENV, "~/jc")
    assert default_cache_dir() == Path.home() / "jc"
    monkeypatch.setenv(CACHE_ENV, "")
    assert default_cache_dir() == Path.home() / ".cache" / "jiancha"
    monkeypatch.delenv(CACHE_ENV)
    assert resolve_cache_dir() == Path.home() / ".cache" / "jiancha"
    assert resolve_cache_dir("~/c") == Path.home() / "c"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "jiancha"
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "own"))     # the project's own variable wins
    assert default_cache_dir() == tmp_path / "own"


def test_every_cache_user_goes_through_the_one_helper():
    # the LeCaRD archive cache, the dataset download folders and the retrieval caches all resolve the same way
    from jiancha.datasets import lecard, registry

    assert not hasattr(lecard, "cache_dir")
    assert not hasattr(registry, "default_cache_dir")
    src = Path(lecard.__file__).parents[1]
    reads_env = re.compile(rf"""(environ\.get\(|getenv\(|environ\[)\s*["']{CACHE_ENV}|home\(\)\s*/\s*["']\.cache["']""")
    offenders = [str(p.relative_to(src)) for p in src.rglob("*.py")
                 if reads_env.search(p.read_text(encoding="utf-8")) and p.name != "cache.py"]
    assert offenders == []
    assert reads_env.search((src / "_util" / "cache.py").read_text(encoding="utf-8"))  # the pattern does match

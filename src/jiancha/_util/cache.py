"""The one cache folder of jiancha (downloads, unpacked archives, token and index caches)."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "JIANCHA_CACHE"
#: The default, as help texts state it.
CACHE_DEFAULT_TEXT = f"${CACHE_ENV} or ~/.cache/jiancha"


def default_cache_dir() -> Path:
    """``$JIANCHA_CACHE`` (``~`` expanded) when set and not empty, else ``~/.cache/jiancha``."""
    env = os.environ.get(CACHE_ENV)
    return Path(env).expanduser() if env else Path.home() / ".cache" / "jiancha"


def resolve_cache_dir(cache: str | os.PathLike | None = None) -> Path:
    """``cache`` itself (``~`` expanded) when given, else :func:`default_cache_dir`."""
    return Path(cache).expanduser() if cache is not None else default_cache_dir()

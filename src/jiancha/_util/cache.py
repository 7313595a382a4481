"""The one cache folder of jiancha (downloads, unpacked archives, token and index caches, web indexes)."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "JIANCHA_CACHE"
#: The default, as help texts state it.
CACHE_DEFAULT_TEXT = f"${CACHE_ENV}, else $XDG_CACHE_HOME/jiancha or ~/.cache/jiancha"


def default_cache_dir() -> Path:
    """``$JIANCHA_CACHE`` when set and not empty, else ``$XDG_CACHE_HOME/jiancha``, else ``~/.cache/jiancha``
    (``~`` expanded in each)."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "jiancha"


def resolve_cache_dir(cache: str | os.PathLike | None = None) -> Path:
    """``cache`` itself (``~`` expanded) when given, else :func:`default_cache_dir`."""
    return Path(cache).expanduser() if cache is not None else default_cache_dir()

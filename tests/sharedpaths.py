"""Where ../shared lives, and a skip helper. Import as ``from sharedpaths import shared_path``.

(A module of its own, because several ``conftest.py`` files share the module name ``conftest``.)
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("JIANCHA_SHARED", REPO.parent / "shared"))


def shared_path(*parts: str) -> Path:
    """Path under ../shared, or skip the calling test with the reason."""
    p = SHARED.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"needs ../shared data ({p} not present)")
    return p

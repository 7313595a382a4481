"""Shared fixtures. Data from ../shared is optional: tests that need it skip with a visible reason."""

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


@pytest.fixture
def shared_data() -> Path:
    return shared_path("data")


# The fake chat-completions server (tests/fake_openai.py) as the ``fake_openai`` fixture.
from fake_openai import fake_openai  # noqa: E402,F401

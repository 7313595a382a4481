"""Shared fixtures. Data from ../shared is optional: tests that need it skip with a visible reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from sharedpaths import REPO, SHARED, shared_path  # noqa: F401  (re-exported for fixtures below)


@pytest.fixture
def shared_data() -> Path:
    return shared_path("data")


# The fake chat-completions server (tests/fake_openai.py) as the ``fake_openai`` fixture.
from fake_openai import fake_openai  # noqa: F401

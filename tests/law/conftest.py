"""Fixtures for the law tests (no `from conftest import`: several conftest.py files share that module name)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture
def shared_file(shared_data: Path) -> Callable[..., Path]:
    """``shared_file("cail2018", "meta", "accu.txt")``: a path under ../shared/data, or skip the test."""

    def get(*parts: str) -> Path:
        p = shared_data.joinpath(*parts)
        if not p.exists():
            pytest.skip(f"needs ../shared data ({p} not present)")
        return p

    return get

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


@pytest.fixture
def run_script() -> Callable[..., int]:
    """``run_script("build_charge_table.py", "--out", path)``: run a script of ``scripts/`` as ``__main__`` with
    those arguments and return its exit code."""
    import runpy
    import sys

    def run(name: str, *args: str) -> int:
        script = Path(__file__).resolve().parents[2] / "scripts" / name
        argv = sys.argv
        sys.argv = [str(script), *args]
        try:
            with pytest.raises(SystemExit) as exit_info:
                runpy.run_path(str(script), run_name="__main__")
        finally:
            sys.argv = argv
        return exit_info.value.code

    return run

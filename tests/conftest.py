"""Shared fixtures. Data from ../shared is optional: tests that need it skip with a visible reason."""

from __future__ import annotations

from pathlib import Path

import pytest

# What the session collected, per file, for tests/test_collection_guard.py (hooks, see tests/collection.py).
from collection import pytest_itemcollected, pytest_make_collect_report  # noqa: F401

# The fake chat-completions server (tests/fake_openai.py) as the ``fake_openai`` fixture.
from fake_openai import fake_openai  # noqa: F401
from sharedpaths import REPO, SHARED, shared_path  # noqa: F401  (re-exported for fixtures below)


@pytest.fixture
def shared_data() -> Path:
    return shared_path("data")


@pytest.fixture
def socket_connections(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every address a socket of this process connects to during the test (the connections still happen).

    Tests of "fails at once" check this instead of a stopwatch: no connection at all when the hub is off, one
    probe (no retries) when it is unreachable.
    """
    import socket

    seen: list[object] = []
    real_connect = socket.socket.connect

    def connect(self: socket.socket, address: object) -> None:
        seen.append(address[:2] if isinstance(address, tuple) else address)
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    return seen

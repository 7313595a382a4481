"""Retry policy: which failures are transient, exponential backoff with full jitter, ``Retry-After``."""

from __future__ import annotations

import email.utils
import random
import time

#: HTTP statuses worth retrying: rate limiting, request timeout, conflicts and server-side failures.
RETRYABLE_STATUS: frozenset[int] = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524,
                                              529})


def is_retryable_status(status: int) -> bool:
    return status in RETRYABLE_STATUS or 500 <= status < 600


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or HTTP-date); None if absent or invalid.

    >>> parse_retry_after("3")
    3.0
    >>> parse_retry_after("soon") is None
    True
    """
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        dt = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if dt is None:
        return None
    return max(0.0, dt.timestamp() - (time.time() if now is None else now))


def backoff_delay(attempt: int, *, base: float, cap: float, rng: random.Random | None = None) -> float:
    """Full-jitter exponential backoff: uniform in [0, min(cap, base * 2**(attempt-1))] for attempt ≥ 1."""
    upper = min(cap, base * (2 ** max(0, attempt - 1)))
    return (rng or random).uniform(0, upper)

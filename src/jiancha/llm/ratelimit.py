"""A token-bucket limiter for requests per minute, shared by all workers of one event loop."""

from __future__ import annotations

import asyncio
import time


class TokenBucket:
    """``rpm`` tokens per minute, at most ``burst`` at once. ``acquire()`` waits until a token is available."""

    def __init__(self, rpm: float, *, burst: float = 1.0, clock=time.monotonic) -> None:
        self.rate = rpm / 60.0
        self.capacity = max(1.0, burst)
        self._tokens = self.capacity
        self._clock = clock
        self._last = clock()
        self._lock = asyncio.Lock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._last) * self.rate)
        self._last = now

    async def acquire(self) -> None:
        async with self._lock:
            while True:
                self._refill()
                if self._tokens >= 1.0:
                    self._tokens -= 1.0
                    return
                await asyncio.sleep((1.0 - self._tokens) / self.rate)

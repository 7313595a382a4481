"""Spread requests over several base URLs (replicas of one deployment): least requests in flight, ties in
round-robin order."""

from __future__ import annotations


class ReplicaPool:
    def __init__(self, base_urls: tuple[str, ...] | list[str]) -> None:
        if not base_urls:
            raise ValueError("ReplicaPool needs at least one base URL")
        self.urls = tuple(base_urls)
        self.in_flight = [0] * len(self.urls)
        self.sent = [0] * len(self.urls)
        self._next = 0

    def acquire(self) -> int:
        """Index of the replica to use; call ``release(index)`` when the request ends."""
        n = len(self.urls)
        best = None
        for k in range(n):
            i = (self._next + k) % n
            if best is None or self.in_flight[i] < self.in_flight[best]:
                best = i
        assert best is not None
        self._next = (best + 1) % n
        self.in_flight[best] += 1
        self.sent[best] += 1
        return best

    def release(self, index: int) -> None:
        self.in_flight[index] -= 1

"""Progress as plain lines, for a standard error that is not a terminal (a log file, CI, a pipe) where a redrawn
bar would print nothing or a blank line per refresh."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

#: Seconds between two lines while a step runs.
EVERY_S = 10.0


def logged(items: Iterable[T], desc: str, total: int, write: Callable[[str], object], *,
           every_s: float = EVERY_S, clock: Callable[[], float] = time.monotonic) -> Iterator[T]:
    """Yield ``items``, writing ``desc`` when they start, ``desc: done/total (s)`` at most every ``every_s``
    seconds while they run, and ``desc: done/total in s`` when they end (also when fewer than ``total`` came)."""
    t0 = last = clock()
    done = 0
    write(f"{desc}: {total:,} …" if total > 1 else f"{desc} …")
    for item in items:
        yield item
        done += 1
        now = clock()
        if now - last >= every_s and done < total:
            write(f"{desc}: {done:,}/{total:,} ({now - t0:.0f} s)")
            last = now
    elapsed = clock() - t0
    write(f"{desc}: {done:,}/{total:,} in {elapsed:.1f} s" if total > 1 else f"{desc}: done in {elapsed:.1f} s")

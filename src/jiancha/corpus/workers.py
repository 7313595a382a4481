"""Ordered, bounded parallel map for the build stages (``--workers N``).

``map_ordered`` hands items to N worker processes and yields results in input order. At most ``window`` items
are in flight, so memory stays flat however many documents a folder holds: the input is read lazily and a
result is handed on as soon as it and everything before it are done. With one worker everything runs in this
process (no pool, no pickling), which is also what the tests exercise.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from jiancha.errors import ConfigError

T = TypeVar("T")
R = TypeVar("R")

#: Items handed to a worker at once, and items in flight per worker (the window is workers × this).
CHUNKSIZE = 8
IN_FLIGHT_PER_WORKER = 64


def check_workers(workers: int) -> int:
    """``workers`` if it is a usable process count; a ConfigError that names the fix otherwise."""
    cores = os.cpu_count() or 1
    if workers < 1:
        raise ConfigError(f"--workers {workers}: expected at least 1 (this machine has {cores} cores)")
    return workers


def map_ordered(func: Callable[[T], R], items: Iterable[T], workers: int = 1) -> Iterator[R]:
    """``func`` over ``items`` in ``workers`` processes, results in input order, bounded memory."""
    check_workers(workers)
    if workers == 1:
        yield from map(func, items)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    window = workers * IN_FLIGHT_PER_WORKER
    it = iter(items)
    with multiprocessing.get_context(method).Pool(workers) as pool:
        while batch := list(itertools.islice(it, window)):
            yield from pool.imap(func, batch, chunksize=CHUNKSIZE)

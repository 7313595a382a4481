"""Run many chat requests with bounded concurrency; each result is handed to a callback (the durable store,
through group commit) before its worker takes the next request."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from jiancha.llm.types import ChatRequest, ChatResult


async def run_batch(requests: Iterable[ChatRequest], complete: Callable[[ChatRequest], Awaitable[ChatResult]], *,
                    concurrency: int, on_result: Callable[[ChatRequest, ChatResult], Any]) -> int:
    """Send ``requests`` (consumed lazily) through ``complete`` with at most ``concurrency`` in flight.

    ``on_result`` (a function or a coroutine function) runs right after each request completes and before its
    worker takes the next request; an exception there (e.g. a full disk) cancels the batch. Returns the number
    of requests completed.
    """
    it = iter(requests)
    count = 0

    async def worker() -> None:
        nonlocal count
        for req in it:          # a shared iterator: each request is taken by exactly one worker
            result = await complete(req)
            done = on_result(req, result)
            if inspect.isawaitable(done):
                await done
            count += 1

    async with asyncio.TaskGroup() as tg:
        for _ in range(max(1, concurrency)):
            tg.create_task(worker())
    return count


class GroupCommitter:
    """Durable appends without stalling the event loop: rows handed to ``commit`` are written and fsync'ed in a
    worker thread, several rows per fsync; ``commit`` returns only once its row is on disk.

    A row handed to ``commit`` is written even when the committing worker is cancelled while it waits (Ctrl-C):
    ``drain`` waits until every pending row is on disk, so a request that was paid for is never lost.
    Writes happen one batch at a time, in a single flusher task, so the file never sees two writers.
    """

    def __init__(self, append_many: Callable[[list[dict]], None]) -> None:
        self._append_many = append_many
        self._pending: list[tuple[dict, asyncio.Future]] = []
        self._flusher: asyncio.Task | None = None

    async def commit(self, row: dict) -> None:
        fut = asyncio.get_running_loop().create_future()
        self._pending.append((row, fut))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        await fut

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await asyncio.to_thread(self._append_many, [row for row, _ in batch])
            # any error (a full disk, a closed store) is re-raised in the waiting workers, so none waits forever
            except Exception as exc:  # noqa: BLE001
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(exc)
                continue
            for _, fut in batch:
                if not fut.done():
                    fut.set_result(None)

    async def drain(self) -> None:
        """Wait until every row handed to ``commit`` has been written (or its write has failed)."""
        while self._flusher is not None and not self._flusher.done():
            await asyncio.wait({self._flusher})
        if self._pending:          # rows committed after the flusher's last look (cannot normally happen)
            self._flusher = asyncio.create_task(self._flush())
            await asyncio.wait({self._flusher})


def run_into_store(client, requests: Iterable[ChatRequest], *, total: int,
                   make_row: Callable[[ChatRequest, ChatResult], dict],
                   append_many: Callable[[list[dict]], None], show_progress: bool = False, console=None,
                   description: str = "requests"):
    """Send ``requests`` through a ``ChatClient``; each completed request's row (built by ``make_row``) is
    durably appended (group commit through ``append_many``) before its worker takes the next request. A live
    progress bar when ``show_progress``. Returns BatchStats."""
    from jiancha.llm.progress import BatchProgress

    progress = BatchProgress(total, description=description, enabled=show_progress, console=console)

    async def go() -> None:
        committer = GroupCommitter(append_many)

        async def on_result(req: ChatRequest, res: ChatResult) -> None:
            await committer.commit(make_row(req, res))
            progress.advance(res)

        async def complete(req: ChatRequest) -> ChatResult:
            return await client.complete(req.messages, seed=req.seed)

        async with client:
            try:
                await run_batch(requests, complete, concurrency=client.config.concurrency, on_result=on_result)
            finally:   # also on cancellation (Ctrl-C): rows of completed requests reach the disk
                await committer.drain()

    with progress:
        try:
            asyncio.run(go())
        except BaseExceptionGroup as group:   # a worker failed (e.g. the disk is full): raise that error itself
            raise group.exceptions[0] from None
    return progress.stats

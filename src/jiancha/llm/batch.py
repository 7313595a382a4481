"""Run many chat requests with bounded concurrency; hand each result to a synchronous callback (the store)
before the worker takes its next request."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable

from jiancha.llm.types import ChatRequest, ChatResult


async def run_batch(requests: Iterable[ChatRequest], complete: Callable[[ChatRequest], Awaitable[ChatResult]], *,
                    concurrency: int, on_result: Callable[[ChatRequest, ChatResult], None]) -> int:
    """Send ``requests`` (consumed lazily) through ``complete`` with at most ``concurrency`` in flight.

    ``on_result`` runs in the event loop right after each request completes; an exception there (e.g. a full
    disk) cancels the batch. Returns the number of requests completed.
    """
    it = iter(requests)
    count = 0

    async def worker() -> None:
        nonlocal count
        for req in it:          # a shared iterator: each request is taken by exactly one worker
            result = await complete(req)
            on_result(req, result)
            count += 1

    async with asyncio.TaskGroup() as tg:
        for _ in range(max(1, concurrency)):
            tg.create_task(worker())
    return count


def run_into_store(client, requests: Iterable[ChatRequest], *, total: int,
                   make_row: Callable[[ChatRequest, ChatResult], dict], append: Callable[[dict], None],
                   show_progress: bool = False, console=None, description: str = "requests"):
    """Send ``requests`` through a ``ChatClient`` and durably ``append`` one row per completed request (built by
    ``make_row``) before the worker moves on; a live progress bar when ``show_progress``. Returns BatchStats."""
    from jiancha.llm.progress import BatchProgress

    progress = BatchProgress(total, description=description, enabled=show_progress, console=console)

    def on_result(req: ChatRequest, res: ChatResult) -> None:
        append(make_row(req, res))
        progress.advance(res)

    async def go() -> None:
        async with client:
            async def complete(req: ChatRequest) -> ChatResult:
                return await client.complete(req.messages, seed=req.seed)
            await run_batch(requests, complete, concurrency=client.config.concurrency, on_result=on_result)

    with progress:
        asyncio.run(go())
    return progress.stats

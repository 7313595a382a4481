"""Live progress of a batch of requests: done/total, rate, failures, tokens and cost so far (rich)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from jiancha.llm.types import ChatResult


@dataclass
class BatchStats:
    done: int = 0
    failed: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    cost: float = 0.0

    def add(self, result: ChatResult) -> None:
        self.done += 1
        if not result.ok:
            self.failed += 1
        self.prompt_tokens += result.prompt_tokens or 0
        self.completion_tokens += result.completion_tokens or 0
        self.reasoning_tokens += result.reasoning_tokens or 0
        self.cost += result.cost or 0.0


class BatchProgress:
    """``with BatchProgress(total, enabled) as p: p.advance(result)``; a no-op when disabled."""

    def __init__(self, total: int, *, description: str = "requests", enabled: bool = True,
                 console: Console | None = None) -> None:
        self.stats = BatchStats()
        self.total = total
        self.enabled = enabled
        self._progress = None
        if enabled:
            self._progress = Progress(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("{task.fields[rate]:.1f}/s"), TextColumn("[red]fail {task.fields[failed]}"),
                TextColumn("tok {task.fields[tokens]:,}"), TextColumn("${task.fields[cost]:.4f}"),
                TimeElapsedColumn(), TimeRemainingColumn(),
                console=console or Console(stderr=True), transient=False, refresh_per_second=4,
            )
            self._task = self._progress.add_task(description, total=total, rate=0.0, failed=0, tokens=0, cost=0.0)

    def __enter__(self) -> Self:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    def advance(self, result: ChatResult) -> None:
        self.stats.add(result)
        if self._progress is not None:
            s = self.stats
            elapsed = self._progress.tasks[0].elapsed or 0.0
            self._progress.update(self._task, advance=1, rate=s.done / elapsed if elapsed > 0 else 0.0,
                                  failed=s.failed, tokens=s.prompt_tokens + s.completion_tokens, cost=s.cost)

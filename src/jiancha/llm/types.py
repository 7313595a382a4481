"""Typed requests and results of the chat backend."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class ChatRequest:
    """One chat completion to obtain. ``key`` identifies it in the store (e.g. ``(case_id, run_id)``)."""

    key: tuple[str, int]
    messages: list[dict[str, str]]
    seed: int | None = None
    meta: dict[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class ResponseInfo:
    """What is recorded about a request besides its answer: reasoning text (when the API returns it separately),
    ``finish_reason``, token usage, cost (when the provider reports it), latency, attempts and the last error."""

    reasoning: str | None = None
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    reasoning_tokens: int | None = None
    cost: float | None = None
    latency_s: float | None = None
    attempts: int = 1
    error: str | None = None

    def response_info(self) -> dict[str, Any]:
        """The ``ResponseInfo`` fields alone, as keyword arguments for another record."""
        return {f.name: getattr(self, f.name) for f in fields(ResponseInfo)}


@dataclass(frozen=True, kw_only=True)
class ChatResult(ResponseInfo):
    """The outcome of a request after all its attempts: ``ok`` with the answer, or not ok with ``error``."""

    ok: bool
    text: str | None = None


def messages_hash(messages: list[dict[str, str]]) -> str:
    """Stable hash of the exact messages sent (recorded by every run): SHA-256 of their canonical JSON, 16 hex."""
    from jiancha._util.hashing import stable_hash

    return stable_hash([{"role": m["role"], "content": m["content"]} for m in messages])

"""Async client for OpenAI-compatible chat completions: httpx, own retry loop, rate limit, replica spreading.

The API key is read from an environment variable at construction and only ever placed in the
``Authorization`` header; it is never stored on the client's public attributes, in errors or in results.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from typing import Any, Self

import httpx

from jiancha.errors import ConfigError
from jiancha.llm.config import BackendSpec, ClientConfig, GenerationConfig, redact_url
from jiancha.llm.presets import PRESETS, check_generation, render_request_body
from jiancha.llm.ratelimit import TokenBucket
from jiancha.llm.replicas import ReplicaPool
from jiancha.llm.retry import backoff_delay, is_retryable_status, parse_retry_after
from jiancha.llm.types import ChatResult

#: Connections per httpx pool; a client with concurrency n holds ceil(n / SHARD_CONNECTIONS) pools.
SHARD_CONNECTIONS = 8


class _Retryable(Exception):
    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class _Fatal(Exception):
    pass


def _int_or_none(v: Any) -> int | None:
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def parse_completion(data: Any) -> dict[str, Any]:
    """Fields of a chat-completions response body; raise ValueError/TypeError when it is not one."""
    if not isinstance(data, dict):
        raise TypeError(f"response body is a JSON {type(data).__name__}, expected an object")
    if "error" in data and not data.get("choices"):
        err = data["error"]
        msg = err.get("message") if isinstance(err, dict) else err
        raise ValueError(f"response carries an error: {str(msg)[:200]}")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ValueError("response has no choices")
    choice = choices[0]
    message = choice.get("message")
    if not isinstance(message, dict):
        raise TypeError("response choice has no message")
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        raise ValueError(f"message content is a {type(content).__name__}, expected a string")
    reasoning = message.get("reasoning")
    if not isinstance(reasoning, str) or not reasoning:
        reasoning = message.get("reasoning_content")
    if not isinstance(reasoning, str) or not reasoning:
        reasoning = None
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    details = usage.get("completion_tokens_details") if isinstance(usage.get("completion_tokens_details"),
                                                                   dict) else {}
    cost = usage.get("cost")
    return {
        "text": content,
        "reasoning": reasoning,
        "finish_reason": choice.get("finish_reason"),
        "prompt_tokens": _int_or_none(usage.get("prompt_tokens")),
        "completion_tokens": _int_or_none(usage.get("completion_tokens")),
        "reasoning_tokens": _int_or_none(details.get("reasoning_tokens")),
        "cost": float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) else None,
    }


class ChatClient:
    """Send chat requests for one backend. Use as ``async with ChatClient(...) as c: await c.complete(...)``."""

    def __init__(self, spec: BackendSpec, gen: GenerationConfig, config: ClientConfig | None = None, *,
                 rng: random.Random | None = None) -> None:
        check_generation(spec, gen)
        self.spec, self.gen, self.config = spec, gen, config or ClientConfig()
        preset = PRESETS[spec.preset]
        key = os.environ.get(spec.api_key_env) if spec.api_key_env else None
        if preset.api_key_required and not key:
            raise ConfigError(f"the {spec.preset} preset needs an API key in the environment variable "
                              f"{spec.api_key_env}, which is not set; export it (the key is read only from the "
                              "environment and never written to disk), or name another variable with "
                              "--api-key-env")
        if spec.api_key_env and not key:
            # a local server often needs no key, so this is not an error; but a variable that was named and is
            # empty is more often a forgotten export than an intention
            import sys

            where = redact_url(spec.base_urls[0]) if spec.base_urls else spec.preset
            print(f"warning: {spec.api_key_env} is not set: requests to {where} are sent without an API key",
                  file=sys.stderr)
        self._redact = (lambda text: text.replace(key, "***")) if key else (lambda text: text)
        self._headers = {"Content-Type": "application/json"}
        if key:
            self._headers["Authorization"] = f"Bearer {key}"
        self.replicas = ReplicaPool(spec.base_urls)
        self._shown_urls = [f"{redact_url(u)}/chat/completions" for u in spec.base_urls]
        self._limiter = TokenBucket(self.config.rate_limit_rpm) if self.config.rate_limit_rpm else None
        self._rng = rng or random.Random()
        self._cooldown_until = 0.0
        self._https: list[httpx.AsyncClient] = []
        self._next_http = 0

    async def __aenter__(self) -> Self:
        # Several small connection pools instead of one large one: httpcore's pool bookkeeping grows with the
        # square of its size, which dominated the runner's overhead at concurrency 64.
        n = self.config.concurrency
        shards = max(1, -(-n // SHARD_CONNECTIONS))
        per = -(-n // shards) + 1
        ssl_context = httpx.create_ssl_context()   # loaded once, shared by the pools
        self._https = [httpx.AsyncClient(timeout=httpx.Timeout(self.config.timeout_s), verify=ssl_context,
                                         limits=httpx.Limits(max_connections=per, max_keepalive_connections=per),
                                         headers=self._headers) for _ in range(shards)]
        return self

    async def __aexit__(self, *exc: object) -> None:
        for http in self._https:
            await http.aclose()
        self._https = []

    async def _attempt(self, body: bytes) -> tuple[dict[str, Any], float]:
        assert self._https, "use ChatClient inside 'async with'"
        http = self._https[self._next_http]
        self._next_http = (self._next_http + 1) % len(self._https)
        idx = self.replicas.acquire()
        url = f"{self.replicas.urls[idx]}/chat/completions"
        shown = self._shown_urls[idx]
        t0 = time.perf_counter()
        try:
            async with asyncio.timeout(self.config.timeout_s):
                resp = await http.post(url, content=body)
                raw = await resp.aread()
        except (TimeoutError, httpx.TimeoutException):
            raise _Retryable(f"timeout after {self.config.timeout_s:g} s ({shown})") from None
        except httpx.RequestError as exc:   # transport errors, undecodable bodies, redirect loops
            raise _Retryable(f"connection error ({type(exc).__name__}: {exc}) ({shown})") from None
        finally:
            self.replicas.release(idx)
        latency = time.perf_counter() - t0
        status = resp.status_code
        if status != 200:
            snippet = raw[:300].decode("utf-8", "replace")
            message = f"HTTP {status} from {shown}: {snippet}"
            if is_retryable_status(status):
                raise _Retryable(message, parse_retry_after(resp.headers.get("retry-after")))
            raise _Fatal(message)
        try:
            return parse_completion(json.loads(raw)), latency
        except (ValueError, TypeError) as exc:
            raise _Retryable(f"malformed response body from {shown}: {exc}") from None

    async def complete(self, messages: list[dict[str, str]], *, seed: int | None = None) -> ChatResult:
        """One request with retries. Never raises for request failures: returns ``ChatResult(ok=False)``."""
        body = json.dumps(render_request_body(self.spec, messages, self.gen, seed), ensure_ascii=False,
                          separators=(",", ":")).encode("utf-8")
        cfg = self.config
        last_error = ""
        for attempt in range(1, cfg.max_attempts + 1):
            wait = self._cooldown_until - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if self._limiter is not None:
                await self._limiter.acquire()
            try:
                fields, latency = await self._attempt(body)
            except _Fatal as exc:
                return ChatResult(ok=False, attempts=attempt, error=self._redact(str(exc)))
            except _Retryable as exc:
                last_error = self._redact(str(exc))   # a server might echo the request headers
                if attempt == cfg.max_attempts:
                    break
                delay = backoff_delay(attempt, base=cfg.backoff_base_s, cap=cfg.backoff_max_s, rng=self._rng)
                if exc.retry_after is not None:
                    delay = max(delay, min(exc.retry_after, cfg.retry_after_max_s))
                    self._cooldown_until = max(self._cooldown_until, time.monotonic() + delay)
                await asyncio.sleep(delay)
                continue
            return ChatResult(ok=True, latency_s=round(latency, 4), attempts=attempt, **fields)
        return ChatResult(ok=False, attempts=cfg.max_attempts,
                          error=f"failed after {cfg.max_attempts} attempts; last error: {last_error}")

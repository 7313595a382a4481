"""A real chat-completions server on 127.0.0.1 with scripted faults, for integration tests and benchmarks.

``FakeOpenAI`` runs an asyncio HTTP/1.1 server (keep-alive) in a background thread. Requests are attributed to a
*key*: the first ``CASE-…`` token in the messages (tests put one in each case), else a hash of the messages.
Per key, ``script(key, [...])`` lists what successive requests get; after the list is used up, requests get
``default`` (``"ok"``). Behaviours:

- ``ok``: a valid answer (``answers[key]`` as the decision, default ``起诉``), with reasoning when ``reasoning``
- ``429`` / ``429:S``: Too Many Requests with ``Retry-After: S`` (default 1)
- ``500``: Internal Server Error; ``400``: Bad Request (not retryable); ``echo401``: 401 echoing the headers
- ``hang``: no reply for ``hang_s`` seconds, then the connection is closed
- ``malformed``: status 200 with a body that is not JSON
- ``length``: status 200, ``finish_reason: "length"``, the answer cut off
- ``reset``: the connection is aborted without a response

Run standalone (for benchmarks): ``python tests/fake_openai.py --latency 2`` prints its base URL.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import re
import threading
from collections import Counter, defaultdict, deque
from typing import Self

import pytest

KEY_RE = re.compile(r"CASE-[A-Za-z0-9_]+")

_REASONS = {200: "OK", 429: "Too Many Requests", 500: "Internal Server Error", 400: "Bad Request",
            404: "Not Found", 401: "Unauthorized"}


def render_answer_text(decision: str) -> str:
    return ("【适用法条】\n刑法：第二百六十四条\n刑事诉讼法：第一百七十六条\n\n【审查分析】\n虚构的分析。\n\n"
            f"【最终结论】\n决定：{decision}")


class FakeOpenAI:
    def __init__(self, *, latency: float = 0.0, hang_s: float = 30.0, reasoning: bool = False,
                 record_bodies: bool = True, host: str = "127.0.0.1", port: int = 0) -> None:
        self.latency, self.hang_s, self.reasoning = latency, hang_s, reasoning
        self.record_bodies = record_bodies
        self.host, self.port = host, port
        self.default = "ok"
        self.answers: dict[str, str] = {}
        #: ``responder(body, key) -> text`` replaces the default PDP-style answer when set.
        self.responder = None
        self.counts: Counter[str] = Counter()
        self.bodies: list[dict] = []
        self.headers: list[dict[str, str]] = []
        self._scripts: dict[str, deque[str]] = defaultdict(deque)
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.AbstractServer | None = None
        self._ready = threading.Event()
        self._writers: set[asyncio.StreamWriter] = set()

    # -- control ------------------------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def script(self, key: str, behaviours: list[str]) -> None:
        with self._lock:
            self._scripts[key].extend(behaviours)

    def clear_scripts(self) -> None:
        with self._lock:
            self._scripts.clear()

    def total(self) -> int:
        with self._lock:
            return sum(self.counts.values())

    def start(self) -> FakeOpenAI:
        self._thread = threading.Thread(target=self._run, name="fake-openai", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("fake OpenAI server did not start")
        return self

    def stop(self) -> None:
        if self._loop is None:
            return
        fut = asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop)
        with contextlib.suppress(TimeoutError, RuntimeError, asyncio.CancelledError):
            fut.result(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(5)
        self._loop = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- server -------------------------------------------------------------------------------------------------
    def _run(self) -> None:
        self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._handle, self.host, self.port, backlog=1024))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()
        self._loop.close()

    async def _shutdown(self) -> None:
        if self._server is not None:
            self._server.close()
        for w in list(self._writers):
            w.transport.abort()
        for t in asyncio.all_tasks():
            if t is not asyncio.current_task():
                t.cancel()

    def key_of(self, body: dict) -> str:
        text = "\n".join(str(m.get("content", "")) for m in body.get("messages", []) if isinstance(m, dict))
        found = KEY_RE.findall(text)
        return found[-1] if found else hashlib.sha256(text.encode()).hexdigest()[:12]

    def _next_behaviour(self, key: str) -> str:
        with self._lock:
            self.counts[key] += 1
            q = self._scripts.get(key)
            return q.popleft() if q else self.default

    def _completion(self, body: dict, key: str, finish: str = "stop") -> bytes:
        text = self.responder(body, key) if self.responder else render_answer_text(self.answers.get(key, "起诉"))
        if finish == "length":
            text = text[:20]
        message: dict = {"role": "assistant", "content": text}
        if self.reasoning:
            message["reasoning_content"] = f"思考过程 {key}"
        prompt_chars = sum(len(str(m.get("content", ""))) for m in body.get("messages", []))
        usage = {"prompt_tokens": prompt_chars, "completion_tokens": len(text) + 7, "total_tokens": 0,
                 "completion_tokens_details": {"reasoning_tokens": 7}, "cost": 0.0001}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        resp = {"id": f"chatcmpl-{key}", "object": "chat.completion", "model": body.get("model"),
                "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage}
        return json.dumps(resp, ensure_ascii=False).encode("utf-8")

    @staticmethod
    def _response(status: int, payload: bytes, extra: dict[str, str] | None = None) -> bytes:
        head = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}", "Content-Type: application/json",
                f"Content-Length: {len(payload)}"]
        head += [f"{k}: {v}" for k, v in (extra or {}).items()]
        return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + payload

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                lines = head.decode("latin-1").split("\r\n")
                headers = {}
                for line in lines[1:]:
                    if ":" in line:
                        k, v = line.split(":", 1)
                        headers[k.strip().lower()] = v.strip()
                length = int(headers.get("content-length", "0"))
                raw = await reader.readexactly(length) if length else b""
                try:
                    body = json.loads(raw) if raw else {}
                except json.JSONDecodeError:
                    writer.write(self._response(400, b'{"error": {"message": "bad json"}}'))
                    continue
                key = self.key_of(body)
                if self.record_bodies:
                    with self._lock:
                        self.bodies.append(body)
                        self.headers.append(headers)
                behaviour = self._next_behaviour(key)
                if self.latency:
                    await asyncio.sleep(self.latency)
                name, _, arg = behaviour.partition(":")
                if name == "ok":
                    writer.write(self._response(200, self._completion(body, key)))
                elif name == "length":
                    writer.write(self._response(200, self._completion(body, key, finish="length")))
                elif name == "429":
                    writer.write(self._response(429, b'{"error": {"message": "rate limited"}}',
                                                {"Retry-After": arg or "1"}))
                elif name == "500":
                    writer.write(self._response(500, b'{"error": {"message": "internal"}}'))
                elif name == "400":
                    writer.write(self._response(400, b'{"error": {"message": "bad request"}}'))
                elif name == "echo401":   # a careless server that echoes the request headers
                    writer.write(self._response(401, json.dumps({"error": headers}).encode()))
                elif name == "malformed":
                    writer.write(self._response(200, b'{"choices": [{"message": '))
                elif name == "hang":
                    await asyncio.sleep(self.hang_s)
                    writer.transport.abort()
                    return
                elif name == "reset":
                    writer.transport.abort()
                    return
                else:
                    raise ValueError(f"unknown fake behaviour {behaviour!r}")
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            return
        finally:
            self._writers.discard(writer)
            if not writer.transport.is_closing():
                writer.close()


@pytest.fixture
def fake_openai():
    """A started FakeOpenAI on 127.0.0.1 (``.url`` is the base URL); stopped after the test."""
    server = FakeOpenAI().start()
    try:
        yield server
    finally:
        server.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--latency", type=float, default=0.0)
    args = ap.parse_args()
    server = FakeOpenAI(latency=args.latency, record_bodies=False, port=args.port).start()
    print(server.url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()

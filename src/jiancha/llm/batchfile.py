"""Batch-API files: requests as OpenAI Batch / vLLM ``run_batch`` JSONL, and their result files read back.

A request line is ``{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body"}`` where ``body`` is
exactly the body the live client sends (``jiancha.llm.presets.render_request_body``), so a batch run and a live
run of the same settings ask the same question. ``custom_id`` encodes the request's store key
``(item id, run id)`` as ``<percent-encoded item id>:<run id>`` (ASCII, unambiguous: the run id follows the last
colon).

A result line (OpenAI's output and error files, vLLM's output file) is
``{"custom_id", "response": {"status_code", "body"} | null, "error": {"code", "message"} | null}``; a 200 response
becomes an ok ``ChatResult`` (through the live client's ``parse_completion``), anything else a failed one whose
``error`` says why. Batch results carry no latency.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

from jiancha.errors import DataError
from jiancha.llm.config import BackendSpec, GenerationConfig
from jiancha.llm.presets import render_request_body
from jiancha.llm.types import ChatRequest, ChatResult

BATCH_URL = "/v1/chat/completions"
BATCH_METHOD = "POST"


def custom_id(key: tuple[str, int]) -> str:
    """The ``custom_id`` of a store key.

    >>> custom_id(("某检刑不诉[2016]370号", 2))
    '%E6%9F%90%E6%A3%80%E5%88%91%E4%B8%8D%E8%AF%89%5B2016%5D370%E5%8F%B7:2'
    """
    return f"{quote(str(key[0]), safe='')}:{int(key[1])}"


def parse_custom_id(value: str) -> tuple[str, int]:
    """The store key of a ``custom_id`` (inverse of ``custom_id``); ValueError when it is not one."""
    item, sep, run = value.rpartition(":")
    if not sep or not run.isdigit():
        raise ValueError(f"custom_id {value!r} is not '<item id>:<run id>'")
    return unquote(item), int(run)


def render_batch_line(spec: BackendSpec, gen: GenerationConfig, request: ChatRequest) -> dict[str, Any]:
    """One request line: the live request body under the request's ``custom_id``."""
    return {"custom_id": custom_id(request.key), "method": BATCH_METHOD, "url": BATCH_URL,
            "body": render_request_body(spec, request.messages, gen, request.seed)}


def write_batch_file(path: str | os.PathLike, spec: BackendSpec, gen: GenerationConfig,
                     requests: Iterable[ChatRequest]) -> int:
    """Write the request lines (atomically: a complete file or none); returns the number of requests."""
    from jiancha._util.jsonl import write_jsonl

    return write_jsonl(path, [render_batch_line(spec, gen, r) for r in requests])


def _error_text(error: Any) -> str:
    if isinstance(error, dict):
        code, message = error.get("code"), error.get("message")
        return ": ".join(str(x) for x in (code, message) if x) or str(error)
    return str(error)


def result_of_line(obj: dict[str, Any]) -> ChatResult:
    """The ``ChatResult`` of one result line (never raises for a failed request; see the module doc)."""
    from jiancha.llm.client import parse_completion

    response = obj.get("response")
    if obj.get("error"):
        return ChatResult(ok=False, error=f"batch error: {_error_text(obj['error'])}")
    if not isinstance(response, dict):
        return ChatResult(ok=False, error="batch result has neither a response nor an error")
    status, body = response.get("status_code"), response.get("body")
    if status != 200:
        detail = _error_text(body.get("error")) if isinstance(body, dict) and body.get("error") else str(body)[:300]
        return ChatResult(ok=False, error=f"batch response HTTP {status}: {detail}")
    try:
        return ChatResult(ok=True, **parse_completion(body))
    except (ValueError, TypeError) as exc:
        return ChatResult(ok=False, error=f"malformed batch response body: {exc}")


@dataclass
class BatchResults:
    """What a set of result files holds: results by key (an ok result wins over a failed one for the same key,
    else the later line), and lines that could not be attributed."""

    results: dict[tuple[str, int], ChatResult] = field(default_factory=dict)
    bad_ids: list[str] = field(default_factory=list)        # custom_ids that are not '<item>:<run>'
    duplicates: int = 0                                     # lines for a key already seen

    @property
    def n_ok(self) -> int:
        return sum(1 for r in self.results.values() if r.ok)

    @property
    def n_failed(self) -> int:
        return sum(1 for r in self.results.values() if not r.ok)


def iter_result_lines(path: str | os.PathLike) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line, object)`` of a result file; a line without ``custom_id`` raises DataError naming it."""
    from jiancha._util.jsonl import iter_jsonl

    for lineno, obj in iter_jsonl(path):
        if not isinstance(obj.get("custom_id"), str):
            raise DataError("not a batch result line (no string 'custom_id'); pass the output or error file of an "
                            "OpenAI batch or of vLLM's run_batch", path=str(path), line=lineno, field="custom_id")
        yield lineno, obj


def read_batch_results(paths: Iterable[str | os.PathLike]) -> BatchResults:
    """Read result files (output and error files, in any order) into ``BatchResults``."""
    out = BatchResults()
    for path in paths:
        for _, obj in iter_result_lines(path):
            try:
                key = parse_custom_id(obj["custom_id"])
            except ValueError:
                out.bad_ids.append(obj["custom_id"])
                continue
            res = result_of_line(obj)
            old = out.results.get(key)
            if old is not None:
                out.duplicates += 1
                if old.ok and not res.ok:
                    continue
            out.results[key] = res
    return out

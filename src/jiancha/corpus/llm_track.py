"""Stage 2 (LLM track): an LLM extracts the same records from the same document body, independently of the rules.

The model sees only the document text and the schema; it answers a JSON object ``{"records": [...]}`` with
one record per suspect when the suspects' decisions differ. Any chat backend works: ``complete`` is an async
callable ``messages -> jiancha.llm.ChatResult`` (``make_llm_complete`` builds one on ``jiancha.llm``'s
client, the same backends as the PDP runner; tests inject a fake).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from jiancha.corpus.ingest import RawDocument
from jiancha.datasets.records import PDPRecord
from jiancha.errors import ParseError
from jiancha.law.articles import canonical_sort, normalize_article_string
from jiancha.law.labels import LEVEL2_LABELS, is_valid_label

Complete = Callable[[list[dict[str, str]]], Awaitable[Any]]

EXTRACTION_SYSTEM_PROMPT = (
    "你是检察文书结构化抽取助手。阅读一份起诉书或不起诉决定书，按给定字段原文抽取，不改写、不概括。\n"
    "只输出一个JSON对象：{\"records\": [记录, ...]}。每条记录的字段：\n"
    "id：文书案号；date：落款日期，YYYY-MM-DD；province：检察院所在省级行政区全称；\n"
    "person_info：犯罪嫌疑人（被告人、被不起诉人）身份、强制措施与前科段落，不含辩护人；\n"
    "procedure：案件办理程序（侦查终结、移送审查起诉、退回补充侦查、延长期限、权利告知）；\n"
    "fact：检察院审查认定的事实与证据列表，去掉“经依法审查查明”等引语，不含公安机关认定的版本和本院认为部分；\n"
    "raw_reasoning_and_decision：“本院认为”起的说理与决定原文；\n"
    "relevant_articles：说理与决定引用的全部法条，格式 cl:第…条（刑法）、cpl:第…条第…款（刑事诉讼法）、"
    "cpr:第…条（人民检察院刑事诉讼规则），中文数字；\n"
    f"decision：{'、'.join(LEVEL2_LABELS)} 之一，依据决定所引刑事诉讼法条文确定。\n"
    "各犯罪嫌疑人决定不同时，每人一条记录，id 为“案号-序号”；否则一条记录。"
)
_FENCE_RE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def build_messages(doc: RawDocument) -> list[dict[str, str]]:
    return [{"role": "system", "content": EXTRACTION_SYSTEM_PROMPT},
            {"role": "user", "content": "\n".join(doc.lines)}]


def parse_llm_answer(text: str, *, source_url: str = "") -> list[PDPRecord]:
    """Records from the model's JSON answer; ParseError says what is wrong."""
    m = _FENCE_RE.search(text)
    body = m.group(1) if m else text[text.find("{"): text.rfind("}") + 1]
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise ParseError(f"LLM answer is not JSON ({exc.msg}); expected {{\"records\": [...]}}") from None
    rows = data.get("records") if isinstance(data, dict) else None
    if not isinstance(rows, list) or not rows:
        raise ParseError("LLM answer has no non-empty 'records' list")
    out = []
    for k, row in enumerate(rows):
        if not isinstance(row, dict):
            raise ParseError(f"LLM record {k} is not an object")
        decision = str(row.get("decision", "")).strip()
        if not is_valid_label(decision):
            raise ParseError(f"LLM record {k} has decision {decision!r}; expected one of {', '.join(LEVEL2_LABELS)}")
        arts = [normalize_article_string(str(a)) for a in row.get("relevant_articles") or []]
        out.append(PDPRecord(
            id=str(row.get("id", "")).strip(), person_info=str(row.get("person_info", "")),
            procedure=str(row.get("procedure", "")), fact=str(row.get("fact", "")), decision=decision,
            relevant_articles=tuple(canonical_sort([a for a in arts if a])), date=row.get("date") or None,
            province=row.get("province") or None,
            raw_reasoning_and_decision=str(row.get("raw_reasoning_and_decision", "")), source_url=source_url))
    return out


async def extract_with_llm_async(docs: list[RawDocument], complete: Complete, *, concurrency: int = 4,
                                 advance: Callable[[], None] | None = None,
                                 ) -> tuple[dict[str, PDPRecord], dict[str, str]]:
    """(records by id, errors by document path). A failed request or unparsable answer is an error, not a crash."""
    records: dict[str, PDPRecord] = {}
    errors: dict[str, str] = {}
    sem = asyncio.Semaphore(max(1, concurrency))

    async def one(doc: RawDocument) -> None:
        async with sem:
            result = await complete(build_messages(doc))
        if advance:
            advance()
        if not getattr(result, "ok", False):
            errors[doc.path] = f"request failed: {getattr(result, 'error', 'unknown error')}"
            return
        try:
            for rec in parse_llm_answer(result.text or "", source_url=doc.source_url):
                records[rec.id] = rec
        except ParseError as exc:
            errors[doc.path] = str(exc)

    await asyncio.gather(*(one(d) for d in docs))
    return records, errors


def extract_with_llm(docs: list[RawDocument], complete: Complete, **kw: Any,
                     ) -> tuple[dict[str, PDPRecord], dict[str, str]]:
    return asyncio.run(extract_with_llm_async(docs, complete, **kw))


def make_llm_complete(model: str, base_urls: tuple[str, ...] = (), api_key_env: str | None = None,
                      *, temperature: float = 0.0, max_tokens: int | None = 8192) -> tuple[Complete, Any]:
    """A ``complete`` callable on ``jiancha.llm.client.ChatClient`` and the client (use it as an async context)."""
    from jiancha.llm.client import ChatClient
    from jiancha.llm.config import GenerationConfig
    from jiancha.llm.presets import resolve_backend

    spec = resolve_backend(model, base_urls, api_key_env)
    client = ChatClient(spec, GenerationConfig(max_tokens=max_tokens, temperature=temperature))

    async def complete(messages: list[dict[str, str]]) -> Any:
        return await client.complete(messages)

    return complete, client


def run_llm_track(docs: list[RawDocument], model: str, base_urls: tuple[str, ...] = (),
                  api_key_env: str | None = None, *, concurrency: int = 4,
                  advance: Callable[[], None] | None = None) -> tuple[dict[str, PDPRecord], dict[str, str]]:
    """The LLM track against a real backend (``openrouter:model``, ``vllm:model`` … as in ``jiancha pdp``)."""
    complete, client = make_llm_complete(model, base_urls, api_key_env)

    async def go() -> tuple[dict[str, PDPRecord], dict[str, str]]:
        async with client:
            return await extract_with_llm_async(docs, complete, concurrency=concurrency, advance=advance)

    return asyncio.run(go())

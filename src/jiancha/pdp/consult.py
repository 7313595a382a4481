"""One case in, a prosecutorial recommendation out: decision, cited articles (with their text when a statutes
directory is given), an analysis, and similar precedents.

The model is any ``jiancha pdp eval`` model: an offline baseline (``baseline:rules``, ``baseline:tfidf-lr``
trained on the precedent collection) or an OpenAI-compatible endpoint. Model answers go through the same parser
as evaluation.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from jiancha.datasets.records import PDPRecord
from jiancha.errors import ConfigError
from jiancha.law.articles import parse_canonical
from jiancha.law.statutes import Statutes
from jiancha.llm.config import ClientConfig, GenerationConfig
from jiancha.pdp import baselines
from jiancha.pdp import format as fmt
from jiancha.pdp.answers import render_answer
from jiancha.pdp.parsing import parse_answer
from jiancha.pdp.prompts import build_messages
from jiancha.retrieval.precedents import Precedent, PrecedentIndex

DEFAULT_MODEL = "baseline:rules"
#: How one interactive request is sent: a person is waiting, so two attempts with short backoff (an evaluation run
#: retries six times over minutes), and up to five minutes for a reasoning model to answer.
INTERACTIVE_CLIENT = ClientConfig(concurrency=1, timeout_s=300.0, max_attempts=2, backoff_base_s=0.5,
                                  backoff_max_s=2.0, retry_after_max_s=5.0)


@dataclass(frozen=True)
class Consultation:
    model: str
    decision: str | None
    relevant_articles: tuple[str, ...]
    analysis: str
    valid: bool
    reason: str | None
    raw_output: str
    article_texts: dict[str, str] = field(default_factory=dict)
    precedents: tuple[Precedent, ...] = ()


def analysis_section(answer: str) -> str:
    """The text of 【审查分析】 (up to 【最终结论】), or the whole answer when the section is missing."""
    start = answer.find(fmt.SECTION_ANALYSIS)
    if start < 0:
        return answer.strip()
    body = answer[start + len(fmt.SECTION_ANALYSIS):]
    end = body.find(fmt.SECTION_CONCLUSION)
    return (body if end < 0 else body[:end]).strip()


def _baseline_answer(model: str, case: PDPRecord, train: list[PDPRecord] | None) -> str:
    predict = baselines.get_baseline(model)
    if model[len(baselines.PREFIX):] in baselines.TRAINABLE:
        if not train:
            raise ConfigError(f"{model} learns from data: give a precedent collection to train it on")
        out = predict([case], train=train)
    else:
        out = predict([case])
    p = out.predictions[0]
    return render_answer(p.decision, list(p.articles), p.analysis)


def _run_coroutine(make):
    """Run the coroutine ``make()`` to completion from synchronous code, also where this thread already runs an
    event loop (a notebook, a browser-automation session): then it runs on a helper thread of its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()


def _llm_answer(model: str, case: PDPRecord, *, base_urls: tuple[str, ...], api_key_env: str | None,
                generation: GenerationConfig, prompt: str, client: ClientConfig) -> tuple[str, str | None]:
    from jiancha.errors import BackendError
    from jiancha.llm.client import ChatClient
    from jiancha.llm.presets import resolve_backend

    backend = resolve_backend(model, base_urls, api_key_env)

    async def go():
        async with ChatClient(backend, generation, client) as chat:
            return await chat.complete(build_messages(case, prompt))

    result = _run_coroutine(go)
    if not result.ok:
        raise BackendError(f"request to {model} failed: {result.error}")
    return result.text or "", result.finish_reason


def consult(case: PDPRecord, *, model: str = DEFAULT_MODEL, precedents: list[PDPRecord] | None = None,
            k: int = 5, statutes: Statutes | None = None, base_urls: tuple[str, ...] = (),
            api_key_env: str | None = None, generation: GenerationConfig | None = None,
            prompt: str = "baseline", index: PrecedentIndex | None = None,
            client: ClientConfig = INTERACTIVE_CLIENT) -> Consultation:
    """Recommend a decision for ``case`` and find up to ``k`` similar decided cases in ``precedents`` (none for 0).

    Raises ConfigError for empty facts (there is nothing to base a decision on) and BackendError when the model
    endpoint fails after ``client.max_attempts`` attempts."""
    if not case.fact.strip():
        raise ConfigError("the case has no facts (empty 'fact'); the decision is predicted from them")
    if k < 0:
        raise ConfigError(f"k must be ≥ 0 (0 lists no precedents), got {k}")
    finish_reason = None
    if baselines.is_baseline(model):
        raw = _baseline_answer(model, case, precedents)
    else:
        raw, finish_reason = _llm_answer(model, case, base_urls=base_urls, api_key_env=api_key_env,
                                         generation=generation or GenerationConfig(), prompt=prompt,
                                         client=client)
    parsed = parse_answer(raw, finish_reason=finish_reason)
    texts: dict[str, str] = {}
    if statutes is not None:
        for a in parsed.relevant_articles:
            text = statutes.article_text(parse_canonical(a))
            if text:
                texts[a] = text
    found: tuple[Precedent, ...] = ()
    if index is None and precedents:
        index = PrecedentIndex(precedents)
    if index is not None:
        try:
            found = tuple(index.search(case, k, exclude_id=case.id or None))
        except ConfigError:   # facts sharing no word with the precedents: the recommendation stands without them
            found = ()
    return Consultation(model=model, decision=parsed.decision, relevant_articles=parsed.relevant_articles,
                        analysis=analysis_section(raw), valid=parsed.valid, reason=parsed.reason, raw_output=raw,
                        article_texts=texts, precedents=found)

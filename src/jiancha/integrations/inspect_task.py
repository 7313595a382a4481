"""PDP as an inspect_ai task: ``inspect eval jiancha/pdp_bench --model <any inspect model>``.

Samples are built from any source ``jiancha.datasets.pdp.load_pdp`` reads, with jiancha's own prompt messages
(``jiancha.pdp.prompts.build_messages``; every variant, precedents included); the scorer parses each answer with
``jiancha.pdp.parsing.parse_answer`` and the metrics are computed by ``jiancha.pdp.scoring.score_items`` over all
(case, epoch) answers, pooled as ``jiancha pdp score`` pools repeats, so an inspect log and a run directory of the
same answers report the same figures. The metrics read the unreduced scores (one per sample and epoch), so
``--epochs K`` pools K repeats exactly like ``jiancha pdp eval --repeats K`` (epoch e is run id e - 1).

Task arguments (``-T name=value``): ``data`` (default ``sample``), ``split`` (``test``), ``prompt``
(``baseline``), ``one_shot_classes`` (comma-separated codes), ``template``, ``precedents_from``,
``precedents_split`` (default: ``train``, or the pool's only split), ``precedents_k``, ``precedents_balanced``, ``precedents_max_chars``,
``compat`` (``default``), ``limit``.
"""

from __future__ import annotations

from typing import Any

from jiancha._util.lazy import require

_EXTRA = "integrations"
require("inspect_ai", _EXTRA)

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import (
    SampleScore,
    Score,
    Target,
    metric,
    scorer,
)
from inspect_ai.solver import TaskState, generate

#: The figures reported as inspect metrics (names of ``jiancha pdp score``'s pooled block).
METRICS: tuple[str, ...] = ("decision_level2_macro_f1", "decision_level1_macro_f1", "decision_level2_accuracy",
                            "articles_f1", "invalid_rate")
#: inspect's stop reason for an answer cut at the token limit; jiancha's parser calls it ``length``.
_INSPECT_TRUNCATED = "max_tokens"
_ROLE = {"system": ChatMessageSystem, "user": ChatMessageUser, "assistant": ChatMessageAssistant}


def to_inspect_messages(messages: list[dict[str, str]]) -> list[Any]:
    return [_ROLE[m["role"]](content=m["content"]) for m in messages]


def build_samples(data: str = "sample", split: str = "test", *, prompt: str = "baseline",
                  one_shot_classes: tuple[str, ...] | None = None, template: str | None = None,
                  precedents: Any = None, limit: int | None = None) -> list[Sample]:
    """inspect Samples of a PDP split: id = jiancha's unique case id, input = jiancha's messages, target = the
    gold decision, metadata = the gold fields ``jiancha pdp score`` reads. ``precedents``: a PrecedentConfig."""
    from jiancha.datasets.pdp import load_pdp
    from jiancha.evaluation.runner import unique_ids
    from jiancha.law.charges import find_charges
    from jiancha.pdp.prompts import build_messages

    records = load_pdp(data, split)
    ids = unique_ids([r.id for r in records])
    selector = None
    if precedents is not None:
        from jiancha.pdp.precedent_prompts import load_selector

        selector = load_selector(precedents, records)
    pairs = list(zip(ids, records))[:limit] if limit else list(zip(ids, records))
    samples = []
    for cid, r in pairs:
        if selector is not None:
            messages = selector.messages(r)
            shown = [p.id for p in selector.shown(r)]
        else:
            messages = build_messages(r, prompt, one_shot_classes=one_shot_classes, template_path=template)
            shown = None
        meta = {"case_id": cid, "gold_articles": list(r.relevant_articles), "date": r.date,
                "province": r.province, "charges": list(find_charges(r.fact))}
        if shown is not None:
            meta["precedents"] = shown
        samples.append(Sample(id=cid, input=to_inspect_messages(messages), target=r.decision, metadata=meta))
    return samples


def _answer_meta(state: TaskState, target: Target, compat: str) -> dict[str, Any]:
    from jiancha.pdp.parsing import parse_answer

    finish = "length" if state.output.stop_reason == _INSPECT_TRUNCATED else "stop"
    raw = state.output.completion
    failed = state.output.error is not None
    parsed = parse_answer(raw, compat=compat, finish_reason=finish)   # type: ignore[arg-type]
    meta = dict(state.metadata)
    return {**meta, "epoch": state.epoch, "raw_output": raw, "finish_reason": finish, "failed": bool(failed),
            "gold_decision": target.text, "parsed": parsed.to_dict()}


def _items(scores: list[SampleScore]) -> list[Any]:
    """jiancha ScoreItems of every (sample, epoch) answer kept in the scores' metadata."""
    from jiancha.pdp.rundir import ScoreItem

    items = []
    for s in scores:
        m = s.score.metadata or {}
        items.append(ScoreItem(
            case_id=str(m["case_id"]), run_id=str(int(m["epoch"]) - 1), raw_output=m["raw_output"],
            gold_decision=m["gold_decision"], gold_articles=tuple(m.get("gold_articles") or ()),
            finish_reason=m.get("finish_reason"), failed=bool(m.get("failed")), date=m.get("date"),
            province=m.get("province"), charges=tuple(m.get("charges") or ())))
    return items


_CACHE: dict[tuple, dict[str, Any]] = {}


def pooled_block(scores: list[SampleScore], compat: str) -> dict[str, Any]:
    """``jiancha pdp score``'s pooled block of the answers in ``scores`` (no bootstrap); cached per score list."""
    from jiancha.pdp.scoring import score_items

    items = _items(scores)
    key = (compat, tuple((it.case_id, it.run_id, it.raw_output) for it in items))
    if key not in _CACHE:
        _CACHE.clear()
        _CACHE[key] = score_items(items, compat=compat, n_boot=0).result["pooled"]
    return _CACHE[key]


def _pdp_metric(name: str, compat: str):
    @metric(name=name, scores="unreduced")
    def make():
        def compute(scores: list[SampleScore]) -> float:
            return float(pooled_block(scores, compat)[name])

        return compute

    return make()


def pdp_scorer(compat: str = "default"):
    """A scorer: 1 when the parsed decision equals the gold decision, else 0; the answer is the parsed decision;
    the metadata holds the raw answer and the gold fields for the metrics."""
    from jiancha.pdp.parsing import check_compat

    check_compat(compat)

    @scorer(metrics=[_pdp_metric(n, compat) for n in METRICS], name="pdp")
    def pdp():
        async def score(state: TaskState, target: Target) -> Score:
            meta = _answer_meta(state, target, compat)
            decision = meta["parsed"]["decision"]
            return Score(value=1.0 if decision is not None and decision == target.text else 0.0,
                         answer=decision, explanation=meta["parsed"]["reason"], metadata=meta)

        return score

    return pdp()


def _classes(value: str | list[str] | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    parts = value.split(",") if isinstance(value, str) else list(value)
    return tuple(p.strip() for p in parts if p.strip()) or None


@task
def pdp_bench(data: str = "sample", split: str = "test", prompt: str = "baseline",
              one_shot_classes: str | None = None, template: str | None = None,
              precedents_from: str | None = None, precedents_split: str | None = None, precedents_k: int = 4,
              precedents_balanced: bool = False, precedents_max_chars: int | None = 600,
              compat: str = "default", limit: int | None = None) -> Task:
    """Prosecution decision prediction (PDP-Bench) with jiancha's prompts, parser and metrics."""
    from jiancha.pdp.prompts import normalise_variant

    precedents = None
    if precedents_from is not None or normalise_variant(prompt) == "precedents":
        from jiancha.errors import ConfigError
        from jiancha.pdp.precedent_prompts import PrecedentConfig

        if precedents_from is None:
            raise ConfigError("prompt 'precedents' needs a pool: pass -T precedents_from=POOL")
        precedents = PrecedentConfig(source=precedents_from, split=precedents_split, k=int(precedents_k),
                                     balanced=bool(precedents_balanced),
                                     max_chars=int(precedents_max_chars) if precedents_max_chars else None)
    samples = build_samples(data, split, prompt=prompt, one_shot_classes=_classes(one_shot_classes),
                            template=template, precedents=precedents, limit=int(limit) if limit else None)
    return Task(dataset=MemoryDataset(samples, name=f"pdp:{data}:{split}"), solver=generate(),
                scorer=pdp_scorer(compat), metadata={"jiancha_prompt": prompt, "compat": compat})

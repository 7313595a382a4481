"""Training data for the recipes: load the split, build chat prompts (and SFT targets), and check token lengths.

Rows longer than the limits are never cut silently: :func:`check_lengths` lists them (count and ids) and the recipe
either stops (``on_long_prompt="fail"``) or trains without them (``"drop"``), recording the ids in ``run.json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jiancha.datasets.records import PDPRecord
from jiancha.errors import DataError

SHOWN_IDS = 10


@dataclass(frozen=True)
class TrainingData:
    """The rows a recipe trains on, where they came from, and what was left out."""

    records: tuple[PDPRecord, ...]
    source: str
    split: str
    fingerprint: str
    dropped_too_long: tuple[str, ...] = ()

    def info(self) -> dict[str, Any]:
        from collections import Counter

        from jiancha.law.labels import LEVEL2_LABELS

        counts = Counter(r.decision for r in self.records)
        return {"source": self.source, "split": self.split, "rows": len(self.records),
                "class_counts": {lab: counts[lab] for lab in LEVEL2_LABELS}, "fingerprint": self.fingerprint,
                "dropped_too_long": list(self.dropped_too_long)}


def resolve_source(data: str, split: str) -> tuple[str, str]:
    """``(load_pdp source, split)`` for a splits folder (``<data>/<split>.jsonl``), a file or another source."""
    from jiancha.datasets.pdp import list_pdp_splits
    from jiancha.errors import ConfigError
    from jiancha.train.splits import canonical_split_name

    p = Path(data).expanduser()
    if p.is_dir():
        try:
            name = canonical_split_name(split)
        except ConfigError:
            name = split
        f = p / f"{name}.jsonl"
        if f.is_file():
            return str(f), "test"
        return str(p), split
    if p.is_file():
        return str(p), list_pdp_splits(str(p))[0]
    return data, split


def load_training_records(data: str, split: str, *, limit: int | None = None) -> TrainingData:
    from jiancha.datasets.pdp import compute_fingerprint, load_pdp

    source, load_split = resolve_source(data, split)
    records = load_pdp(source, load_split)
    if not records:
        raise DataError("the training split is empty", path=source)
    if limit is not None:
        records = records[:limit]
    return TrainingData(tuple(records), source, split, compute_fingerprint(records))


# --------------------------------------------------------------------------------------------------------------
# prompts, targets, lengths


def build_prompt(record: PDPRecord, variant: str) -> list[dict[str, str]]:
    from jiancha.pdp.prompts import build_messages

    return build_messages(record, variant)


def build_target(record: PDPRecord, think_prefix: str = "") -> str:
    """The SFT target: the gold answer in the required three-section format (gold reasoning as the analysis)."""
    from jiancha.pdp.answers import render_answer

    return think_prefix + render_answer(record.decision, list(record.relevant_articles),
                                        record.raw_reasoning_and_decision or record.decision)


def _n_tokens(tokenizer: Any, messages: list[dict[str, str]], *, add_generation_prompt: bool,
              template_kwargs: dict[str, Any] | None = None) -> int:
    enc = tokenizer.apply_chat_template(messages, tokenize=True, add_generation_prompt=add_generation_prompt,
                                        return_dict=True, **(template_kwargs or {}))
    return len(enc["input_ids"])


@dataclass(frozen=True)
class LengthReport:
    """Rows over a token limit: ``(id, tokens)`` pairs, and the longest length seen."""

    what: str
    limit: int
    too_long: tuple[tuple[str, int], ...] = ()
    longest: int = 0
    checked: int = 0

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(i for i, _ in self.too_long)

    def describe(self) -> str:
        shown = ", ".join(f"{i} ({n})" for i, n in self.too_long[:SHOWN_IDS])
        more = f" and {len(self.too_long) - SHOWN_IDS} more" if len(self.too_long) > SHOWN_IDS else ""
        return (f"{len(self.too_long)} of {self.checked} {self.what}s are longer than {self.limit} tokens "
                f"(longest {self.longest}): {shown}{more}")


def check_lengths(ids: Sequence[str], lengths: Sequence[int], limit: int, what: str) -> LengthReport:
    """Pure: which of ``lengths`` exceed ``limit``.

    >>> check_lengths(["a", "b", "c"], [10, 30, 20], 15, "prompt").too_long
    (('b', 30), ('c', 20))
    """
    over = tuple((i, n) for i, n in zip(ids, lengths, strict=True) if n > limit)
    return LengthReport(what, limit, over, max(lengths, default=0), len(lengths))


@dataclass
class PreparedRows:
    """Training rows ready for a trainer, with the length checks made and the ids of rows dropped as too long."""

    rows: list[dict[str, Any]]
    reports: list[LengthReport] = field(default_factory=list)
    dropped: tuple[str, ...] = ()

    def run_info(self, data: TrainingData, console: Any = None) -> dict[str, Any]:
        """What a run records about its data (``data.info()`` plus the rows dropped and used); the dropped rows
        are also printed to ``console`` (never cut silently)."""
        if self.dropped and console is not None:
            console.print(f"[yellow]dropped:[/] {'; '.join(r.describe() for r in self.reports if r.too_long)}")
        return {**data.info(), "dropped_too_long": list(self.dropped), "rows_used": len(self.rows)}


def _apply_policy(rows: list[dict[str, Any]], reports: list[LengthReport], policy: str,
                  source: str) -> PreparedRows:
    bad = {i for r in reports for i in r.ids}
    if bad and policy == "fail":
        msg = "; ".join(r.describe() for r in reports if r.too_long)
        raise DataError(f"{msg}. Nothing is cut silently: raise --max-prompt-length / --max-completion-length, or "
                        "pass --on-long-prompt drop to train without these rows", path=source)
    kept = [r for r in rows if r["id"] not in bad]
    if not kept:
        raise DataError("every training row is over the length limits; raise --max-prompt-length / "
                        "--max-completion-length", path=source)
    return PreparedRows(kept, reports, tuple(sorted(bad)))


def prepare_rl_rows(data: TrainingData, tokenizer: Any, *, variant: str, max_prompt_length: int,
                    on_long: str, template_kwargs: dict[str, Any] | None = None) -> PreparedRows:
    """Rows for GRPOTrainer: conversational ``prompt`` plus the gold columns the rewards read."""
    rows, lengths = [], []
    for r in data.records:
        prompt = build_prompt(r, variant)
        lengths.append(_n_tokens(tokenizer, prompt, add_generation_prompt=True, template_kwargs=template_kwargs))
        rows.append({"id": r.id, "prompt": prompt, "decision": r.decision,
                     "relevant_articles": list(r.relevant_articles), "date": r.date or ""})
    report = check_lengths([r["id"] for r in rows], lengths, max_prompt_length, "prompt")
    return _apply_policy(rows, [report], on_long, data.source)


def prepare_sft_rows(data: TrainingData, tokenizer: Any, *, variant: str, max_prompt_length: int,
                     max_completion_length: int, on_long: str, think_prefix: str = "",
                     template_kwargs: dict[str, Any] | None = None) -> PreparedRows:
    """Rows for SFTTrainer: conversational ``prompt`` / ``completion`` (the gold answer as the assistant turn)."""
    rows, p_len, c_len = [], [], []
    for r in data.records:
        prompt = build_prompt(r, variant)
        completion = [{"role": "assistant", "content": build_target(r, think_prefix)}]
        n_prompt = _n_tokens(tokenizer, prompt, add_generation_prompt=True, template_kwargs=template_kwargs)
        n_full = _n_tokens(tokenizer, prompt + completion, add_generation_prompt=False,
                           template_kwargs=template_kwargs)
        p_len.append(n_prompt)
        c_len.append(max(n_full - n_prompt, 0))
        row = {"id": r.id, "prompt": prompt, "completion": completion, "decision": r.decision}
        if template_kwargs:
            row["chat_template_kwargs"] = dict(template_kwargs)
        rows.append(row)
    ids = [r["id"] for r in rows]
    reports = [check_lengths(ids, p_len, max_prompt_length, "prompt"),
               check_lengths(ids, c_len, max_completion_length, "SFT target")]
    return _apply_policy(rows, reports, on_long, data.source)

"""Dual-track comparison: rule record vs LLM record, field by field, after normalising whitespace and punctuation.

Agreed records form the high-confidence pool; disagreed ones carry a readable diff per field for human review.
A review file (JSONL, read with ``read_reviews``) decides each disagreed record: ``{"id": ..., "choice": "rule" | "llm" | "drop"}`` or
``{"id": ..., "choice": "edit", "record": {PDP-Bench layout}}``.
"""

from __future__ import annotations

import difflib
import os
import unicodedata
from dataclasses import dataclass
from typing import Any

from jiancha._util.jsonl import iter_jsonl
from jiancha.datasets.records import PDPRecord
from jiancha.errors import DataError

#: Fields compared, in report order.
COMPARED_FIELDS: tuple[str, ...] = ("id", "date", "province", "person_info", "procedure", "fact",
                                    "raw_reasoning_and_decision", "relevant_articles", "decision")
REVIEW_CHOICES: tuple[str, ...] = ("rule", "llm", "edit", "drop")


def normalize_for_compare(text: str) -> str:
    """NFKC, then every whitespace, punctuation and symbol character removed.

    >>> normalize_for_compare("证据如下：\\n1. 书证；") == normalize_for_compare("证据如下:1．书证;")
    True
    """
    s = unicodedata.normalize("NFKC", text)
    return "".join(c for c in s if not unicodedata.category(c)[0] in "PZSC")


def _value(rec: PDPRecord, field: str) -> str:
    v = getattr(rec, field)
    if field == "relevant_articles":
        return "、".join(sorted(v))
    return "" if v is None else str(v)


def render_diff(a: str, b: str) -> str:
    """Inline character diff: ``[-removed-]{+added+}`` between the rule (a) and LLM (b) values."""
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    parts: list[str] = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            seg = a[i1:i2]
            parts.append(seg if len(seg) <= 30 else f"{seg[:12]}…{seg[-12:]}")
        if op in ("delete", "replace"):
            parts.append(f"[-{a[i1:i2]}-]")
        if op in ("insert", "replace"):
            parts.append(f"{{+{b[j1:j2]}+}}")
    return "".join(parts)


@dataclass(frozen=True)
class FieldDiff:
    field: str
    rule: str
    llm: str
    diff: str


@dataclass(frozen=True)
class Comparison:
    id: str
    agreed: bool
    diffs: tuple[FieldDiff, ...]
    missing: str | None = None   # "llm" when the LLM track produced no record with this id

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "agreed": self.agreed, "missing": self.missing,
                "diffs": [{"field": d.field, "rule": d.rule, "llm": d.llm, "diff": d.diff} for d in self.diffs]}


def compare_records(rule: PDPRecord, llm: PDPRecord | None) -> Comparison:
    """Compare two extractions of one record (``llm`` None: the LLM track has no such record)."""
    if llm is None:
        return Comparison(rule.id, False, (), missing="llm")
    diffs = []
    for f in COMPARED_FIELDS:
        a, b = _value(rule, f), _value(llm, f)
        if normalize_for_compare(a) != normalize_for_compare(b):
            diffs.append(FieldDiff(f, a, b, render_diff(a, b)))
    return Comparison(rule.id, not diffs, tuple(diffs))


def compare_all(rule_records: list[PDPRecord], llm_records: dict[str, PDPRecord]) -> list[Comparison]:
    return [compare_records(r, llm_records.get(r.id)) for r in rule_records]


@dataclass(frozen=True)
class Review:
    """One review decision, with where it was read (for error messages)."""

    id: str
    choice: str
    record: dict[str, Any] | None = None
    path: str | None = None
    line: int | None = None

    @classmethod
    def from_dict(cls, d: dict[str, Any], *, path: str | None = None, line: int | None = None) -> Review:
        return cls(str(d.get("id", "")), d.get("choice"), d.get("record"), path, line)  # type: ignore[arg-type]


def read_reviews(path: str | os.PathLike) -> list[Review]:
    """Review decisions from a JSONL file; DataError names the file, line and field of a bad one."""
    out: list[Review] = []
    for lineno, row in iter_jsonl(path):
        review = Review.from_dict(row, path=str(path), line=lineno)
        _check_review(review)
        out.append(review)
    return out


def _check_review(review: Review) -> None:
    where = {"path": review.path, "line": review.line}
    if not review.id:
        raise DataError("review without an 'id'; each line needs the id of a disagreed record", field="id", **where)
    if review.choice not in REVIEW_CHOICES:
        raise DataError(f"unknown review choice {review.choice!r} for record {review.id!r}; expected one of "
                        f"{', '.join(REVIEW_CHOICES)}", field="choice", **where)
    if review.choice == "edit" and not isinstance(review.record, dict):
        raise DataError(f"review 'edit' for {review.id!r} needs a 'record' object in the PDP-Bench layout",
                        field="record", **where)


def review_counts(reviews: list[Review] | list[dict[str, Any]], comparisons: list[Comparison]) -> dict[str, int]:
    """How many reviews decided a disagreement (applied) and how many name no disagreed record (unused)."""
    ids = {r.id if isinstance(r, Review) else str(r.get("id")) for r in reviews}
    disagreed = {c.id for c in comparisons if not c.agreed}
    return {"reviews_applied": len(ids & disagreed), "reviews_unused": len(ids - disagreed)}


def apply_reviews(rule_records: list[PDPRecord], llm_records: dict[str, PDPRecord],
                  comparisons: list[Comparison], reviews: list[Review] | list[dict[str, Any]]) -> list[PDPRecord]:
    """Agreed records, plus disagreed records resolved by a review; unreviewed disagreements are held back."""
    parsed = [r if isinstance(r, Review) else Review.from_dict(r) for r in reviews]
    by_id = {r.id: r for r in parsed}
    agreed = {c.id for c in comparisons if c.agreed}
    out: list[PDPRecord] = []
    for rec in rule_records:
        if rec.id in agreed:
            out.append(rec)
            continue
        review = by_id.get(rec.id)
        if review is None:
            continue
        _check_review(review)
        if review.choice == "rule":
            out.append(rec)
        elif review.choice == "llm":
            if rec.id not in llm_records:
                raise DataError(f"review chooses the LLM record for {rec.id!r}, but the LLM track has none; "
                                "choose 'rule', 'edit' or 'drop'", path=review.path, line=review.line, field="choice")
            out.append(llm_records[rec.id])
        elif review.choice == "edit":
            out.append(PDPRecord.from_dict(review.record or {}))
    return out

"""What every offline baseline returns, and the article helpers they share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jiancha.datasets.records import PDPRecord
from jiancha.law.articles import ArticleRef
from jiancha.law.labels import LEVEL2_LABELS, Decision
from jiancha.pdp.baselines import signals as S


@dataclass(frozen=True)
class BaselinePrediction:
    decision: str                   # one of the four label strings
    articles: tuple[str, ...]       # canonical strings
    analysis: str                   # why: the rule that fired, the class probabilities...


@dataclass(frozen=True)
class BaselineOutput:
    """An offline baseline's predictions, one per input record in order, and what it recorded about itself."""

    predictions: list[BaselinePrediction]
    info: dict[str, Any] = field(default_factory=dict)   # recorded in the manifest (training mode, folds...)


def case_text(r: PDPRecord) -> str:
    """The three model inputs, one per line (what every baseline reads)."""
    return f"{r.person_info}\n{r.procedure}\n{r.fact}"


def charge_articles(text: str) -> list[ArticleRef]:
    """Criminal Law articles of the charges named in ``text`` (``jiancha.law.charges``), first appearance order."""
    from jiancha.law.charges import charge_articles as articles_of
    from jiancha.law.charges import find_charges

    out: list[ArticleRef] = []
    for name in find_charges(text):
        for ref in articles_of(name):
            if ref not in out:
                out.append(ref)
    return out


def decision_articles(decision: str, text: str, extra: list[ArticleRef] | tuple[ArticleRef, ...] = ()) -> tuple[
        str, ...]:
    """Charge articles (cl) first, then ``extra`` and the CPL article grounding ``decision``, canonical order."""
    refs: list[ArticleRef] = charge_articles(text)
    for ref in (*extra, *S.DECISION_ARTICLES[Decision(decision)]):
        if ref not in refs:
            refs.append(ref)
    order = {law: i for i, law in enumerate(("cl", "cpl", "cpr"))}
    refs.sort(key=lambda r: order[r.law.value])   # stable: first appearance within each law
    return tuple(r.canonical() for r in refs)


def majority_label(labels: list[str]) -> str:
    """Most frequent valid label; ties broken by table order (P, DNP, SNP, IENP)."""
    counts = {lab: 0 for lab in LEVEL2_LABELS}
    for lab in labels:
        if lab in counts:
            counts[lab] += 1
    return max(LEVEL2_LABELS, key=lambda lab: (counts[lab], -LEVEL2_LABELS.index(lab)))

"""Similar precedents for a case, on the search code of :mod:`jiancha.retrieval.search`.

For the one-case workbench: ``load_index(dir)`` (built by ``jiancha retrieval index``) then
``search(index, text, k)`` → :class:`~jiancha.retrieval.search.SearchHit` s; or :class:`PrecedentIndex` over
decided PDP records in memory, searched with a record.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from jiancha.datasets.records import PDPRecord
from jiancha.retrieval.search import CaseDoc, SearchHit, SearchIndex

__all__ = ["Precedent", "PrecedentIndex", "SearchHit", "SearchIndex", "load_index", "search"]


def load_index(path: str | os.PathLike) -> SearchIndex:
    """A case index folder written by ``jiancha retrieval index SRC --out DIR``."""
    return SearchIndex.load(path)


def search(index: SearchIndex, text: str, k: int = 10) -> list[SearchHit]:
    """The ``k`` most similar cases to the facts in ``text``, best first."""
    return index.search(text, k)


@dataclass(frozen=True)
class Precedent:
    id: str
    decision: str
    score: float
    shared_charges: tuple[str, ...]
    relevant_articles: tuple[str, ...]
    fact_excerpt: str
    passage: str = ""
    reason: str = ""


def _charge_text(r: PDPRecord) -> str:
    """Where a case names its charges: the procedure (移送审查起诉 for 涉嫌…罪) and the facts."""
    return f"{r.procedure}\n{r.fact}"


class PrecedentIndex:
    """Decided PDP records searched like any case index: BM25 over the facts, cases sharing a charge with the
    query first."""

    def __init__(self, records: list[PDPRecord]):
        from jiancha.law.charges import find_charges

        self.records = records
        self._by_id = {r.id: r for r in records}
        docs = [CaseDoc(r.id, r.fact, tuple(find_charges(_charge_text(r) + r.raw_reasoning_and_decision)),
                        r.decision, r.relevant_articles) for r in records]
        self.index = SearchIndex.build(docs)

    def search(self, case: PDPRecord, k: int = 5, *, exclude_id: str | None = None) -> list[Precedent]:
        from jiancha.law.charges import find_charges

        hits = self.index.search(case.fact, k, charges=tuple(find_charges(_charge_text(case))), exclude_id=exclude_id)
        return [Precedent(id=h.id, decision=h.decision, score=h.score, shared_charges=h.shared_charges,
                          relevant_articles=h.articles, fact_excerpt=self._by_id[h.id].fact[:160], passage=h.passage,
                          reason=h.reason) for h in hits]

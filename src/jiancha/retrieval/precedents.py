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
    charges: tuple[str, ...] = ()
    charges_guessed: bool = False   # the case's charges were guessed from the precedents: shared ones are 推定
    fact_score: float = 0.0   # BM25 of the case's facts against the precedent's alone (``score`` adds the charge tier)
    accused: tuple[str, ...] = ()   # where the court found no charge: those the prosecution brought


def _charge_text(r: PDPRecord) -> str:
    """Where a case names its charges: the procedure (移送审查起诉 for 涉嫌…罪) and the facts."""
    return f"{r.procedure}\n{r.fact}"


class PrecedentIndex:
    """Decided cases searched like any case index: BM25 over the facts, cases sharing a charge with the query
    first. Built from PDP records in memory (``PrecedentIndex(records)``), or over a case index folder written by
    ``jiancha retrieval index`` (:meth:`from_index`)."""

    def __init__(self, records: list[PDPRecord] | None = None, *, index: SearchIndex | None = None,
                 source: str = ""):
        from jiancha.retrieval.charge import find_case_charges

        if index is None:
            docs = [CaseDoc(r.id, r.fact, tuple(find_case_charges(_charge_text(r) + r.raw_reasoning_and_decision)),
                            r.decision, r.relevant_articles) for r in records or ()]
            index = SearchIndex.build(docs, charge_model=False)   # built at start-up: kept quick
        self.index = index
        self.source = source   # the index folder searched ('' for records in memory)
        self._facts = {d.id: d.fact for d in index.docs}

    @classmethod
    def from_index(cls, path: str | os.PathLike) -> PrecedentIndex:
        return cls(index=SearchIndex.load(path), source=str(path))

    def __len__(self) -> int:
        return len(self.index.docs)

    def search(self, case: PDPRecord, k: int = 5, *, exclude_id: str | None = None) -> list[Precedent]:
        """Cases like ``case``: its charges are those its procedure or facts attribute to the suspect (涉嫌…罪,
        指控…), else guessed from the closest cases."""
        from jiancha.retrieval.charge import find_case_charges, stated_charges

        named = stated_charges(_charge_text(case), find_case_charges)
        hits = self.index.search(case.fact, k, charges=named or None, exclude_id=exclude_id)
        # a judgment is shown by its court case number when its header prints one, else by its id (file name)
        return [Precedent(id=h.case_number or h.id, decision=h.decision, score=h.score, shared_charges=h.shared_charges,
                          relevant_articles=h.articles, fact_excerpt=self._facts[h.id][:160], passage=h.passage,
                          reason=h.reason, charges=h.charges, charges_guessed=h.guessed,
                          fact_score=h.fact_score, accused=h.accused) for h in hits]

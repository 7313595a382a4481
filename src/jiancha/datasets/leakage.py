"""Leakage between a training (or precedent) pool and an evaluation set: the same case id, or the same fact up to
spacing, punctuation and character width."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from jiancha.datasets.records import PDPRecord

_DROP_CATEGORIES = ("P", "S", "Z", "C")  # punctuation, symbols, separators, control characters


def normalise_fact(text: str) -> str:
    """NFKC, lower-case, without whitespace, punctuation or symbols: two facts that differ only there are equal.

    >>> normalise_fact("经审查，2021年3月 某某（男）盗窃。") == normalise_fact("经审查,2021年3月某某(男)盗窃")
    True
    """
    t = unicodedata.normalize("NFKC", text or "").lower()
    return "".join(ch for ch in t if unicodedata.category(ch)[0] not in _DROP_CATEGORIES)


def fact_hash(text: str) -> str:
    """Hash of the normalised fact text: near-duplicate facts (spacing, punctuation width) hash alike."""
    return hashlib.sha256(normalise_fact(text).encode("utf-8")).hexdigest()[:16]


def _id_key(case_id: str) -> str:
    # 〔2021〕 and [2021] both occur in case numbers
    return re.sub(r"\s+", "", case_id).replace("〔", "[").replace("〕", "]").replace("［", "[").replace("］", "]")


@dataclass(frozen=True)
class LeakageReport:
    """Training rows that also occur in an evaluation set, by id or by normalised fact hash."""

    id_overlap: tuple[str, ...] = ()
    fact_overlap: tuple[str, ...] = ()      # training ids whose normalised fact equals an evaluation fact
    checked_train: int = 0
    checked_eval: int = 0

    @property
    def leaked_ids(self) -> tuple[str, ...]:
        return tuple(sorted(set(self.id_overlap) | set(self.fact_overlap)))

    @property
    def clean(self) -> bool:
        return not self.id_overlap and not self.fact_overlap

    def to_dict(self) -> dict:
        return {"clean": self.clean, "checked_train": self.checked_train, "checked_eval": self.checked_eval,
                "id_overlap": list(self.id_overlap), "fact_overlap": list(self.fact_overlap)}


def check_leakage(train: Iterable[PDPRecord], evaluation: Iterable[PDPRecord]) -> LeakageReport:
    """Compare training rows with an evaluation set by case id and by ``fact_hash`` (near-duplicate facts)."""
    ev = list(evaluation)
    eval_ids = {_id_key(r.id) for r in ev}
    eval_facts = {fact_hash(r.fact) for r in ev if normalise_fact(r.fact)}
    tr = list(train)
    id_overlap = sorted({r.id for r in tr if _id_key(r.id) in eval_ids})
    fact_overlap = sorted({r.id for r in tr if normalise_fact(r.fact) and fact_hash(r.fact) in eval_facts})
    return LeakageReport(tuple(id_overlap), tuple(fact_overlap), len(tr), len(ev))

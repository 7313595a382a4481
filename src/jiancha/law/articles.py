"""Article citations: parse any citation form into ``ArticleRef`` and format the PDP-Bench canonical string.

Canonical form (PDP-Bench ``relevant_articles``): ``<law>:第<N>条[之<M>][第<K>款][第（<I>）项]`` with Chinese
numerals, e.g. ``cl:第一百三十三条之一``, ``cpl:第一百七十七条第二款``, ``cpl:第十六条第（一）项``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Law(str, Enum):
    """Laws cited in PDP-Bench, by their canonical prefix."""

    CRIMINAL_LAW = "cl"          # 中华人民共和国刑法
    CRIMINAL_PROCEDURE = "cpl"   # 中华人民共和国刑事诉讼法
    PROCURATORATE_RULES = "cpr"  # 人民检察院刑事诉讼规则


@dataclass(frozen=True, order=True)
class ArticleRef:
    """One cited provision. ``suffix`` is the N of 条之N (0 when absent); ``paragraph`` 款, ``item`` 项."""

    law: Law
    article: int
    suffix: int = 0
    paragraph: int | None = None
    item: int | None = None

    def canonical(self) -> str:
        """PDP-Bench canonical string, e.g. ``cl:第一百三十三条之一第一款第（二）项``."""
        raise NotImplementedError

    def article_level(self) -> "ArticleRef":
        """The same reference without paragraph and item (for article-level partial credit)."""
        return ArticleRef(self.law, self.article, self.suffix)


def parse_articles(text: str, *, default_law: Law | None = None) -> list[ArticleRef]:
    """All citations in ``text``, in order of appearance, deduplicated. Negated mentions are skipped."""
    raise NotImplementedError


def parse_canonical(s: str) -> ArticleRef:
    """Parse a canonical string (``cpl:第一百七十七条第二款``); raise ParseError on anything else."""
    raise NotImplementedError


def canonical_sort(refs: list[str]) -> list[str]:
    """PDP-Bench order: all cl, then cpl, then cpr, each by first appearance, deduplicated."""
    raise NotImplementedError

"""Criminal Procedure Law numbering (2012 vs 2018) and the decision meaning of its articles."""

from __future__ import annotations

import datetime as _dt

from jiancha.law.articles import ArticleRef

#: The 2018 amendment took effect on this date; documents signed earlier use 2012 numbers.
CPL_2018_EFFECTIVE = _dt.date(2018, 10, 26)


def to_2018(ref: ArticleRef) -> ArticleRef:
    """Map a 2012-numbered CPL reference to 2018 numbering (non-CPL refs unchanged)."""
    raise NotImplementedError


def detect_numbering(date: str | None, refs: list[ArticleRef]) -> str:
    """"2012" or "2018": which CPL numbering a document uses, from its date and cited articles."""
    raise NotImplementedError

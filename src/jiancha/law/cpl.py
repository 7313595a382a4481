"""Criminal Procedure Law numbering (2012 vs 2018) and the decision meaning of its articles.

Renumbering table
-----------------
The 2012 CPL has 290 articles, the 2018 CPL 308. The 2018 amendment (全国人民代表大会常务委员会关于修改
《中华人民共和国刑事诉讼法》的决定, 2018-10-26, in force the same day) inserted 18 articles and deleted none;
every other article kept its paragraphs and moved down by the number of insertions before it:

=========  ==========================================================
2018 art.  inserted provision
=========  ==========================================================
15         认罪认罚从宽 principle
36         值班律师 (duty lawyers)
170        cases transferred by the supervisory commissions (监察机关)
174        认罪认罚具结书 (plea agreement)
182        special withdrawal / non-prosecution approved by the SPP
201        sentencing recommendation in plea cases
222–226    速裁程序 (fast-track procedure, 5 articles)
291–297    缺席审判程序 (trial in absentia, 7 articles)
=========  ==========================================================

So 2012 art. 15 → 16, 171 → 175, 172 → 176, 173 → 177, 216 → 227, 280 → 298, 290 → 308.
The 2012 text was not available offline; the insertions are those listed in the amendment decision, and
``scripts/derive_cpl_table.py`` checks them against the official 2018 text (a statutes directory, see ``jiancha.law.statutes``) (each inserted
article holds its new subject; 308 articles in all) and, given a 2012 text, aligns the two with difflib.

Decision meaning (PDP-Bench)
----------------------------
2018: art. 16 / 177(1) statutory (SNP), 175(4) insufficient evidence (IENP), 177(2) discretionary (DNP),
176 prosecution (P). 2012: 15 / 173(1), 171(4), 173(2), 172.
"""

from __future__ import annotations

import bisect
import datetime as _dt
from typing import NamedTuple

from jiancha.errors import ParseError
from jiancha.law.articles import ArticleRef, Law
from jiancha.law.dates import parse_date
from jiancha.law.labels import Decision

#: The 2018 amendment took effect on this date; documents signed earlier use 2012 numbers.
CPL_2018_EFFECTIVE = _dt.date(2018, 10, 26)

CPL_2012_ARTICLES = 290
CPL_2018_ARTICLES = 308

#: 2018 article numbers inserted by the 2018 amendment (no 2012 counterpart).
INSERTED_2018: tuple[int, ...] = (15, 36, 170, 174, 182, 201, 222, 223, 224, 225, 226,
                                  291, 292, 293, 294, 295, 296, 297)


def _build_table() -> dict[int, int]:
    table: dict[int, int] = {}
    inserted = set(INSERTED_2018)
    new = 0
    for old in range(1, CPL_2012_ARTICLES + 1):
        new += 1
        while new in inserted:
            new += 1
        table[old] = new
    return table


#: Complete 2012 → 2018 article table (all 290 articles; identity for 1–14).
CPL_2012_TO_2018: dict[int, int] = _build_table()
#: Only the articles whose number changed.
CPL_MOVED_2012_TO_2018: dict[int, int] = {o: n for o, n in CPL_2012_TO_2018.items() if o != n}
CPL_2018_TO_2012: dict[int, int] = {n: o for o, n in CPL_2012_TO_2018.items()}

#: Numbering identifiers.
NUMBERING_2012 = "2012"
NUMBERING_2018 = "2018"
NUMBERINGS = (NUMBERING_2012, NUMBERING_2018)


def _is_cpl(ref: ArticleRef) -> bool:
    return Law(ref.law) is Law.CRIMINAL_PROCEDURE


def to_2018(ref: ArticleRef) -> ArticleRef:
    """Map a 2012-numbered CPL reference to 2018 numbering (non-CPL refs unchanged).

    Paragraphs and items are kept (no moved article changed its paragraph structure in a way that shifts the
    decision-relevant paragraphs). Raises ParseError for an article number the 2012 law does not have.
    """
    if not _is_cpl(ref):
        return ref
    if ref.article not in CPL_2012_TO_2018:
        raise ParseError(f"cpl article {ref.article} does not exist in the 2012 CPL "
                         f"(1..{CPL_2012_ARTICLES}); is the reference already in 2018 numbering?")
    return ArticleRef(ref.law, CPL_2012_TO_2018[ref.article], ref.suffix, ref.paragraph, ref.item)


def to_2012(ref: ArticleRef) -> ArticleRef | None:
    """Map a 2018-numbered CPL reference to 2012 numbering; None for articles inserted in 2018.

    Non-CPL refs are returned unchanged. Raises ParseError for numbers beyond the 2018 law's 308 articles.
    """
    if not _is_cpl(ref):
        return ref
    if not 1 <= ref.article <= CPL_2018_ARTICLES:
        raise ParseError(f"cpl article {ref.article} does not exist in the 2018 CPL (1..{CPL_2018_ARTICLES})")
    old = CPL_2018_TO_2012.get(ref.article)
    if old is None:
        return None
    return ArticleRef(ref.law, old, ref.suffix, ref.paragraph, ref.item)


def insertions_before(article_2018: int) -> int:
    """How many 2018-inserted articles precede ``article_2018`` (the shift of the articles after them)."""
    return bisect.bisect_left(INSERTED_2018, article_2018)


# -------------------------------------------------------------------------------------- decision semantics

class _Rule(NamedTuple):
    article: int
    paragraph: int | None  # None: any paragraph (or none)
    decision: Decision


#: Decision-relevant CPL provisions in 2018 numbering.
DECISION_ARTICLES_2018: tuple[_Rule, ...] = (
    _Rule(16, None, Decision.STATUTORY),
    _Rule(177, 1, Decision.STATUTORY),
    _Rule(175, 4, Decision.INSUFFICIENT_EVIDENCE),
    _Rule(177, 2, Decision.DISCRETIONARY),
    _Rule(176, None, Decision.PROSECUTE),
)


def decision_articles(numbering: str) -> dict[Decision, list[ArticleRef]]:
    """The decision-relevant CPL provisions in the given numbering, by decision (table order)."""
    _check_numbering(numbering)
    out: dict[Decision, list[ArticleRef]] = {d: [] for d in Decision}
    for rule in DECISION_ARTICLES_2018:
        ref = ArticleRef(Law.CRIMINAL_PROCEDURE, rule.article, 0, rule.paragraph)
        if numbering == NUMBERING_2012:
            ref = to_2012(ref)  # type: ignore[assignment]  # none of these articles was inserted in 2018
        out[rule.decision].append(ref)
    return out


class DecisionFromArticles(NamedTuple):
    """Outcome of :func:`decision_from_articles`: the decision, or None with the reason."""

    decision: Decision | None
    reason: str | None


def decision_from_articles(refs: list[ArticleRef], numbering: str) -> DecisionFromArticles:
    """The decision the cited CPL provisions stand for, in the given numbering ("2012" or "2018").

    Returns ``(decision, None)`` when the decision-relevant provisions agree, ``(None, reason)`` when none is
    cited or when they point to different decisions. Non-CPL references and other CPL articles are ignored;
    art. 177 (2012: 173) without a paragraph is ambiguous and ignored.
    """
    _check_numbering(numbering)
    found: dict[Decision, list[str]] = {}
    for ref in refs:
        if not _is_cpl(ref):
            continue
        try:
            ref18 = to_2018(ref) if numbering == NUMBERING_2012 else ref
        except ParseError:
            continue
        for rule in DECISION_ARTICLES_2018:
            if ref18.article == rule.article and ref18.suffix == 0 and (
                    rule.paragraph is None or ref18.paragraph == rule.paragraph):
                found.setdefault(rule.decision, []).append(ref.canonical())
                break
    if not found:
        return DecisionFromArticles(None, f"no decision-relevant CPL article cited ({numbering} numbering)")
    if len(found) > 1:
        detail = "; ".join(f"{', '.join(v)} → {d.value}" for d, v in found.items())
        return DecisionFromArticles(None, f"contradictory citations ({numbering} numbering): {detail}")
    return DecisionFromArticles(next(iter(found)), None)


# ------------------------------------------------------------------------------------- numbering detection

#: Provisions that identify the numbering: (article, paragraph) cited by decisions under each numbering.
_SIGNATURE_2018 = frozenset({(177, 1), (177, 2), (175, 4)})
_SIGNATURE_2012 = frozenset({(173, 1), (173, 2), (171, 4)})

def detect_numbering(date: str | _dt.date | None, refs: list[ArticleRef]) -> str:
    """"2012" or "2018": which CPL numbering a document uses, from its date and cited articles.

    Rule, in order:

    1. a CPL article above 290 exists only in the 2018 law → "2018";
    2. the citations show one numbering and not the other → that numbering. 2018 signature: 177(1), 177(2)
       or 175(4); 2012 signature: 173(1), 173(2) or 171(4) (the decision provisions cited with a paragraph;
       under the other numbering those paragraphs are not decision provisions);
    3. otherwise the date: before 2018-10-26 → "2012", on or after → "2018";
    4. no date and no evidence → "2018" (the law in force).
    """
    cited = [(r.article, r.paragraph) for r in refs if _is_cpl(r) and r.suffix == 0]
    if any(a > CPL_2012_ARTICLES for a, _ in cited):
        return NUMBERING_2018
    is_2018 = any(c in _SIGNATURE_2018 for c in cited)
    is_2012 = any(c in _SIGNATURE_2012 for c in cited)
    if is_2018 != is_2012:
        return NUMBERING_2018 if is_2018 else NUMBERING_2012
    if date is None or (isinstance(date, str) and not date.strip()):
        return NUMBERING_2018
    return NUMBERING_2012 if parse_date(date) < CPL_2018_EFFECTIVE else NUMBERING_2018


def _check_numbering(numbering: str) -> None:
    if numbering not in NUMBERINGS:
        raise ValueError(f"unknown CPL numbering {numbering!r}; expected one of {', '.join(NUMBERINGS)}")

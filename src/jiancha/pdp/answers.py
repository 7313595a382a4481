"""Render an answer in the required three-section output format (used by offline baselines and SFT targets)."""

from __future__ import annotations

from jiancha.errors import ParseError
from jiancha.law.articles import Law
from jiancha.law.labels import LEVEL2_LABELS, Decision
from jiancha.pdp import format as fmt


def normalise_decision(decision: str) -> str:
    """A label string from a label string or a code (``DNP``); ParseError otherwise."""
    if decision in LEVEL2_LABELS:
        return decision
    try:
        return Decision.from_code(decision).value
    except ValueError:
        raise ParseError(f"unknown decision {decision!r}; expected one of {', '.join(LEVEL2_LABELS)} "
                         f"or a code P/DNP/SNP/IENP") from None


def render_articles_block(articles: list[str] | tuple[str, ...]) -> str:
    """The body of 【适用法条】: one ``刑法：第…条、第…条`` line per law (cl, cpl, cpr), or ``无``."""
    by_law: dict[Law, list[str]] = {law: [] for law in fmt.LAW_LINE_NAMES}
    for a in articles:
        prefix, sep, body = a.partition(":")
        try:
            law = Law(prefix)
        except ValueError:
            law = None
        if not sep or law is None or not body:
            raise ParseError(f"article {a!r} is not a canonical string; expected '<cl|cpl|cpr>:第…条', "
                             f"e.g. 'cl:第二百六十四条'")
        if body not in by_law[law]:
            by_law[law].append(body)
    lines = [fmt.LAW_LINE_PREFIXES[law] + fmt.ARTICLE_SEPARATOR.join(bodies)
             for law, bodies in by_law.items() if bodies]
    return "\n".join(lines) if lines else fmt.NO_ARTICLES


def render_answer(decision: str, articles: list[str], analysis: str) -> str:
    """Text with 【适用法条】 / 【审查分析】 / 【最终结论】 sections; ``articles`` are canonical strings.

    ``decision`` is a label string (``相对不起诉``) or its code (``DNP``). The result parses back to the same
    decision and articles in both parser modes:

    >>> print(render_answer("DNP", ["cl:第一百三十三条之一", "cpl:第一百七十七条第二款"], "情节轻微。"))
    【适用法条】
    刑法：第一百三十三条之一
    刑事诉讼法：第一百七十七条第二款
    <BLANKLINE>
    【审查分析】
    情节轻微。
    <BLANKLINE>
    【最终结论】
    决定：相对不起诉
    """
    label = normalise_decision(decision)
    return (f"{fmt.SECTION_ARTICLES}\n{render_articles_block(articles)}\n\n"
            f"{fmt.SECTION_ANALYSIS}\n{analysis.strip()}\n\n"
            f"{fmt.SECTION_CONCLUSION}\n{fmt.DECISION_PREFIX}{label}")

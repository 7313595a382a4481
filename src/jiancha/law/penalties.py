"""Penalties a verdict imposes (主刑), parsed to months of prison, and the sentencing band they fall in."""

from __future__ import annotations

import re

from jiancha.law.numerals import CN_NUMERAL_CHARS

#: A fixed-term prison sentence: 有期徒刑X年(Y个月) or 有期徒刑Y个月 (Chinese or Arabic numerals).
PRISON_TERM_RE = re.compile(rf"有期徒刑(?:([{CN_NUMERAL_CHARS}\d]+)年)?(?:([{CN_NUMERAL_CHARS}\d]+)个?月)?")
LIFE_OR_DEATH: tuple[str, ...] = ("无期徒刑", "死刑")
#: Penalties without prison: 拘役 (detention) and 管制 count as no prison for the band.
SHORT_PENALTIES: tuple[str, ...] = ("拘役", "管制", "单处罚金", "免予刑事处罚")
#: Months standing for life imprisonment or death in comparisons.
LIFE_MONTHS = 600.0
#: Verdicts that impose no penalty, as they are worded.
NO_PENALTY_OUTCOMES: tuple[str, ...] = ("无罪", "不负刑事责任", "驳回上诉，维持原判")
#: Where the notice of the right to appeal begins, after the operative part of a verdict.
APPEAL_NOTICE = "如不服"


def _int(s: str | None) -> int:
    if not s:
        return 0
    from jiancha.errors import ParseError
    from jiancha.law.numerals import parse_number

    try:
        return parse_number(s)
    except ParseError:
        return 0


def parse_prison_months(verdict: str) -> float | None:
    """The longest fixed prison term the verdict imposes, in months; 0 for only 拘役/管制/罚金/免予处罚,
    :data:`LIFE_MONTHS` for life or death; None when the verdict names no penalty.

    >>> parse_prison_months("判处有期徒刑三年六个月，并处罚金"), parse_prison_months("判处拘役四个月")
    (42.0, 0.0)
    """
    if any(w in verdict for w in LIFE_OR_DEATH):
        return LIFE_MONTHS
    terms = [12 * _int(m.group(1)) + _int(m.group(2)) for m in PRISON_TERM_RE.finditer(verdict)]
    terms = [t for t in terms if t > 0]
    if terms:
        return float(max(terms))
    if any(w in verdict for w in SHORT_PENALTIES):
        return 0.0
    return None


def term_band(months: float | None) -> int:
    """Sentence band: -1 unknown, 0 no prison, 1 under 3 years, 2 3–10 years, 3 over 10 years / life / death
    (the statutory ranges 三年以下 / 三年以上十年以下 / 十年以上)."""
    if months is None:
        return -1
    if months <= 0:
        return 0
    return 1 if months < 36 else 2 if months <= 120 else 3


def render_term(months: float | None) -> str:
    """Human form of a term: 有期徒刑3年6个月 / 无期徒刑或死刑 / 非监禁刑 / 未知.

    >>> render_term(42.0), render_term(12.0)
    ('有期徒刑3年6个月', '有期徒刑1年')
    """
    if months is None:
        return "未知"
    if months >= LIFE_MONTHS:
        return "无期徒刑或死刑"
    if months <= 0:
        return "非监禁刑"
    y, m = divmod(int(months), 12)
    return "有期徒刑" + (f"{y}年" if y else "") + (f"{m}个月" if m else "")


def describe_verdict(verdict: str, max_chars: int = 60) -> str:
    """A verdict in a few characters: its prison term (:func:`render_term`) when it imposes a penalty, else the
    first of :data:`NO_PENALTY_OUTCOMES` it names, else its beginning up to the appeal notice.

    >>> describe_verdict("被告人李某犯盗窃罪，判处有期徒刑一年。"), describe_verdict("被告人邓某无罪。如不服本判决，可在…")
    ('有期徒刑1年', '无罪')
    >>> describe_verdict("准许上诉人撤回上诉。如不服本裁定……")
    '准许上诉人撤回上诉。'
    """
    months = parse_prison_months(verdict)
    if months is not None:
        return render_term(months)
    named = next((w for w in NO_PENALTY_OUTCOMES if w in verdict), None)
    return named or verdict.split(APPEAL_NOTICE)[0].strip()[:max_chars]

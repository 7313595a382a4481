"""Penalties (主刑) as verdicts word them, parsed to months of prison, and the sentencing band they fall in."""

from __future__ import annotations

import re

from jiancha.law.numerals import CN_NUMERAL_CHARS

#: A fixed-term prison sentence: 有期徒刑X年(Y个月) or 有期徒刑Y个月 (Chinese or Arabic numerals).
PRISON_TERM_RE = re.compile(rf"有期徒刑(?:([{CN_NUMERAL_CHARS}\d]+)年)?(?:([{CN_NUMERAL_CHARS}\d]+)个?月)?")
LIFE_OR_DEATH: tuple[str, ...] = ("无期徒刑", "死刑")
#: Penalties without prison: 拘役 (detention) and 管制 count as no prison for the band.
SHORT_PENALTIES: tuple[str, ...] = ("拘役", "管制", "单处罚金", "免予刑事处罚", "免除刑事处罚")
#: A conviction without penalty, as verdicts word it (shown as the first).
EXEMPTION: tuple[str, ...] = ("免予刑事处罚", "免除刑事处罚")
#: Months standing for life imprisonment or death in comparisons.
LIFE_MONTHS = 600.0
#: Verdicts that impose no penalty, as they are worded.
NO_PENALTY_OUTCOMES: tuple[str, ...] = ("无罪", "不负刑事责任", "驳回上诉，维持原判")
#: Where the notice of the right to appeal begins, after the operative part of a verdict.
APPEAL_NOTICE = "如不服"


def term_months(years: str | None, months: str | None) -> int:
    """Months of a term worded in years and months (Chinese or Arabic numerals, either absent); a numeral that does
    not parse counts 0."""
    from jiancha.errors import ParseError
    from jiancha.law.numerals import parse_number

    def number(s: str | None) -> int:
        try:
            return parse_number(s) if s else 0
        except ParseError:
            return 0

    return 12 * number(years) + number(months)


def parse_prison_months(verdict: str) -> float | None:
    """The longest fixed prison term the verdict imposes, in months; 0 for only 拘役/管制/罚金/免予处罚,
    :data:`LIFE_MONTHS` for life or death; None when the verdict names no penalty.

    >>> parse_prison_months("判处有期徒刑三年六个月，并处罚金"), parse_prison_months("判处拘役四个月")
    (42.0, 0.0)
    """
    if any(w in verdict for w in LIFE_OR_DEATH):
        return LIFE_MONTHS
    terms = [term_months(m.group(1), m.group(2)) for m in PRISON_TERM_RE.finditer(verdict)]
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


#: Sentences without fixed-term prison, as a verdict words them: 拘役 / 管制 with their term (管制一年六个月).
SHORT_TERM_RE = re.compile(rf"(拘役|管制)(?=[{CN_NUMERAL_CHARS}\d])(?:([{CN_NUMERAL_CHARS}\d]+)年)?"
                           rf"(?:([{CN_NUMERAL_CHARS}\d]+)个?月)?")
#: A death sentence suspended for two years (判处死刑，缓期二年执行).
DEATH_SUSPENDED = "缓期二年执行"
SUSPENDED = "缓刑"
FINE = "罚金"
#: The accessory penalties (附加刑, Criminal Law arts. 34–35) besides the fine: deprivation of political rights for
#: a term or for life (剥夺政治权利三年 / 剥夺政治权利终身), confiscation of property (并处没收个人全部财产 / 没收财产
#: 二十五万元; not 没收违法所得, which is no penalty) and, for a foreigner, expulsion.
RIGHTS_DEPRIVED_RE = re.compile(rf"剥夺政治权利(?:(终身)|(?:([{CN_NUMERAL_CHARS}\d]+)年)?(?:([{CN_NUMERAL_CHARS}\d]+)个?月)?)")
FOR_LIFE = "终身"
CONFISCATION_RE = re.compile(r"没收(?:其)?(?:个人)?(?:全部|部分)?财产")
EXPULSION = "驱逐出境"
#: A sentence after the one imposing a penalty that goes on with its accessory penalties (…止）。剥夺政治权利一年。 /
#: 刑满后驱逐出境。).
ACCESSORY_GOES_ON_RE = re.compile(r"\s*(?:剥夺政治权利|并处|附加|(?:刑满后|并)?驱逐出境)")
#: A suspended death sentence whose commutation the court limits (同时决定对其限制减刑, Criminal Law art. 50).
COMMUTATION_LIMITED = "限制减刑"

"""Amounts of money and quantities of drugs named in Chinese legal text, each parsed by one named regex.

Money is reported in yuan (万元 multiplied out), drug quantities in grams (千克/公斤 multiplied out), so two cases
compare on one scale: ``log10(1 + value)``.
"""

from __future__ import annotations

import math
import re

from jiancha.law.numerals import CN_NUMERAL_CHARS

#: An amount of money in yuan: 人民币3,723元 / 3，723元 / 价值1.2万元 / 共计5000余元 / 80余万元 / 230万余元, or in
#: Chinese numerals: 八十万元 / 十二万五千元 / 三千元.
AMOUNT_RE = re.compile(rf"(?:(?P<num>\d+(?:[,，]\d{{3}})*(?:\.\d+)?)\s*余?\s*(?P<unit>万)?"
                       rf"|(?P<cn>[{CN_NUMERAL_CHARS}]+(?:万[{CN_NUMERAL_CHARS}]*)?))\s*余?\s*元")
#: A quantity by weight: 海洛因5.2克 / 甲基苯丙胺1.5千克 / 2公斤, or in Chinese numerals: 五克 / 二十余克 / 零点五克 /
#: 一千克 (read as 1,000 克 or 1 千克 alike).
QUANTITY_RE = re.compile(rf"(?:(?P<num>\d+(?:\.\d+)?)|(?P<cn>[{CN_NUMERAL_CHARS}]+(?:点[零〇一二两三四五六七八九]+)?))"
                         r"\s*余?\s*(?P<unit>千克|公斤|克)")
_GRAMS = {"克": 1.0, "千克": 1000.0, "公斤": 1000.0}
#: Before Chinese numerals, what makes them no number (几十万元, 数百克): the amount is not stated.
_VAGUE_BEFORE = "几数"


def _vague(text: str, at: int) -> bool:
    return at > 0 and text[at - 1] in _VAGUE_BEFORE


def _number(s: str) -> float:
    return float(s.replace(",", "").replace("，", ""))


def parse_amounts(text: str) -> list[float]:
    """Every amount of money in yuan, in order.

    >>> parse_amounts("窃取人民币3,723元，另有价值1.2万元的手机及5000余元现金，另有元宝")
    [3723.0, 12000.0, 5000.0]
    >>> parse_amounts("拖欠货款80余万元，退赔人民币十二万五千元，罚金三千元")
    [800000.0, 125000.0, 3000.0]
    >>> parse_amounts("流水几十万元，获利数千元")
    []
    """
    out = []
    for m in AMOUNT_RE.finditer(text):
        if m.group("num") is not None:
            value = _number(m.group("num"))
            out.append(value * 10_000 if m.group("unit") else value)
        elif not _vague(text, m.start("cn")):
            value = _chinese_amount(m.group("cn"))
            if value is not None:
                out.append(value)
    return out


def _chinese_amount(s: str) -> float | None:
    """十二万五千 → 125000; None where it is no number (a lone 千, 百元 as a denomination)."""
    from jiancha.errors import ParseError
    from jiancha.law.numerals import parse_number

    high, sep, low = s.partition("万")
    try:
        value = (parse_number(high) * 10_000 if sep else parse_number(high)) + (parse_number(low) if low else 0)
    except ParseError:
        return None
    return float(value)


def parse_quantities(text: str) -> list[float]:
    """Every weight in grams, in order.

    >>> parse_quantities("贩卖甲基苯丙胺片剂0.5克，另查获海洛因1.2千克")
    [0.5, 1200.0]
    >>> parse_quantities("贩卖海洛因五克、甲基苯丙胺二十余克、氯胺酮零点五克，查获大麻一千克、二十千克")
    [5.0, 20.0, 0.5, 1000.0, 20000.0]
    >>> parse_quantities("吸食毒品几十克")
    []
    """
    out = []
    for m in QUANTITY_RE.finditer(text):
        grams = _GRAMS[m.group("unit")]
        if m.group("num") is not None:
            out.append(_number(m.group("num")) * grams)
            continue
        cn = m.group("cn")
        if _vague(text, m.start("cn")):
            continue
        if cn.endswith("千") and grams == 1.0:   # 二十千克: the regex took 千 as a digit
            cn, grams = cn[:-1], 1000.0
        value = _chinese_quantity(cn)
        if value is not None:
            out.append(value * grams)
    return out


def _chinese_quantity(s: str) -> float | None:
    """二十 → 20, 零点五 → 0.5, 一点二 → 1.2; None where it is no number."""
    from jiancha.errors import ParseError
    from jiancha.law.numerals import cn_digits, parse_number

    whole, sep, frac = s.partition("点")
    try:
        value = 0 if whole in ("零", "〇") else parse_number(whole)
        return float(f"{value}.{cn_digits(frac)}") if sep else float(value)
    except ParseError:
        return None


def largest(values: list[float]) -> float | None:
    """The largest value, None for none (a case is characterised by its largest sum)."""
    return max(values) if values else None


def log_distance(a: float | None, b: float | None) -> float | None:
    """|log10(1 + a) - log10(1 + b)|, None when either is missing.

    >>> log_distance(999.0, 9999.0)
    1.0
    """
    if a is None or b is None:
        return None
    return abs(math.log10(1 + a) - math.log10(1 + b))


def render_yuan(x: float) -> str:
    """An amount as a reader writes it, never in scientific notation.

    >>> [render_yuan(x) for x in (3000, 18_600, 2_300_000, 43_240_000, 99_996_000, 1e10, 2.5e13, 3e15)]
    ['3000元', '1.86万元', '230万元', '4324万元', '1亿元', '100亿元', '250000亿元', '30000000亿元']
    """
    if x < 10_000:
        return f"{x:.6g}元"
    wan = f"{x / 10_000:.4g}"
    if "e" not in wan and float(wan) < 10_000:
        return f"{wan}万元"
    yi = x / 100_000_000
    return f"{yi:.4g}亿元" if yi < 10_000 else f"{round(yi)}亿元"

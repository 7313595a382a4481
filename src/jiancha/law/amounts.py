"""Amounts of money and quantities of drugs named in Chinese legal text, each parsed by one named regex.

Money is reported in yuan (万元 multiplied out), drug quantities in grams (千克/公斤 multiplied out), so two cases
compare on one scale: ``log10(1 + value)``.
"""

from __future__ import annotations

import math
import re

#: An amount of money in yuan: 人民币3,723元 / 3，723元 / 价值1.2万元 / 共计5000余元.
AMOUNT_RE = re.compile(r"(?P<num>\d+(?:[,，]\d{3})*(?:\.\d+)?)\s*(?P<unit>万)?\s*余?\s*元")
#: A quantity by weight: 海洛因5.2克 / 甲基苯丙胺1.5千克 / 2公斤.
QUANTITY_RE = re.compile(r"(?P<num>\d+(?:\.\d+)?)\s*余?\s*(?P<unit>千克|公斤|克)")
_GRAMS = {"克": 1.0, "千克": 1000.0, "公斤": 1000.0}


def _number(s: str) -> float:
    return float(s.replace(",", "").replace("，", ""))


def parse_amounts(text: str) -> list[float]:
    """Every amount of money in yuan, in order.

    >>> parse_amounts("窃取人民币3,723元，另有价值1.2万元的手机及5000余元现金，另有元宝")
    [3723.0, 12000.0, 5000.0]
    """
    out = []
    for m in AMOUNT_RE.finditer(text):
        value = _number(m.group("num"))
        out.append(value * 10_000 if m.group("unit") else value)
    return out


def parse_quantities(text: str) -> list[float]:
    """Every weight in grams, in order.

    >>> parse_quantities("贩卖甲基苯丙胺片剂0.5克，另查获海洛因1.2千克")
    [0.5, 1200.0]
    """
    return [_number(m.group("num")) * _GRAMS[m.group("unit")] for m in QUANTITY_RE.finditer(text)]


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

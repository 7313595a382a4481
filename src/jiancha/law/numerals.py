"""Exact conversion between integers and Chinese numerals as written in legal citations (1–9999).

Legal usage writes 10–19 without a leading 一 (``十六``, not ``一十六``) and ``一百一十`` for 110; this matches
``cn2an.an2cn`` for 1–9999 (pinned exhaustively in the tests). Formatting is a small pure function so that it
is fast on hot paths; parsing handles the standard forms itself and falls back to ``cn2an`` (``smart`` mode)
for anything else (mixed digit/numeral forms such as ``1百``).

>>> int_to_cn(1001), int_to_cn(110), int_to_cn(16)
('一千零一', '一百一十', '十六')
>>> parse_number("两百零五"), parse_number("１７７"), parse_number("一〇五")
(205, 177, 105)
"""

from __future__ import annotations

import re
from functools import lru_cache

from jiancha.errors import ParseError

MAX_NUMBER = 9999

_DIGITS = "零一二三四五六七八九"
_UNITS = ((1000, "千"), (100, "百"), (10, "十"))

#: Character class of everything that may appear in a number inside a citation (used by the regexes).
#: Chinese numeral characters (digits, 两, units), as a character-class body.
CN_NUMERAL_CHARS = "零〇一二两三四五六七八九十百千"
NUMERAL_CHARS = "0-9０-９" + CN_NUMERAL_CHARS
#: Regex fragment matching one number (Arabic, full-width or Chinese numerals).
NUMBER_PATTERN = f"[{NUMERAL_CHARS}]+"

_FULLWIDTH = str.maketrans("０１２３４５６７８９", "0123456789")
_DIGIT_VALUE = {c: i for i, c in enumerate(_DIGITS)} | {"〇": 0, "两": 2, "0": 0}
_UNIT_VALUE = {"十": 10, "百": 100, "千": 1000}
_STANDARD = re.compile(f"[{CN_NUMERAL_CHARS}]+")
_ARABIC = re.compile(r"[0-9０-９]+")
_DIGIT_STRING = re.compile(r"[零〇一二两三四五六七八九]{2,4}")


def int_to_cn(n: int) -> str:
    """Chinese numeral for 1 ≤ n ≤ 9999 in legal usage (``十六``, ``一百一十``, ``一千零一``)."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_NUMBER:
        raise ValueError(f"int_to_cn: expected an int in 1..{MAX_NUMBER}, got {n!r}")
    return _INT_TO_CN[n]


def _format(n: int) -> str:
    out: list[str] = []
    rest = n
    zero_pending = False
    for value, unit in _UNITS:
        d, rest = divmod(rest, value)
        if d:
            if zero_pending:
                out.append("零")
                zero_pending = False
            # 10-19 are written 十, 十一 … (no leading 一) only when they are the whole number.
            if not (value == 10 and d == 1 and not out):
                out.append(_DIGITS[d])
            out.append(unit)
        elif out:
            zero_pending = True
    if rest:
        if zero_pending:
            out.append("零")
        out.append(_DIGITS[rest])
    return "".join(out)


_INT_TO_CN: dict[int, str] = {n: _format(n) for n in range(1, MAX_NUMBER + 1)}
_CN_TO_INT: dict[str, int] = {v: k for k, v in _INT_TO_CN.items()}


def cn_digits(s: str) -> str:
    """The Arabic digits of a number written digit by digit (the decimals of 零点零五, a year 二〇二一); ParseError
    for a character that is no digit.

    >>> cn_digits("零五"), cn_digits("二〇二一")
    ('05', '2021')
    """
    try:
        return "".join(str(_DIGIT_VALUE[c]) for c in s)
    except KeyError as exc:
        raise ParseError(f"{s!r} is not written digit by digit; expected 零〇一二两三四五六七八九") from exc


@lru_cache(maxsize=4096)
def parse_number(s: str) -> int:
    """Integer value of a number written in Arabic, full-width or Chinese numerals (1–9999).

    Accepts ``十六``/``一十六``, ``两百``, ``〇``/``零`` as zero, digit-by-digit forms (``一〇五``) and full-width
    digits. Raises ParseError for anything else or a value outside 1..9999.
    """
    t = s.strip()
    if not t:
        raise ParseError("empty number; expected digits (264) or Chinese numerals (二百六十四)")
    value: int | None
    if _ARABIC.fullmatch(t):
        value = int(t.translate(_FULLWIDTH))
    elif t in _CN_TO_INT:
        value = _CN_TO_INT[t]
    elif _DIGIT_STRING.fullmatch(t) and t[0] not in "零〇":
        value = int("".join(str(_DIGIT_VALUE[c]) for c in t))
    elif _STANDARD.fullmatch(t):
        value = _parse_standard(t)
    else:
        value = _parse_with_cn2an(t)
    if value is None or not 1 <= value <= MAX_NUMBER:
        raise ParseError(f"number {s!r} is not in 1..{MAX_NUMBER}; expected e.g. 264 or 二百六十四")
    return value


def _parse_standard(t: str) -> int | None:
    """Positional parse of 千/百/十 forms with optional 零 and 两 (``两千零二十``, ``一十六``)."""
    total, digit, last_unit = 0, None, 10_000
    for ch in t:
        if ch in _UNIT_VALUE:
            unit = _UNIT_VALUE[ch]
            if unit >= last_unit:
                return None
            if digit is None:
                if unit != 10 or total:  # only a leading 十 may omit its digit
                    return None
                digit = 1
            total += digit * unit
            digit, last_unit = None, unit
        else:
            v = _DIGIT_VALUE[ch]
            if v == 0:
                if digit is not None:
                    return None
                continue
            if digit is not None:
                return None
            digit = v
    if digit is not None:
        total += digit
    return total


def _parse_with_cn2an(t: str) -> int | None:
    import cn2an  # maintained converter; used only for unusual mixed forms

    try:
        value = cn2an.cn2an(t, "smart")
    except (ValueError, KeyError, TypeError):
        return None
    if isinstance(value, float):
        if not value.is_integer():
            return None
        value = int(value)
    return value if isinstance(value, int) else None

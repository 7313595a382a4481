"""Text normalisation for raw documents: full-width digits, spaces, Chinese-numeral dates, case numbers."""

from __future__ import annotations

import re

from jiancha.errors import ParseError
from jiancha.law.phrases import CASE_BRACKETS, CASE_NUMBER_RE, DATE_RE

_FULLWIDTH = {c: c - 0xFEE0 for c in range(0xFF10, 0xFF1A)}          # ０-９
_FULLWIDTH.update({c: c - 0xFEE0 for c in range(0xFF21, 0xFF3B)})    # Ａ-Ｚ
_FULLWIDTH.update({c: c - 0xFEE0 for c in range(0xFF41, 0xFF5B)})    # ａ-ｚ
_FULLWIDTH.update({0x3000: 0x20, 0x00A0: 0x20, 0x2002: 0x20, 0x2003: 0x20, 0x200B: None, 0xFEFF: None})
_FULLWIDTH_POINT_RE = re.compile(r"(?<=\d)[．。](?=\d)")
_SPACES_RE = re.compile(r"[ \t]+")

_CN_DIGIT = {"〇": 0, "零": 0, "○": 0, "Ｏ": 0, "O": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6,
             "七": 7, "八": 8, "九": 9}


def normalize_line(line: str) -> str:
    """Full-width digits and letters to ASCII, odd spaces to one space, decimal ``．`` to ``.``; stripped."""
    s = line.translate(_FULLWIDTH)
    s = _FULLWIDTH_POINT_RE.sub(".", s)
    return _SPACES_RE.sub(" ", s).strip()


def _cn_small_number(s: str) -> int:
    """1-31 written as 三 / 十 / 十二 / 二十八 / 三十一, or Arabic digits."""
    if s.isdigit():
        return int(s)
    if "十" in s:
        tens, _, ones = s.partition("十")
        return (_CN_DIGIT[tens] if tens else 1) * 10 + (_CN_DIGIT[ones] if ones else 0)
    if len(s) == 1 and s in _CN_DIGIT:
        return _CN_DIGIT[s]
    raise ParseError(f"cannot read the number {s!r} in a date; expected Arabic or Chinese numerals such as 二十八")


def parse_date(text: str) -> str:
    """First date in ``text`` as ``YYYY-MM-DD``; Chinese numerals (二〇二一年三月五日, 二零一五…) included.

    >>> parse_date("二〇二一年三月五日")
    '2021-03-05'
    >>> parse_date("二零一五年十月十二日")
    '2015-10-12'
    """
    m = DATE_RE.search(normalize_line(text))
    if not m:
        raise ParseError(f"no date in {text[:40]!r}; expected e.g. 2021年3月5日 or 二〇二一年三月五日")
    y = m["y"]
    year = int(y) if y.isdigit() else int("".join(str(_CN_DIGIT[c]) for c in y))
    month, day = _cn_small_number(m["m"]), _cn_small_number(m["d"])
    if not (1 <= month <= 12 and 1 <= day <= 31):
        raise ParseError(f"impossible date {m.group(0)!r} (month {month}, day {day})")
    return f"{year:04d}-{month:02d}-{day:02d}"


def is_date_line(line: str) -> bool:
    """True when the whole line is one date (a signature date)."""
    m = DATE_RE.fullmatch(line.replace(" ", ""))
    return m is not None


def normalize_case_number(text: str) -> str | None:
    """The case number in ``text`` normalised for ids and deduplication: no spaces, ASCII digits, 〔〕 brackets.

    >>> normalize_case_number("某检 公诉刑不诉 〔２０１５〕 ５ 号")
    '某检公诉刑不诉〔2015〕5号'
    """
    s = normalize_line(text).replace(" ", "")
    m = CASE_NUMBER_RE.search(s)
    if not m:
        return None
    return "".join(CASE_BRACKETS.get(c, c) for c in m.group(0))

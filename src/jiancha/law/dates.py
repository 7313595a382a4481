"""Dates as legal documents and datasets write them: ``2019-03-05``, ``2019/3/5``, ``2019年3月5日`` and the
Chinese-numeral signature dates of prosecutorial documents (``二〇二一年三月五日``, ``二零一五年十月十二日``).

>>> parse_date("二〇二一年三月五日"), parse_date("2019/3/5")
(datetime.date(2021, 3, 5), datetime.date(2019, 3, 5))
>>> search_date("本院于二〇二三年二月二十八日决定").isoformat()
'2023-02-28'
"""

from __future__ import annotations

import datetime as _dt
import re

from jiancha.errors import ParseError
from jiancha.law.numerals import parse_number
from jiancha.law.phrases import DATE_RE

#: Numeric dates in datasets and metadata (``2019-03-05``, ``2019/3/5``, ``2019.3.5``).
NUMERIC_DATE_RE = re.compile(r"(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})")
#: Zero-like characters of Chinese-numeral years (``二○一九``, ``二Ｏ一九``), read as 〇.
_ZEROS = str.maketrans({"○": "〇", "Ｏ": "〇", "O": "〇", "零": "〇"})


def _date_of(m: re.Match[str], source: object) -> _dt.date:
    try:
        y = m["y"].translate(_ZEROS)
        year = int(y) if y.isdigit() else int("".join(str("〇一二三四五六七八九".index(c)) for c in y))
        return _dt.date(year, parse_number(m["m"]), parse_number(m["d"]))
    except (ValueError, ParseError):
        raise ParseError(f"impossible date {m.group(0)!r} in {source!r}; expected a real calendar date") from None


def parse_date(value: str | _dt.date) -> _dt.date:
    """A date from the start of ``value`` (any form above) or a ``date``; ParseError otherwise."""
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    s = str(value).strip()
    m = NUMERIC_DATE_RE.match(s) or DATE_RE.match(s)
    if m is None:
        raise ParseError(f"cannot read date {value!r}; expected e.g. '2019-03-05', '2019年3月5日' or '二〇一九年三月五日'")
    return _date_of(m, value)


def search_date(text: str) -> _dt.date:
    """The first ``年月日`` date anywhere in ``text`` (Arabic or Chinese numerals); ParseError if there is none."""
    m = DATE_RE.search(text)
    if m is None:
        raise ParseError(f"no date in {text[:40]!r}; expected e.g. 2021年3月5日 or 二〇二一年三月五日")
    return _date_of(m, text[:40])

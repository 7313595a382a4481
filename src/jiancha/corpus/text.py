"""Text normalisation for raw documents: full-width digits, spaces, Chinese-numeral dates, case numbers."""

from __future__ import annotations

import html
import re

from jiancha.law.dates import search_date
from jiancha.law.phrases import CASE_BRACKETS, CASE_NUMBER_RE, DATE_RE

_FULLWIDTH = {c: c - 0xFEE0 for c in range(0xFF10, 0xFF1A)}          # ０-９
_FULLWIDTH.update({c: c - 0xFEE0 for c in range(0xFF21, 0xFF3B)})    # Ａ-Ｚ
_FULLWIDTH.update({c: c - 0xFEE0 for c in range(0xFF41, 0xFF5B)})    # ａ-ｚ
_FULLWIDTH.update({0x3000: 0x20, 0x00A0: 0x20, 0x2002: 0x20, 0x2003: 0x20, 0x200B: None, 0xFEFF: None})
#: A decimal point written ``．`` or ``。`` between digits (６７．４万元); not a list item's mark or a sentence end
#: before a year (``1．2016年4月26日…``, ``…共3次。2016年…``), which stay as printed.
_FULLWIDTH_POINT_RE = re.compile(r"(?<=\d)[．。](?=\d)(?!\d{4}年)")
_SPACES_RE = re.compile(r" +")
#: Tabs separate a table row's cells (and a signature line's parts): kept, one for a run.
_TABS_RE = re.compile(r" *\t[ \t]*")
#: A space between two ideographs or Chinese punctuation marks: OCR and letter-spaced headings (本 院 认 为);
#: Chinese text has no word spaces, so such a space carries nothing.
_CJK_CHAR = r"[\u3000-\u303f\u4e00-\u9fff\uff01-\uff0f\uff1a-\uff20《》“”‘’〇○]"
_CJK_SPACE_RE = re.compile(rf"(?<={_CJK_CHAR}) +(?={_CJK_CHAR})")
#: A space between a number and its unit or the word before it (1986 年 3 月 12 日, 人民币 5000 元, 第 3 次), as
#: a PDF's text layer gives dates and amounts; not before a name (a table row ``3 雒某某 人民币2万元``).
_DIGIT_CJK_SPACE_RE = re.compile(r"(?<=\d) +(?=[年月日时分秒元万亿千百克斤吨岁周个次号名件台辆把部张份余多])|"
                                 r"(?<=[年月日时分秒第约共计币重额为至到于]) +(?=\d)")
#: A space inside a date in Chinese numerals (二O 一五年一月 二十八日), where OCR leaves them.
_DATE_SPACE_RE = re.compile(r"(?<=[〇零○一二三四五六七八九十OoΟ年月])\s+(?=[〇零○一二三四五六七八九十OoΟ年月日])")
#: Letters OCR reads for the Chinese zero in dates (二O一九年, 二0二一年).
_OCR_ZERO_RE = re.compile(r"(?<=[二〇零○一二三四五六七八九])[OoΟ0０](?=[〇零○一二三四五六七八九OoΟ0０]*年)")

def normalize_line(line: str) -> str:
    """Full-width digits and letters to ASCII, odd spaces to one space (tabs to one tab), no space between
    ideographs or between a number and its unit (``_DIGIT_CJK_SPACE_RE``), decimal ``．`` to ``.``, OCR zeros
    in Chinese-numeral years to ``〇``; stripped.

    >>> normalize_line("本 院 认 为，二O二一年 ３月，人民币 5000 元")
    '本院认为，二〇二一年3月，人民币5000元'
    """
    if "&" in line and ";" in line:   # entities left in text copied from a web page (&ldquo;耗儿&rdquo;)
        line = html.unescape(line)
    s = _OCR_ZERO_RE.sub("〇", _DATE_SPACE_RE.sub("", line))
    s = s.translate(_FULLWIDTH)
    s = _FULLWIDTH_POINT_RE.sub(".", s)
    s = _TABS_RE.sub("\t", _SPACES_RE.sub(" ", s)).strip().lstrip("丨｜|").lstrip()   # a scan's stray stroke
    return _DIGIT_CJK_SPACE_RE.sub("", _CJK_SPACE_RE.sub("", s))


def parse_date_iso(text: str) -> str:
    """First date in ``text`` as ``YYYY-MM-DD``; Chinese numerals (二〇二一年三月五日, 二零一五…) included.

    >>> parse_date_iso("二〇二一年三月五日")
    '2021-03-05'
    >>> parse_date_iso("二零一五年十月十二日")
    '2015-10-12'
    """
    return search_date(normalize_line(text)).isoformat()


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

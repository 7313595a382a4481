"""Chinese legal strings and regex fragments, defined once and reused across ``jiancha.law``.

Law names map to the PDP-Bench prefixes ``cl`` (中华人民共和国刑法), ``cpl`` (中华人民共和国刑事诉讼法) and
``cpr`` (人民检察院刑事诉讼规则, including the older title ``人民检察院刑事诉讼规则（试行）``).
"""

from __future__ import annotations

import re

from jiancha.law.numerals import NUMBER_PATTERN

#: Full official titles.
CRIMINAL_LAW_TITLE = "中华人民共和国刑法"
CRIMINAL_PROCEDURE_LAW_TITLE = "中华人民共和国刑事诉讼法"
PROCURATORATE_RULES_TITLE = "人民检察院刑事诉讼规则"
PROCURATORATE_RULES_OLD_TITLE = "人民检察院刑事诉讼规则（试行）"

#: Every accepted name of each PDP law (after dropping 《》 and a trailing version note such as （2018年修正）).
LAW_ALIASES: dict[str, tuple[str, ...]] = {
    "cl": ("中华人民共和国刑法", "刑法"),
    "cpl": ("中华人民共和国刑事诉讼法", "刑事诉讼法", "刑诉法"),
    "cpr": ("人民检察院刑事诉讼规则", "人民检察院刑事诉讼规则（试行）", "人民检察院刑事诉讼规则(试行)",
            "刑事诉讼规则", "刑诉规则", "高检规则"),
}
ALIAS_TO_LAW: dict[str, str] = {a: law for law, aliases in LAW_ALIASES.items() for a in aliases}

#: Suffixes that end the name of a law or another normative document (used to recognise *other* laws).
NORMATIVE_SUFFIXES = ("法", "条例", "规则", "规定", "解释", "办法", "决定", "意见", "批复", "通知", "纪要",
                      "修正案", "细则")

#: A trailing version note after a title: （2018年修正）, (试行), 【2012年】.
VERSION_NOTE = r"(?:[（(【\[][^（）()【】\[\]\n]{0,14}[）)】\]])"

#: Verbs/phrases that negate the citation that follows them (``不适用《刑法》第三十七条``).
NEGATION_PATTERN = re.compile(
    r"(?:不|未|无须|无需|并不|不应|不再|不能|不得|不予)(?:适用|依照|依据|按照|援引|引用|符合|应当适用)"
    r"[《“\"]?(?:中华人民共和国)?$"
)

#: Text between two citations that keeps them in one list (``、``, ``，``, ``和``, ``及``, ``以及`` …).
LIST_GAP_PATTERN = re.compile(r"(?:[\s、，,;；:：和及与或/]|以及|或者|并且)*")

#: Sentence end: a law named before it no longer applies after it.
SENTENCE_END_CHARS = "。！？!?"

#: One number (Arabic, full-width or Chinese numerals).
NUM = NUMBER_PATTERN
#: Opening/closing parentheses, half- and full-width.
LPAREN = r"[（(]"
RPAREN = r"[）)]"

#: 第N条[之M][第K款][第（I）项] with optional spaces; groups: art, suf, para, item_p, item_n. ``art_d`` instead
#: of ``art``: Arabic digits without 第 (``刑法264条``), accepted by the parser only right after a law name or
#: in a list of citations.
ARTICLE_PATTERN = (
    rf"(?:第\s*(?P<art>{NUM})\s*(?:条|(?=之?规定|的规定))|(?<![0-9０-９.．])(?P<art_d>[0-9０-９]+)\s*条)"
    rf"(?:\s*之\s*(?P<suf>{NUM}))?"
    rf"(?:\s*第?\s*(?P<para>{NUM})\s*款)?"
    rf"(?:\s*第?\s*{LPAREN}\s*(?P<item_p>{NUM})\s*{RPAREN}\s*项|\s*第\s*(?P<item_n>{NUM})\s*项)?"
)
#: A paragraph continuing the previous article: ``第六十七条第一款、第三款``.
PARAGRAPH_PATTERN = (
    rf"第\s*(?P<cpara>{NUM})\s*款"
    rf"(?:\s*第?\s*{LPAREN}\s*(?P<citem_p>{NUM})\s*{RPAREN}\s*项|\s*第\s*(?P<citem_n>{NUM})\s*项)?"
)
#: An item continuing the previous article/paragraph: ``第十六条第（一）项、第（二）项``.
ITEM_PATTERN = rf"(?:第\s*{LPAREN}\s*(?P<iitem_p>{NUM})\s*{RPAREN}|{LPAREN}\s*(?P<iitem_q>{NUM})\s*{RPAREN}|" \
               rf"第\s*(?P<iitem_n>{NUM}))\s*项"

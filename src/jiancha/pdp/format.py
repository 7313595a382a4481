"""The PDP input/output format: every section marker, line prefix and separator, defined once.

Prompts (``pdp.prompts``), the answer renderer (``pdp.answers``) and the parser (``pdp.parsing``) all take their
strings and regexes from here, so the format a prompt asks for is exactly the format the parser reads.

Required answer layout (the paper's prompt)::

    【适用法条】
    刑法：第二百六十四条、第六十七条第三款
    刑事诉讼法：第一百七十七条第二款
    【审查分析】
    ...
    【最终结论】
    决定：相对不起诉
"""

from __future__ import annotations

import re

from jiancha.law.articles import Law
from jiancha.law.labels import LABEL_SYNONYMS, LEVEL2_LABELS, Decision
from jiancha.law.patterns import ALIAS_TO_LAW

# --- input sections of the user message -----------------------------------------------------------------------
INPUT_PERSON = "【犯罪嫌疑人信息】"
INPUT_PROCEDURE = "【案件程序】"
INPUT_FACT = "【案件事实】"

# --- output sections -----------------------------------------------------------------------------------------
SECTION_ARTICLES_NAME = "适用法条"
SECTION_ANALYSIS_NAME = "审查分析"
SECTION_CONCLUSION_NAME = "最终结论"
SECTION_ARTICLES = f"【{SECTION_ARTICLES_NAME}】"
SECTION_ANALYSIS = f"【{SECTION_ANALYSIS_NAME}】"
SECTION_CONCLUSION = f"【{SECTION_CONCLUSION_NAME}】"

DECISION_KEY = "决定"
DECISION_PREFIX = f"{DECISION_KEY}："

#: One line per cited law in 【适用法条】, in this order.
LAW_LINE_NAMES: dict[Law, str] = {
    Law.CRIMINAL_LAW: "刑法",
    Law.CRIMINAL_PROCEDURE: "刑事诉讼法",
    Law.PROCURATORATE_RULES: "刑事诉讼规则",
}
LAW_LINE_PREFIXES: dict[Law, str] = {law: f"{name}：" for law, name in LAW_LINE_NAMES.items()}
#: Separator between several articles of one law on a line.
ARTICLE_SEPARATOR = "、"
#: Written in 【适用法条】 when no article applies.
NO_ARTICLES = "无"

THINK_START = "<think>"
THINK_END = "</think>"

#: Label strings in table order, joined for prompts.
LABELS_JOINED = ARTICLE_SEPARATOR.join(LEVEL2_LABELS)

# --- reference-mode regexes (the published parser, reproduced exactly) --------------------------------------------------
REF_ARTICLES_END = re.compile(f"{re.escape(SECTION_ANALYSIS)}|{re.escape(SECTION_CONCLUSION)}")
#: "the first line after 刑法：" -- the rest of that line only (articles on the next line do not match).
REF_LAW_LINE: dict[Law, re.Pattern[str]] = {
    law: re.compile(f"{name}[：:][^\\S\\n]*(.*)") for law, name in LAW_LINE_NAMES.items()
}
REF_ARTICLE_SPLIT = re.compile(r"[、，,;；]")
REF_DECISION_LINE = re.compile(r"决定[：:]\s*(.*)")


def normalise_reference_decision(value: str) -> str:
    """A decision value as the reference code compares it: strip, delete every ``**``, drop one trailing ``。``,
    strip again. The reference applies this to a freshly parsed line and to a stored ``prediction.decision``.

    >>> [normalise_reference_decision(v) for v in ("**起诉**", " 相对不起诉。 ", "存疑不起诉。。", "起诉（提起公诉）")]
    ['起诉', '相对不起诉', '存疑不起诉。', '起诉（提起公诉）']
    """
    return value.strip().replace("**", "").removesuffix("。").strip()

# --- default-mode regexes --------------------------------------------------------------------------------------
_ORDINAL = r"(?:[一二三四五六七八九十\d]+[、.．)）]\s*)?"


def _heading(name: str) -> re.Pattern[str]:
    """A section heading in any form models use: 【名】, [名], a line '名' / '三、名：' / '## 名' (``#``/``*``
    are removed before matching)."""
    return re.compile(
        f"【\\s*{name}\\s*】|\\[\\s*{name}\\s*\\]|^[ \\t]*{_ORDINAL}{name}[ \\t]*(?:[：:]|$)", re.MULTILINE)


ARTICLES_HEADING_KEYS = (SECTION_ARTICLES_NAME, "适用法律", "法律依据")
HEADING_ARTICLES = _heading(f"(?:{'|'.join(ARTICLES_HEADING_KEYS)})")
HEADING_ANALYSIS = _heading(SECTION_ANALYSIS_NAME)
#: The short heading some models use instead of 最终结论 (also a cheap containment test before the regex).
CONCLUSION_SHORT_NAME = "结论"
HEADING_CONCLUSION = _heading(f"(?:{SECTION_CONCLUSION_NAME}|{CONCLUSION_SHORT_NAME})")
#: ``决定：`` with either colon, also ``处理决定：`` / ``决定为：``.
DECISION_LINE = re.compile(r"决定(?:为|是)?[ \t]*[：:][ \t]*([^\n]*)")
#: A law name at the start of an article group: ``刑法：``, ``《中华人民共和国刑法》``, ``《人民检察院刑事诉讼规则》``
#: (every alias of ``jiancha.law.patterns.LAW_ALIASES``, longest first); ``law_of_name`` maps a match to its law.
LAW_NAME = re.compile(r"《?[ \t]*(?P<alias>"
                      + "|".join(re.escape(a) for a in sorted(ALIAS_TO_LAW, key=len, reverse=True))
                      + r")[ \t]*》?")


def law_of_name(match: re.Match[str]) -> Law:
    return Law(ALIAS_TO_LAW[match.group("alias")])


#: Markdown emphasis and heading marks removed before default-mode parsing.
MARKDOWN_NOISE = re.compile(r"\*\*|__|`|^[ \t]*#{1,6}[ \t]*|^[ \t]*>[ \t]?", re.MULTILINE)


def _label_pattern() -> re.Pattern[str]:
    names = sorted(LABEL_SYNONYMS, key=len, reverse=True)
    # a bare 起诉/公诉 preceded by 不/未/免 is part of a negation, not the label P
    alts = [re.escape(n) if LABEL_SYNONYMS[n] is not Decision.PROSECUTE else f"(?<![不未免予]){re.escape(n)}"
            for n in names]
    return re.compile("|".join(alts))


#: Any label string or synonym (longest first); a bare ``起诉`` inside ``不起诉`` does not match.
LABEL_MENTION = _label_pattern()
#: Decision codes as a whole answer (``DNP``), default mode only.
LABEL_CODE = re.compile(r"^(P|DNP|SNP|IENP)$", re.IGNORECASE)
#: Trailing / leading punctuation stripped from a decision value in default mode.
VALUE_PUNCT = " \t\r\n。.．；;，,：:！!“”\"'「」『』《》*_`"
#: A short key before a bare label in a conclusion section without ``决定：`` (``处理意见：``, ``建议：``).
SHORT_KEY = re.compile(r"^[^：:，。,\n]{1,8}[：:]\s*")
#: The end of the first sentence of a decision value (explanations after it are ignored).
VALUE_SENTENCE_END = re.compile(r"[。；;\n]")
#: Characters whose presence makes default-mode parsing clean Markdown first.
MARKDOWN_CHAR = re.compile(r"[*_`#>]")

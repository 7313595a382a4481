"""The published RL reward's format rules (the paper's Table 16 reward), reproduced for ``compat="reference"``.

The reference reward is *not* the evaluation parser (docs/training.md §2): it checks a light format and
normalises the decision more leniently than evaluation, e.g. it accepts a trailing ``；`` or ``，``.

Rules, on the text after the first ``</think>`` (whole text when absent), stripped:

1. each of ``【适用法条】``, ``【审查分析】``, ``【最终结论】`` occurs exactly once, in that order;
2. the text holds exactly three ``【…】`` brackets in all;
3. the analysis (between ``【审查分析】`` and ``【最终结论】``) is not blank;
4. the decision line parses: after ``【最终结论】`` the first ``决定：``/``决定:`` match; leading whitespace (newlines
   included) skipped, the rest of that line taken, stripped, every ``**`` deleted, a trailing run of
   ``。；;，,、`` and whitespace deleted; it must then be one of the four labels.
"""

from __future__ import annotations

import re

from jiancha.law.labels import LEVEL2_LABELS
from jiancha.pdp.format import SECTION_ANALYSIS, SECTION_ARTICLES, SECTION_CONCLUSION, THINK_END

SECTIONS: tuple[str, ...] = (SECTION_ARTICLES, SECTION_ANALYSIS, SECTION_CONCLUSION)
_BRACKET = re.compile(r"【[^】]*】")
_CONCLUSION = re.compile(re.escape(SECTION_CONCLUSION) + r"(.*?)$", re.DOTALL)
_DECISION_LINE = re.compile(r"决定[：:]\s*(.*?)(?:\n|$)")
_TRAILING = re.compile(r"[。；;，,、\s]+$")


def answer_block(text: str) -> str:
    """What follows the first ``</think>``, stripped (the whole text stripped when there is none)."""
    i = text.find(THINK_END)
    return (text[i + len(THINK_END):] if i != -1 else text).strip()


def normalise_reference_label(label: str | None) -> str | None:
    """The reference's label normalisation; None when the result is not one of the four labels.

    >>> normalise_reference_label(" **相对不起诉**；"), normalise_reference_label("不起诉")
    ('相对不起诉', None)
    """
    if not isinstance(label, str):
        return None
    s = _TRAILING.sub("", label.strip().replace("**", ""))
    return s if s in LEVEL2_LABELS else None


def reference_decision(text: str) -> str | None:
    """The decision the reference reward reads from ``text`` (rule 4), or None."""
    sec = _CONCLUSION.search(answer_block(text))
    if sec is None:
        return None
    m = _DECISION_LINE.search(sec.group(1))
    return normalise_reference_label(m.group(1).strip()) if m else None


def reference_format_valid(text: str) -> bool:
    """Rules 1–4.

    >>> reference_format_valid("【适用法条】刑法：第一条\\n【审查分析】分析。\\n【最终结论】决定：起诉；")
    True
    >>> reference_format_valid("【适用法条】\\n【审查分析】 \\n【最终结论】决定：起诉")
    False
    """
    block = answer_block(text)
    positions = []
    for tag in SECTIONS:
        if block.count(tag) != 1:
            return False
        positions.append(block.find(tag))
    if positions != sorted(positions):
        return False
    if len(_BRACKET.findall(block)) != len(SECTIONS):
        return False
    if not block[positions[1] + len(SECTION_ANALYSIS):positions[2]].strip():
        return False
    return reference_decision(text) is not None

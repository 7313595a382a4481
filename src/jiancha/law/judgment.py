"""The parts of a criminal court document (刑事判决书 / 裁定书) given as plain text: facts, reasoning, verdict.

LeCaRD stores them as separate fields (``ajjbqk`` facts, ``cpfxgc`` reasoning, ``pjjg`` verdict); a document
copied from 中国裁判文书网 is one text with a header (court, title, case number, parties, procedure) before them
and a tail (appeal notice, judges, date, clerk) after. The facts begin at the first fact marker
(:data:`FACT_MARKERS`: the indictment's account 公诉机关指控：…, the court's findings 经审理查明…, on appeal
原判认定…), the reasoning at the first 本院认为 after them, the verdict after 判决如下 / 裁定如下, up to the appeal
notice or the signatures (:data:`VERDICT_ENDS`). A part whose marker is missing is empty; a text without any
fact marker keeps everything before the reasoning as its facts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jiancha.law.patterns import CLAUSE_END_CHARS

#: Openings of the facts: the prosecution's account (``指控`` followed by punctuation or 称, so that the header's
#: 以…起诉书指控被告人犯…罪 does not count) and the court's findings, first instance or on appeal.
FACT_MARKERS = re.compile(
    r"(?:公诉机关|检察院|自诉人)指控(?:称|[：:，,])"
    r"|(?:经|本院)(?:依法)?(?:二审)?(?:审理|审查)(?:查明|认定|确认)"
    r"|本院查明|(?:原判|原审判决|一审判决|原审法院)(?:认定|查明)")
REASONING_MARKER = "本院认为"
#: The operative part begins after one of these (and its colon).
VERDICT_MARKERS = re.compile(r"(?:判决|裁定|决定)如下[：:，,]?")
#: Where the operative part ends: the appeal notice, the finality note's successor lines, or the signatures.
VERDICT_ENDS = re.compile(r"如不服本(?:判决|裁定)|(?:^|\n)\s*(?:审\s*判\s*长|审\s*判\s*员|人民陪审员)")
_CLAUSE_START = re.compile(f"[{CLAUSE_END_CHARS}][^{CLAUSE_END_CHARS}]*\\Z")


@dataclass(frozen=True)
class JudgmentParts:
    header: str
    fact: str
    reason: str
    result: str


def _sentence_start(text: str, pos: int) -> int:
    """Start of the sentence or line holding ``pos`` (so 2019年5月，公诉机关指控：… keeps its date)."""
    m = _CLAUSE_START.search(text, 0, pos)
    return m.start() + 1 if m else 0


def split_judgment(text: str) -> JudgmentParts:
    """Header, facts, reasoning and verdict of a court document (see the module docstring); parts stripped.

    >>> p = split_judgment("某某法院\\n刑事判决书\\n公诉机关指控：被告人甲盗窃。经审理查明，甲窃取手机。"
    ...                    "本院认为，甲构成盗窃罪。判决如下：\\n被告人甲犯盗窃罪，判处拘役三个月。\\n如不服本判决，可上诉。")
    >>> p.header, p.fact[:6], p.reason[:4], p.result
    ('某某法院\\n刑事判决书', '公诉机关指控', '本院认为', '被告人甲犯盗窃罪，判处拘役三个月。')
    """
    fm = FACT_MARKERS.search(text)
    r = text.find(REASONING_MARKER, fm.end() if fm else 0)
    vm = VERDICT_MARKERS.search(text, r if r >= 0 else (fm.end() if fm else 0))
    end_fact = r if r >= 0 else (vm.start() if vm else len(text))
    start_fact = _sentence_start(text, fm.start()) if fm else 0
    if fm and start_fact > fm.start():
        start_fact = fm.start()
    if r >= 0:
        reason_end = vm.start() if vm else len(text)
        reason = text[r:reason_end]
    else:
        reason = ""
    if vm:
        em = VERDICT_ENDS.search(text, vm.end())
        result = text[vm.end():em.start() if em else len(text)]
    else:
        result = ""
    header = text[:start_fact] if fm else ""
    return JudgmentParts(header.strip(), text[start_fact:end_fact].strip(), reason.strip(), result.strip())

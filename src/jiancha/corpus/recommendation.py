"""The three PDP inputs of a police 起诉意见书 (recommendation to prosecute), the document a prosecutor reviews a
case from.

Its order: the issuing organ, the title, the document number, the suspect paragraphs (particulars, record,
compulsory measures; defence counsel lines after them), the police's procedure (how the case came to them: …一案，
由被害人…报案至我局, then 立案 and the measures), the facts after a lead-in (经依法侦查查明：) with the evidence and
the circumstances, then the conclusion (综上所述，…其行为已触犯《中华人民共和国刑法》第…条…，涉嫌…罪。依照…特将
本案移送审查起诉), 此致, the procuratorate, the organ and the date. The facts run from the lead-in (not included) to
the conclusion; without a lead-in, from the first paragraph after the procedure that is not a procedural event.
Pure functions over the document's paragraphs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jiancha.law.phrases import (
    COUNSEL_LINE_RE,
    PERSON_HEADING_RE,
    PERSON_PARTICULARS_RE,
    POLICE_CONCLUSION_RE,
    POLICE_FACT_LEAD_IN_RE,
    POLICE_PROCEDURE_START_RE,
    RECOMMENDATION_TITLE,
    REPRESENTATIVE_HEADER_RE,
    SUSPECT_HEADER_RE,
)

#: A line of the police's procedure after its first paragraph (further measures, not yet the facts).
_PROCEDURE_EVENT_RE = re.compile(r"^[^。]{0,30}?(?:立案|刑事拘留|逮捕|取保候审|监视居住|羁押|补充侦查|侦查终结|"
                                 r"移送|抓获归案|投案)")
#: A line that continues a suspect's paragraph: the record (违法犯罪经历 / 曾因… / 2015年因…被判处…) and the
#: measures taken (因涉嫌盗窃罪于…被刑事拘留).
_PERSON_MORE_RE = re.compile(r"^(?:违法犯罪经历|前科|劣迹|曾因|曾于|\d{4}年[^。]{0,24}?因|因(?:涉嫌|犯|故意|吸毒)|"
                             r"[^。]{0,30}?(?:被[^。]{0,16}?(?:刑事拘留|逮捕|取保候审|监视居住|判处|行政拘留)|刑满释放))")
#: The title as a line: alone, or after the organ's name, or before the document number.
_TITLE_MAX = 40


@dataclass(frozen=True)
class Recommendation:
    """The paragraphs of a 起诉意见书's three inputs (counsel lines left out of the persons)."""

    person_lines: tuple[str, ...]
    procedure_lines: tuple[str, ...]
    fact_lines: tuple[str, ...]


def is_recommendation(lines: list[str]) -> bool:
    """Whether a short line among the first ten is the title 起诉意见书."""
    return any(RECOMMENDATION_TITLE in ln.replace(" ", "") and len(ln) <= _TITLE_MAX for ln in lines[:10])


def _is_person_line(line: str) -> bool:
    return bool((SUSPECT_HEADER_RE.match(line) and PERSON_PARTICULARS_RE.match(line))
                or REPRESENTATIVE_HEADER_RE.match(line) or PERSON_HEADING_RE.match(line))


def split_recommendation(lines: list[str]) -> Recommendation | None:
    """The three inputs of the 起诉意见书 whose paragraphs are ``lines``; None when no suspect paragraph is found."""
    start = next((i for i, ln in enumerate(lines) if _is_person_line(ln) and not PERSON_HEADING_RE.match(ln)), None)
    if start is None:
        return None
    persons: list[str] = []
    i = start
    while i < len(lines):
        line = lines[i]
        if i > start and (POLICE_FACT_LEAD_IN_RE.match(line) or not (
                _is_person_line(line) or COUNSEL_LINE_RE.match(line) or _PERSON_MORE_RE.match(line))):
            break
        if not COUNSEL_LINE_RE.match(line) and not PERSON_HEADING_RE.match(line):
            persons.append(line)
        i += 1
    rest = lines[i:]
    end = next((k for k, ln in enumerate(rest) if POLICE_CONCLUSION_RE.search(ln)), len(rest))
    lead_at = next((k for k, ln in enumerate(rest[:end]) if POLICE_FACT_LEAD_IN_RE.search(ln)), None)
    if lead_at is not None:           # everything before the lead-in is procedure
        line = rest[lead_at]
        lead = POLICE_FACT_LEAD_IN_RE.search(line)
        assert lead is not None
        procedure = [*rest[:lead_at], *([line[: lead.start()].strip()] if line[: lead.start()].strip() else [])]
        facts = [line[lead.end():].strip(), *rest[lead_at + 1: end]]
    else:                             # the facts start with the first paragraph that narrates
        k = 0
        while k < end and ((k == 0 and POLICE_PROCEDURE_START_RE.match(rest[k]))
                           or (k > 0 and _PROCEDURE_EVENT_RE.match(rest[k]))):
            k += 1
        procedure, facts = rest[:k], rest[k:end]
    return Recommendation(tuple(persons), tuple(ln for ln in procedure if ln and not COUNSEL_LINE_RE.match(ln)),
                          tuple(ln for ln in facts if ln))

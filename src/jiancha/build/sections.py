"""Split a prosecutorial document body into the PDP-Bench sections.

Order in a 起诉书 / 不起诉决定书: procuratorate, title, case number, suspect paragraphs (with defence-counsel
lines), procedure (本案由…), facts (the investigators' version, then the procuratorate's own findings after a
lead-in such as 经依法审查查明：, with the evidence list), reasoning and decision (本院认为…), then appeal
notices, salutation, signature and date. Pure functions over ``RawDocument.lines``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jiancha.build.ingest import RawDocument
from jiancha.build.text import is_date_line, normalize_case_number
from jiancha.law.phrases import (
    COUNSEL_LINE_RE,
    FACT_LEAD_IN_RE,
    POLICE_VERSION_RE,
    PROCEDURE_START_RE,
    PROCURATORATE_NAME_RE,
    PSEUDONYM_MARK,
    PSEUDONYM_SUFFIXES,
    REASONING_END_RE,
    REASONING_START_RE,
    SUSPECT_HEADER_RE,
)


class SectionError(Exception):
    """A required section is missing; the message is the rejection reason."""


@dataclass(frozen=True)
class Suspect:
    """One suspect (person or unit) of the person block: name as written and its paragraphs."""

    address: str
    name: str
    lines: tuple[str, ...]

    def mention_re(self) -> re.Pattern[str]:
        """Matches the name but not a longer 某-form (王某 must not match 王某某)."""
        return re.compile(re.escape(self.name) + f"(?![{PSEUDONYM_MARK}{PSEUDONYM_SUFFIXES}])")


@dataclass(frozen=True)
class Sections:
    procuratorate: str
    suspects: tuple[Suspect, ...]
    person_lines: tuple[str, ...]       # counsel lines removed
    counsel_lines: tuple[str, ...]
    procedure_lines: tuple[str, ...]
    investigator_lines: tuple[str, ...]  # the police's version, not part of ``fact``
    fact_lines: tuple[str, ...]
    reasoning_lines: tuple[str, ...]
    signature_date_line: str | None


def _strip_lead_in(line: str) -> str:
    m = FACT_LEAD_IN_RE.match(line)
    return line[m.end():].strip() if m else line


def _is_end_line(line: str) -> bool:
    s = line.replace(" ", "")
    return bool(REASONING_END_RE.match(s) or PROCURATORATE_NAME_RE.match(s) or is_date_line(s))


def _suspects(person_lines: list[str]) -> tuple[Suspect, ...]:
    out: list[tuple[str, str, list[str]]] = []
    for line in person_lines:
        m = SUSPECT_HEADER_RE.match(line)
        if m:
            out.append((m["address"], m["name"], [line]))
        elif out:
            out[-1][2].append(line)
    return tuple(Suspect(a, n, tuple(ls)) for a, n, ls in out)


def split_sections(doc: RawDocument) -> Sections:
    """Sections of ``doc``; raise SectionError naming the first missing section."""
    lines = list(doc.lines)
    i = doc.title_index + 1
    if i < len(lines) and doc.case_number and normalize_case_number(lines[i]) == doc.case_number:
        i += 1
    procuratorate = lines[0].replace(" ", "") if doc.title_index > 0 else ""
    person: list[str] = []
    counsel: list[str] = []
    procedure: list[str] = []
    fact_block: list[str] = []
    reasoning: list[str] = []
    state = "person"
    for line in lines[i:]:
        if state == "person":
            if PROCEDURE_START_RE.match(line):
                state = "procedure"
            elif COUNSEL_LINE_RE.match(line):
                counsel.append(line)
                continue
            else:
                person.append(line)
                continue
        if state == "procedure":
            if FACT_LEAD_IN_RE.match(line) or POLICE_VERSION_RE.match(line):
                state = "fact"
            elif REASONING_START_RE.match(line):
                state = "reasoning"
            else:
                procedure.append(line)
                continue
        if state == "fact":
            if REASONING_START_RE.match(line):
                state = "reasoning"
            else:
                fact_block.append(line)
                continue
        if state == "reasoning":
            if _is_end_line(line):
                break
            reasoning.append(line)
    if not person:
        raise SectionError("no suspect information (expected a paragraph starting 犯罪嫌疑人/被不起诉人/被告人)")
    if not procedure:
        raise SectionError("no procedure section (expected a paragraph starting 本案由…)")
    if not fact_block:
        raise SectionError("no facts section (expected a lead-in such as 经依法审查查明：)")
    if not reasoning:
        raise SectionError("no reasoning and decision (expected a paragraph starting 本院认为)")
    investigator, fact = _own_findings(fact_block)
    if not fact:
        raise SectionError("facts section is empty after the lead-in")
    date_line = lines[-1] if lines and is_date_line(lines[-1]) else None
    return Sections(procuratorate=procuratorate, suspects=_suspects(person), person_lines=tuple(person),
                    counsel_lines=tuple(counsel), procedure_lines=tuple(procedure),
                    investigator_lines=tuple(investigator), fact_lines=tuple(fact),
                    reasoning_lines=tuple(reasoning), signature_date_line=date_line)


def _own_findings(block: list[str]) -> tuple[list[str], list[str]]:
    """(investigators' version, the procuratorate's own findings without lead-ins and repeated lines)."""
    police = [k for k, ln in enumerate(block) if POLICE_VERSION_RE.match(ln) and not FACT_LEAD_IN_RE.match(ln)]
    own = [k for k, ln in enumerate(block) if FACT_LEAD_IN_RE.match(ln)]
    start = 0
    if police:
        after = [k for k in own if k > police[-1]]
        start = after[0] if after else 0
    elif own:
        start = own[0]
    fact: list[str] = []
    seen: set[str] = set()
    for line in block[start:]:
        text = _strip_lead_in(line) if FACT_LEAD_IN_RE.match(line) else line
        key = re.sub(r"\s+", "", text)
        if not key or key in seen:
            continue
        seen.add(key)
        fact.append(text)
    return block[:start], fact

